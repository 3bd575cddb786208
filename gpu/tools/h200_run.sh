#!/usr/bin/env bash
# The GPU-machine run behind docs/recording.md: build the CLI and the GPU
# tests without the GUI, run the tests, record every workload (with the CPU
# reference check), measure the recording overhead, and keep one small
# recording as the bundled sample.
#
# Usage (from the repository root, on a machine with CUDA 13 and a GPU):
#   OUT=/some/dir gpu/tools/h200_run.sh
# The build is gpu/tools/device_build.sh's.
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the logs}
export BUILD=${BUILD:-/tmp/gapscope-build} OUT
CLI=$BUILD/cli/gapscope-cli
RESULTS=$OUT/results.txt

log() { echo "== $*" | tee -a "$RESULTS"; }

{
  nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -2; cmake --version | head -1; g++ --version | head -1
} > "$OUT/machine.txt" 2>&1

gpu/tools/device_build.sh gapscope-cli gpu_tests writer_tests || exit 1

timeout 300 "$BUILD/tests/gpu/gpu_tests" > "$OUT/tests.log" 2>&1; echo "gpu_tests exit $?" | tee -a "$OUT/tests.log"
timeout 120 "$BUILD/tests/writer/writer_tests" >> "$OUT/tests.log" 2>&1; echo "writer_tests exit $?" | tee -a "$OUT/tests.log"

rec() {  # rec LABEL ARGS...: one recording, checked against the CPU reference
  local label=$1; shift
  log "$label: record $*"
  timeout 180 "$CLI" record "$@" --check --format json -o "/tmp/rec_$label.json.gz" >> "$RESULTS" 2>&1
  echo "exit $?" >> "$RESULTS"
}

rec matmul_add_64_bf16 --workload matmul_add --size 64
rec matmul_add_8192_bf16 --workload matmul_add --size 8192
rec matmul_add_64_fp32 --workload matmul_add --size 64 --variant fp32
rec matmul_add_8192_fp32 --workload matmul_add --size 8192 --variant fp32
rec linear_64_bf16 --workload linear --size 64
rec linear_8192_bf16 --workload linear --size 8192
rec linear_64_fp32 --workload linear --size 64 --variant fp32
rec mlp_unfused --workload mlp --variant unfused
rec mlp_fused --workload mlp --variant fused
rec split_stack --workload split_stack
rec combined --workload combined
rec split_stack_graph --workload split_stack_graph
rec square_all --workload square
rec sync_item --workload sync_every_step --variant item
rec sync_stream --workload sync_every_step --variant stream_sync
# The same with a sync after every step, as the PyTorch traces in tests/data/h200 were made.
rec matmul_add_64_bf16_synced --workload matmul_add --size 64 --sync-each-step
rec split_stack_synced --workload split_stack --sync-each-step
rec split_stack_graph_synced --workload split_stack_graph --sync-each-step

log "overhead: matmul_add 8192 bf16 (compute bound)"
timeout 180 "$CLI" record --workload matmul_add --size 8192 --steps 50 --compare-untraced -o /tmp/ovh1.json.gz \
  --format json >> "$RESULTS" 2>&1
log "overhead: linear 8192 bf16"
timeout 180 "$CLI" record --workload linear --size 8192 --steps 50 --compare-untraced -o /tmp/ovh2.json.gz \
  --format json >> "$RESULTS" 2>&1
log "overhead: split_stack (launch bound, for contrast)"
timeout 180 "$CLI" record --workload split_stack --steps 50 --compare-untraced -o /tmp/ovh3.json.gz \
  --format json >> "$RESULTS" 2>&1

log "sample: split_stack, 5 steps"
timeout 120 "$CLI" record --workload split_stack --steps 5 -o "$OUT/h200_split_stack.json" >> "$RESULTS" 2>&1
timeout 60 "$CLI" summary "$OUT/h200_split_stack.json" >> "$RESULTS" 2>&1
timeout 60 "$CLI" gaps "$OUT/h200_split_stack.json" --limit 5 >> "$RESULTS" 2>&1
ls -la "$OUT" >> "$RESULTS"
echo "done"
