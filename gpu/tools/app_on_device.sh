#!/usr/bin/env bash
# Opens a generated 10 GB trace in the app itself on the GPU machine
# (docs/performance.md, "The 10 GB trace in the app itself"): three times on
# all cores, twice on two (taskset), each printing the tool's "opened in",
# the status bar's and the peak RSS. Needs .deps/app/apppay.tar.xz from
# gpu/tools/pack_app_for_device.sh, carried with the call.
#   OUT=/some/dir [MB=10000] gpu/tools/app_on_device.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
REPO=$PWD
(cd /tmp && tar -xJf "$REPO/.deps/app/apppay.tar.xz") || exit 1
export LD_LIBRARY_PATH=/tmp/apppay/lib QT_PLUGIN_PATH=/tmp/apppay/plugins QT_QPA_PLATFORM=offscreen \
  FONTCONFIG_FILE=/tmp/apppay/fonts.conf
BIN=/tmp/apppay/bin
MB=${MB:-10000}  # the generated trace's size
TRACE=/tmp/gapscope-gen-$MB.json
[ -f "$TRACE" ] || "$BIN/gapscope-gen-trace" "$TRACE" "$MB" | tail -1
open_once() {  # open_once NAME [taskset args...]
  local name=$1
  shift
  "$@" "$BIN/gapscope_screenshots" "$TRACE" "/tmp/shots-$name" 1280x800 --open-only > "$OUT/$name.txt" 2>&1
  echo "$name:"
  grep -E "opened in|peak RSS" "$OUT/$name.txt"
}
nproc
for i in 1 2 3; do open_once "all-cores-$i"; done
for i in 1 2; do open_once "two-cores-$i" taskset -c 0,1; done
cp /tmp/shots-all-cores-1/overview.png "$OUT/overview-10g.png"
cp /tmp/shots-all-cores-1/loading.png "$OUT/loading-10g.png" 2>/dev/null || true
