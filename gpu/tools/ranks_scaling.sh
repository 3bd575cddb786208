#!/usr/bin/env bash
# How opening many ranks scales with cores (docs/ranks.md), on the GPU
# machine (16+ cores): 16 generated ranks of about 100 MB each, opened by
# gapscope-bench-ranks on 1, 2, 4, 8 and 16 cores (taskset), each against
# its first rank alone on the same cores.
#   OUT=/some/dir gpu/tools/ranks_scaling.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
export BUILD=${BUILD:-/tmp/gapscope-build} GAPSCOPE_BENCH=ON
gpu/tools/device_build.sh gapscope-bench-ranks gapscope-gen-ranks || exit 1
SET=/tmp/gapscope-r16x100
rm -rf "$SET"
"$BUILD/bench/ranks/gapscope-gen-ranks" "$SET" --ranks 16 --megabytes 100 --gap-rank 5 --gap-step 300 \
  --late-rank 11 --late-step 700 > /dev/null || exit 1
du -sh "$SET" | tee "$OUT/ranks_scaling.txt"
nproc >> "$OUT/ranks_scaling.txt"
for cores in 1 2 4 8 16; do
  echo "== $cores cores" >> "$OUT/ranks_scaling.txt"
  taskset -c "0-$((cores - 1))" "$BUILD/bench/ranks/gapscope-bench-ranks" "$SET" --repeat 1 >> "$OUT/ranks_scaling.txt" 2>&1
done
cat "$OUT/ranks_scaling.txt"
