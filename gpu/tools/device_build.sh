#!/usr/bin/env bash
# Builds gapscope on a GPU machine without the GUI (CUDA 13, no Qt there):
#   OUT=/some/dir BUILD=/tmp/gapscope-build gpu/tools/device_build.sh TARGET...
# (GAPSCOPE_BENCH=ON builds the benchmarks too.)
# Debian packages the machine lacks (nlohmann-json, simdjson, GoogleTest,
# zlib headers) are taken from .deps/*.deb when present (dpkg -x, no
# install). The configure and build log goes to $OUT/build.log.
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the logs}
BUILD=${BUILD:-/tmp/gapscope-build}
DEPS=/tmp/gapscope-deps

prefix_args=()
if ls .deps/*.deb > /dev/null 2>&1; then
  mkdir -p "$DEPS"
  for f in .deps/*.deb; do dpkg -x "$f" "$DEPS"; done
  prefix_args+=("-DCMAKE_PREFIX_PATH=$DEPS/usr")
  if [ ! -f /usr/include/zlib.h ]; then
    prefix_args+=("-DZLIB_INCLUDE_DIR=$DEPS/usr/include" "-DZLIB_LIBRARY=$(ls /usr/lib/x86_64-linux-gnu/libz.so.1* | head -1)")
  fi
fi

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGAPSCOPE_BUILD_GUI=OFF -DGAPSCOPE_BUILD_BENCH=${GAPSCOPE_BENCH:-OFF} \
  -DCMAKE_CUDA_ARCHITECTURES=90 "${prefix_args[@]}" > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target "$@" >> "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build ok"
