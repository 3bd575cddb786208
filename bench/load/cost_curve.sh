#!/usr/bin/env bash
# The load's cost per event as the trace grows (issue 16: flat from 100 MB
# to 4 GB): generates a trace of each size in SIZES_MB, runs
# gapscope-bench-load on it (the bare scan and the load, best of REPEAT) and
# prints one row per size, for each CPU list in CPUSETS (taskset; empty: all
# cores). The traces are removed as it goes.
#   BUILD=build DIR=/tmp bench/load/cost_curve.sh
#   CPUSETS="0-15 0,1" SIZES_MB="500 1500" bench/load/cost_curve.sh
set -u -o pipefail
BUILD=${BUILD:-build}
DIR=${DIR:-/tmp}
printf '%8s %8s %10s %12s %12s %12s %10s %8s\n' "cpus" "MB" "events" "scan ns/ev" "load ns/ev" "cpu ns/ev" "RSS/file" "ratio"
for mb in ${SIZES_MB:-100 500 1500 4000}; do
  trace="$DIR/gapscope-curve-$mb.json"
  "$BUILD/bench/load/gapscope-gen-trace" "$trace" "$mb" > /dev/null || exit 1
  for cpus in ${CPUSETS:-all}; do
    pin=()
    [ "$cpus" != all ] && pin=(taskset -c "$cpus")
    out=$("${pin[@]}" "$BUILD/bench/load/gapscope-bench-load" "$trace" --repeat "${REPEAT:-3}")
    scan=$(grep '^scan:' <<< "$out")
    load=$(grep '^load:' <<< "$out")
    # "... N events (W ns wall, C ns cpu each)": the fields after "events (".
    events=$(sed -E 's/.* ([0-9]+) events.*/\1/' <<< "$load")
    scanNs=$(sed -E 's/.*\(([0-9]+) ns wall.*/\1/' <<< "$scan")
    loadNs=$(sed -E 's/.*\(([0-9]+) ns wall.*/\1/' <<< "$load")
    cpuNs=$(sed -E 's/.*, ([0-9]+) ns cpu each.*/\1/' <<< "$load")
    rss=$(sed -E 's/.* = ([0-9.]+x) file.*/\1/' <<< "$load")
    ratio=$(sed -E 's/.*, ([0-9.]+x) the bare scan.*/\1/' <<< "$load")
    printf '%8s %8s %10s %12s %12s %12s %10s %8s\n' "$cpus" "$mb" "$events" "$scanNs" "$loadNs" "$cpuNs" "$rss" "$ratio"
  done
  rm -f "$trace"
done
