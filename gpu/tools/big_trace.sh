#!/usr/bin/env bash
# Opening one very large trace on the GPU machine's cores (docs/performance.md,
# "A 10 GB trace"): a generated trace of SIZE_MB (default 10000), then
# `gapscope-cli summary` (the load) and `report` (the load and every analysis,
# what the app computes on opening) with the heap on huge pages (gapscope's
# default) and without (glibc.malloc.hugetlb=0; HUGE="default 0"), alternated,
# ROUNDS times.
#   OUT=/some/dir gpu/tools/big_trace.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
export BUILD=${BUILD:-/tmp/gapscope-build} GAPSCOPE_BENCH=ON
gpu/tools/device_build.sh gapscope-cli gapscope-gen-trace || exit 1
R=$OUT/big_trace.txt
# timed COMMAND...: wall and CPU seconds and peak RSS of the command (no
# /usr/bin/time on every machine).
timed() {
  python3 -c '
import resource, subprocess, sys, time
start = time.time()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.time() - start:.2f} s wall, {u.ru_utime:.2f} s user, {u.ru_stime:.2f} s sys, peak RSS {u.ru_maxrss} KB, exit {code}")' "$@"
}
TRACE=/tmp/gapscope-big.json
"$BUILD/bench/load/gapscope-gen-trace" "$TRACE" "${SIZE_MB:-10000}" > /dev/null || exit 1
{ nproc; ls -l "$TRACE"; } > "$R"
for round in $(seq "${ROUNDS:-2}"); do
  for huge in ${HUGE:-default 0}; do
    tunables=()
    [ "$huge" = 0 ] && tunables=(GLIBC_TUNABLES=glibc.malloc.hugetlb=0)
    for cmd in summary report; do
      extra=()
      [ "$cmd" = report ] && extra=(--format json -o /tmp/gapscope-big-report.json)
      echo -n "round $round, huge pages $huge, $cmd: " >> "$R"
      timed env "${tunables[@]}" "$BUILD/cli/gapscope-cli" "$cmd" "$TRACE" "${extra[@]}" >> "$R"
    done
  done
done
rm -f "$TRACE"
grep -E "^[0-9]|round|gapscope-big" "$R"
