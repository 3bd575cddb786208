#!/usr/bin/env bash
# How opening many ranks scales with cores (docs/ranks.md), on the GPU
# machine (16+ cores): 16 generated ranks of about 100 MB each, opened by
# gapscope-bench-ranks on 1, 2, 4, 8 and 16 cores (taskset), each against
# its first rank alone on the same cores. ARENAS="default 1 128" repeats each
# with MALLOC_ARENA_MAX unset (gapscope's one arena per core), 1 and 128
# (glibc's own limit on 16 cores); LOAD_MB=1000 also times one trace of that
# size (gapscope-bench-load) on all cores under each.
#   OUT=/some/dir gpu/tools/ranks_scaling.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
export BUILD=${BUILD:-/tmp/gapscope-build} GAPSCOPE_BENCH=ON
gpu/tools/device_build.sh gapscope-bench-ranks gapscope-gen-ranks gapscope-bench-load gapscope-gen-trace || exit 1
SET=/tmp/gapscope-r16x100
rm -rf "$SET"
"$BUILD/bench/ranks/gapscope-gen-ranks" "$SET" --ranks 16 --megabytes 100 --gap-rank 5 --gap-step 300 \
  --late-rank 11 --late-step 700 > /dev/null || exit 1
du -sh "$SET" | tee "$OUT/ranks_scaling.txt"
nproc >> "$OUT/ranks_scaling.txt"
with_arenas() {  # with_arenas SETTING COMMAND...: MALLOC_ARENA_MAX for one command
  if [ "$1" = default ]; then shift; env -u MALLOC_ARENA_MAX "$@"; else local a=$1; shift; MALLOC_ARENA_MAX=$a "$@"; fi
}
for arenas in ${ARENAS:-default}; do
  for cores in ${CORES:-1 2 4 8 16}; do
    echo "== $cores cores, arenas $arenas" >> "$OUT/ranks_scaling.txt"
    with_arenas "$arenas" taskset -c "0-$((cores - 1))" "$BUILD/bench/ranks/gapscope-bench-ranks" "$SET" --repeat 1 >> "$OUT/ranks_scaling.txt" 2>&1
  done
done
if [ -n "${LOAD_MB:-}" ]; then
  "$BUILD/bench/load/gapscope-gen-trace" /tmp/gapscope-load.json "$LOAD_MB" > /dev/null || exit 1
  for arenas in ${ARENAS:-default}; do
    echo "== one ${LOAD_MB} MB trace, all cores, arenas $arenas" >> "$OUT/ranks_scaling.txt"
    with_arenas "$arenas" "$BUILD/bench/load/gapscope-bench-load" /tmp/gapscope-load.json --repeat 2 2>&1 | grep -E "^(load|scan):" >> "$OUT/ranks_scaling.txt"
  done
fi
cat "$OUT/ranks_scaling.txt"
