#!/usr/bin/env bash
# Set up gapscope on a fresh Debian 12 machine (run as root): install what is
# missing, configure, build, then either run the main job or the tests.
#   bash scripts/bootstrap.sh run    # the app on the bundled sample (CLI report when headless)
#   bash scripts/bootstrap.sh test   # build and run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
build=${GAPSCOPE_BUILD_DIR:-build}
sample=resources/samples/h200_split_stack.json
[[ -f $sample ]] || sample=resources/samples/split_stack_eager.json

packages=(build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev libqcustomplot-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev
  libgtest-dev googletest xvfb xauth desktop-file-utils appstream shared-mime-info
  libxml2-utils groff-base dpkg-dev)

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
    cd "$build"
    ctest --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
