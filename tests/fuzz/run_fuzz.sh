#!/usr/bin/env bash
# One fuzz target's run, as ctest does it (and as a long campaign, with more
# seconds):  run_fuzz.sh TARGET SECONDS SOURCE_DIR WORK_DIR [libFuzzer flags...]
# First every saved crash (regressions/<target>/) runs once and must pass;
# then the target fuzzes for SECONDS from the seed corpus (corpus/, or
# corpus_<target>/ where a target reads another format) and what it has
# found so far (WORK_DIR/corpus), with the Chrome trace dictionary (or
# <target>.dict).
set -euo pipefail
target=$1 seconds=$2 src=$3 work=$4
shift 4
name=$(basename "$target")
mkdir -p "$work/corpus" "$work/crashes"
regressions=("$src/regressions/${name#fuzz_}"/*)
if [[ -e ${regressions[0]} ]]; then
  echo "== $name: ${#regressions[@]} saved crash inputs"
  "$target" -runs=1 "${regressions[@]}" >"$work/regressions.log" 2>&1 || { tail -40 "$work/regressions.log"; exit 1; }
fi
seeds="$src/corpus" dict="$src/chrome_trace.dict"
[[ -d $src/corpus_${name#fuzz_} ]] && seeds="$src/corpus_${name#fuzz_}"
[[ -f $src/${name#fuzz_}.dict ]] && dict="$src/${name#fuzz_}.dict"
echo "== $name: fuzzing for $seconds s"
exec "$target" -max_total_time="$seconds" -dict="$dict" -timeout=20 -rss_limit_mb=2560 \
  -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/crashes/" "$@" "$work/corpus" "$seeds"
