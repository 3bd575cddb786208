#!/usr/bin/env bash
# The GPU-machine run behind docs/compare.md: pairs of recordings of the
# bundled workloads (split_stack vs combined, split_stack vs
# split_stack_graph) made by gapscope's recorder, PyTorch traces made with
# torch.profiler (gpu/tools/torch_traces.py: eager vs torch.compile vs CUDA
# graphs, training steps, a CUDA graph replay), and `gapscope-cli diff` of
# each pair. Everything lands in $OUT/traces.tar.gz and $OUT/results.txt.
#
# Usage (from the repository root, on a machine with CUDA 13, a GPU and PyTorch):
#   OUT=/some/dir gpu/tools/compare_run.sh
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the logs}
export BUILD=${BUILD:-/tmp/gapscope-build} OUT
CLI=$BUILD/cli/gapscope-cli
TRACES=/tmp/gapscope-traces
RESULTS=$OUT/results.txt
mkdir -p "$TRACES"

log() { echo "== $*" | tee -a "$RESULTS"; }

{
  nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
} > "$OUT/machine.txt" 2>&1

# PyTorch first: it needs no build, and runs while nothing else does.
log "torch traces"
PYTHONUNBUFFERED=1 timeout 300 python3 gpu/tools/torch_traces.py "$TRACES" >> "$RESULTS" 2>&1
echo "torch_traces exit $?" >> "$RESULTS"

gpu/tools/device_build.sh gapscope-cli gpu_tests || exit 1
timeout 300 "$BUILD/tests/gpu/gpu_tests" > "$OUT/tests.log" 2>&1; echo "gpu_tests exit $?" | tee -a "$RESULTS"

for w in split_stack combined split_stack_graph; do
  log "record $w"
  timeout 120 "$CLI" record --workload "$w" --steps 10 -o "$TRACES/gapscope_$w.json.gz" >> "$RESULTS" 2>&1
  echo "exit $?" >> "$RESULTS"
done

diff_pair() {  # diff_pair A B: the comparison of two recordings, as text
  log "diff $1 $2"
  timeout 120 "$CLI" diff "$TRACES/$1" "$TRACES/$2" --limit 12 >> "$RESULTS" 2>&1
  echo "exit $?" >> "$RESULTS"
}
diff_pair gapscope_split_stack.json.gz gapscope_combined.json.gz
diff_pair gapscope_split_stack.json.gz gapscope_split_stack_graph.json.gz
diff_pair block_eager.json block_compiled.json
diff_pair block_eager.json block_cudagraph.json
diff_pair block_compiled.json block_cudagraph.json

tar -C "$TRACES" -czf "$OUT/traces.tar.gz" .
ls -la "$TRACES" >> "$RESULTS"
echo "done"
