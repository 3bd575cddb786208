#!/usr/bin/env bash
# Writes everything gapscope-cli prints for a set of traces into a folder,
# one file per trace and command, so that two builds can be compared with
# `diff -r` (a refactor must leave every figure unchanged).
#   bash scripts/cli_outputs.sh CLI OUTDIR TRACE...
#   bash scripts/cli_outputs.sh build/cli/gapscope-cli /tmp/after ../shared/traces/*/*.json*
set -uo pipefail

if (($# < 3)); then
  echo "usage: $0 CLI OUTDIR TRACE..." >&2
  exit 2
fi
cli=$1
outdir=$2
shift 2
mkdir -p "$outdir"

commands=(
  "summary"
  "summary --format json"
  "ops"
  "ops --format csv"
  "ops --group-by-shapes --format json"
  "kernels"
  "kernels --format json"
  "gaps --limit 50"
  "gaps --per-step --format json"
  "gaps --format csv --limit 200"
  "report --format md"
  "report --format json"
)

for trace in "$@"; do
  case $trace in *.oracle.json) continue ;; esac
  name=$(basename "$(dirname "$trace")")__$(basename "$trace")
  for cmd in "${commands[@]}"; do
    file="$outdir/$name.${cmd// /_}.txt"
    # shellcheck disable=SC2086  # the command's words are meant to split
    "$cli" $cmd "$trace" >"$file" 2>&1
    echo "exit $?" >>"$file"
  done
done
echo "wrote $(find "$outdir" -type f | wc -l) files to $outdir"
