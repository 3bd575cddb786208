#!/usr/bin/env bash
# Set up gapscope on a fresh Debian 12 machine (run as root): install what is
# missing, configure, build, then either run the main job or the tests.
#   bash scripts/bootstrap.sh run    # the app on the bundled sample (CLI report when headless)
#   bash scripts/bootstrap.sh test   # the checked build and the whole test suite
# The tests run in the checked build (build-checked/, docs/fuzzing.md): clang,
# AddressSanitizer + UndefinedBehaviorSanitizer, assertions on, every target
# (app, CLI, recorder, benchmarks, tests), plus a short run of each libFuzzer
# target (GAPSCOPE_FUZZ_SECONDS, 10 by default). `run` uses the optimised
# build (build/). GAPSCOPE_PLAIN_TESTS=1 runs the tests in build/ instead
# (quicker to iterate on; no sanitizers, no fuzzing).
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
# The checked build: clang 14 with libFuzzer and the sanitizers' runtimes.
packages+=(clang-14 libclang-rt-14-dev)
# The Dask path of `ranks` (python/gapscope_dask) and its test.
packages+=(python3-distributed python3-pandas)

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

# The checked build (docs/fuzzing.md): everything, built by clang 14 with
# AddressSanitizer and UndefinedBehaviorSanitizer (any report fails the
# test), assertions on (Debug at -O1, line tables for the reports' stacks),
# and the libFuzzer targets, which ctest runs for GAPSCOPE_FUZZ_SECONDS each.
# Everything but the CUDA module (the CUPTI layer, its nvcc-compiled
# workloads), the injection library and the benchmarks (the rank set
# generator the tests use excepted): nothing runs them in the tests, the
# optimised build (`run`) compiles them, and leaving them out keeps the
# test command inside CI's 10 minutes. The CUDA-free recorder (the program
# recording, the wire, the conversion) is built and tested here.
checked_build() {
  local gpu=OFF
  [[ -x /usr/local/cuda/bin/nvcc ]] && gpu=ON
  cmake -S . -B "$checked" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DGAPSCOPE_BUILD_GPU=$gpu -DGAPSCOPE_GPU_WITH_CUDA=OFF -DGAPSCOPE_BUILD_BENCH=OFF \
    -DGAPSCOPE_SANITIZE=ON -DGAPSCOPE_BUILD_FUZZ=ON -DGAPSCOPE_FUZZ_SECONDS="${GAPSCOPE_FUZZ_SECONDS:-10}"
  # One job more than cores: links and the CUDA compiler leave a core idle now and then.
  cmake --build "$checked" -j "$(($(nproc) + 1))"
}

run_tests() {
  if [[ ${GAPSCOPE_PLAIN_TESTS:-0} == 1 ]]; then
    configure_and_build
    (cd "$build" && ctest --output-on-failure -j "$(nproc)")
    return
  fi
  if ! command -v clang++-14 >/dev/null; then
    echo "== clang++-14 not found: the sanitizers and the fuzz runs are SKIPPED;" \
      "the tests run in the plain build (apt-get install clang-14 libclang-rt-14-dev)"
    configure_and_build
    (cd "$build" && ctest --output-on-failure -j "$(nproc)")
    return
  fi
  checked_build
  echo "== the whole suite under ASan+UBSan, and each fuzz target for ${GAPSCOPE_FUZZ_SECONDS:-10} s"
  (cd "$checked" && ctest --output-on-failure -j "$(nproc)")
}

install_missing
case "$mode" in
  run)
    configure_and_build
    if [[ -n ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then
      exec "$build/app/gapscope" "$sample"
    fi
    echo "== no display: the command-line report of $sample"
    "$build/cli/gapscope-cli" summary "$sample"
    "$build/cli/gapscope-cli" gaps "$sample" --limit 10
    "$build/cli/gapscope-cli" ops "$sample" --limit 15
    ;;
  test)
    run_tests
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
