#!/usr/bin/env bash
# Set up gapscope on a fresh Debian 12 machine (run as root): install what is
# missing, configure, build, then either run the main job or the tests.
#   bash scripts/bootstrap.sh run    # the app on the bundled sample (CLI report when headless)
#   bash scripts/bootstrap.sh test   # build and run the whole test suite
#   GAPSCOPE_CHECKED=1 bash scripts/bootstrap.sh test
#                                    # then also the checked build: core, CLI and their
#                                    # tests under ASan+UBSan, and a short run of each
#                                    # fuzz target (docs/fuzzing.md)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
build=${GAPSCOPE_BUILD_DIR:-build}
checked=${GAPSCOPE_CHECKED_BUILD_DIR:-build-checked}
sample=resources/samples/h200_split_stack.json
[[ -f $sample ]] || sample=resources/samples/split_stack_eager.json

packages=(build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev libqcustomplot-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev
  libgtest-dev googletest xvfb xauth desktop-file-utils appstream shared-mime-info
  libxml2-utils groff-base dpkg-dev)
# The checked build needs clang (libFuzzer and the sanitizers' runtimes).
if [[ ${GAPSCOPE_CHECKED:-0} == 1 ]]; then packages+=(clang-14 libclang-rt-14-dev); fi

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

configure_and_build() {
  local gpu=OFF
  # The recorder needs the CUDA toolkit (nvcc, CUPTI) to build, not a GPU.
  [[ -x /usr/local/cuda/bin/nvcc ]] && gpu=ON
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DGAPSCOPE_BUILD_GPU=$gpu
  cmake --build "$build" -j "$(nproc)"
}

# The checked build (docs/fuzzing.md): clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, assertions on (Debug at -O1), the Qt-free core,
# the CLI and their tests (no GUI, recorder or benchmarks), and the libFuzzer
# targets, which ctest runs for GAPSCOPE_FUZZ_SECONDS each.
checked_build_and_test() {
  if ! command -v clang++-14 >/dev/null; then
    echo "== clang++-14 not found: the sanitizer build and the fuzz runs are SKIPPED" \
      "(apt-get install clang-14 libclang-rt-14-dev)"
    return 0
  fi
  cmake -S . -B "$checked" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_CXX_COMPILER=clang++-14 \
    -DGAPSCOPE_SANITIZE=ON -DGAPSCOPE_BUILD_FUZZ=ON -DGAPSCOPE_FUZZ_SECONDS="${GAPSCOPE_FUZZ_SECONDS:-20}" \
    -DGAPSCOPE_BUILD_GUI=OFF -DGAPSCOPE_BUILD_GPU=OFF -DGAPSCOPE_BUILD_BENCH=OFF
  cmake --build "$checked" -j "$(nproc)"
  echo "== checked build: core and CLI tests under ASan+UBSan, fuzz targets ${GAPSCOPE_FUZZ_SECONDS:-20} s each"
  # Left to the normal build: LevelOfDetail.EveryOccupiedPixelAndNothingElseIsMarked
  # compares pixel edges computed in floating point, which clang rounds the
  # other way from gcc; and, for the CI time, the three slowest suites under
  # ASan (76, 28 and 26 s), which repeat on every real trace what other tests
  # check once: OneGpuBusy.SummaryAndGapsAgree..., GapReference.BigRandomTrace...,
  # Data/RealTrace.SameTraceWithSmallChunksAndMoreThreads.
  local skip='LevelOfDetail.EveryOccupiedPixelAndNothingElseIsMarked|OneGpuBusy.SummaryAndGapsAgreeWithTheJsonOnEveryRealTrace'
  skip+='|GapReference.BigRandomTraceMatchesTheReferenceOnOneAndTwoThreads|RealTrace.SameTraceWithSmallChunksAndMoreThreads'
  (cd "$checked" && ctest --output-on-failure -j "$(nproc)" -E "$skip")
}

install_missing
configure_and_build
case "$mode" in
  run)
    if [[ -n ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then
      exec "$build/app/gapscope" "$sample"
    fi
    echo "== no display: the command-line report of $sample"
    "$build/cli/gapscope-cli" summary "$sample"
    "$build/cli/gapscope-cli" gaps "$sample" --limit 10
    "$build/cli/gapscope-cli" ops "$sample" --limit 15
    ;;
  test)
    (cd "$build" && ctest --output-on-failure -j "$(nproc)")
    # Opt-in until it fits CI's time budget beside the normal build (docs/fuzzing.md).
    if [[ ${GAPSCOPE_CHECKED:-0} == 1 ]]; then checked_build_and_test; fi
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
