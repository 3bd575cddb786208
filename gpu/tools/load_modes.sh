#!/usr/bin/env bash
# How reading a trace depends on the heap's huge pages and on reading or
# mapping the file (docs/reader.md), on the GPU machine: one generated trace
# per size in SIZES (MB), gapscope-bench-load on CORES_LIST (2 and all) with
# glibc.malloc.hugetlb=0 and 1 and GAPSCOPE_READ_MODE read and map; then 8
# ranks of 100 MB on 2 cores with and without huge pages.
#   OUT=/some/dir gpu/tools/load_modes.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
export BUILD=${BUILD:-/tmp/gapscope-build} GAPSCOPE_BENCH=ON
gpu/tools/device_build.sh gapscope-bench-ranks gapscope-gen-ranks gapscope-bench-load gapscope-gen-trace || exit 1
R=$OUT/load_modes.txt
{ nproc; ldd --version | head -1; cat /sys/kernel/mm/transparent_hugepage/enabled; } > "$R"
all=$(($(nproc) - 1))
for size in ${SIZES:-500 1500}; do
  "$BUILD/bench/load/gapscope-gen-trace" "/tmp/t$size.json" "$size" > /dev/null || exit 1
  for cores in "0-1" "0-$all"; do
    for huge in 0 1; do
      for mode in read map; do
        echo "== $size MB, cores $cores, hugetlb=$huge, $mode" >> "$R"
        GLIBC_TUNABLES=glibc.malloc.hugetlb=$huge GAPSCOPE_READ_MODE=$mode taskset -c "$cores" \
          "$BUILD/bench/load/gapscope-bench-load" "/tmp/t$size.json" --repeat 3 2>&1 | grep -E "^(load|scan):" >> "$R"
      done
    done
  done
  rm -f "/tmp/t$size.json"
done
SET=/tmp/gapscope-r8x100
"$BUILD/bench/ranks/gapscope-gen-ranks" "$SET" --ranks 8 --megabytes 100 > /dev/null || exit 1
for huge in 0 1 0 1; do
  echo "== 8 ranks x 100 MB, 2 cores, hugetlb=$huge" >> "$R"
  GLIBC_TUNABLES=glibc.malloc.hugetlb=$huge taskset -c 0-1 "$BUILD/bench/ranks/gapscope-bench-ranks" "$SET" --repeat 3 >> "$R" 2>&1
done
cat "$R"
