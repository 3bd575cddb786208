#!/usr/bin/env bash
# Where a rank set's time goes on many cores (docs/ranks.md): 16 generated
# ranks of about 100 MB opened by gapscope-bench-ranks on 1 and 16 cores,
# with /usr/bin/time's user and system time, page faults and context
# switches, and a perf profile on 16 cores when perf is there; then the same
# on 16 cores with glibc keeping what a rank frees for the next one
# (mmap and trim thresholds at 256 MiB).
#   OUT=/some/dir gpu/tools/ranks_where_time_goes.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
export BUILD=${BUILD:-/tmp/gapscope-build} GAPSCOPE_BENCH=ON
gpu/tools/device_build.sh gapscope-bench-ranks gapscope-gen-ranks || exit 1
SET=/tmp/gapscope-r16x100
rm -rf "$SET"
"$BUILD/bench/ranks/gapscope-gen-ranks" "$SET" --ranks 16 --megabytes 100 --gap-rank 5 --gap-step 300 \
  --late-rank 11 --late-step 700 > /dev/null || exit 1
R="$OUT/ranks_where.txt"
{ du -sh "$SET"; nproc; } > "$R"
timed() {  # timed LABEL CORES [ENV...]
  local label=$1 cores=$2; shift 2
  echo "== $label, $cores cores" >> "$R"
  env "$@" /usr/bin/time -f "wall %e s user %U s sys %S s minor faults %R major %F voluntary cs %w involuntary cs %c maxrss %M KB" \
    taskset -c "0-$((cores - 1))" "$BUILD/bench/ranks/gapscope-bench-ranks" "$SET" --repeat 3 >> "$R" 2>&1
}
for round in 1 2; do
  timed "default r$round" 1
  timed "default r$round" 16
  timed "thresholds 256 MiB r$round" 16 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=268435456
done
if command -v perf > /dev/null; then
  perf record -g -o /tmp/ranks.perf taskset -c 0-15 "$BUILD/bench/ranks/gapscope-bench-ranks" "$SET" --repeat 2 > /dev/null 2>&1
  perf report -i /tmp/ranks.perf --no-children --stdio --sort dso,sym 2>/dev/null | grep -E "^ +[0-9]" | head -45 > "$OUT/ranks_perf.txt"
  perf report -i /tmp/ranks.perf --no-children --stdio --sort dso 2>/dev/null | grep -E "^ +[0-9]" | head -10 >> "$OUT/ranks_perf.txt"
else
  echo "no perf" > "$OUT/ranks_perf.txt"
fi
cat "$R"
