#!/usr/bin/env bash
# The GPU-machine proof of `gapscope-cli record -- CMD` (docs/recording.md).
# From the repository root, on a machine with CUDA 13, a GPU and PyTorch:
#   OUT=/some/dir gpu/tools/record_program/device_run.sh proof     # build, tests, functional checks
#   OUT=/some/dir gpu/tools/record_program/device_run.sh overhead  # medians of 5 (needs the build)
#   OUT=/some/dir gpu/tools/record_program/device_run.sh all       # both
#   OUT=/some/dir gpu/tools/record_program/device_run.sh ranks     # 2 GPUs: DDP recorded as ranks
#   OUT=/some/dir gpu/tools/record_program/device_run.sh user      # an unmarked user script, eager and compiled
#   OUT=/some/dir gpu/tools/record_program/device_run.sh user-ranks  # 2 GPUs: an unmarked DDP script as ranks
#   OUT=/some/dir gpu/tools/record_program/device_run.sh user-ranks-fix  # 2 GPUs: before and after a straggler's fix
#   OUT=/some/dir gpu/tools/record_program/device_run.sh user-repeat  # the unmarked script recorded again and again (no build)
# `proof` also leaves $OUT/bin.tar.gz (the built recorder), which `overhead`
# unpacks into $BUILD when BIN_TAR names it, so the second run needs no build.
set -u -o pipefail
OUT=${OUT:?set OUT to a folder for the results}
# The --torch-ops observer is compiled once per PyTorch build and cached here.
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/gapscope-torch-extensions}
export BUILD=${BUILD:-/tmp/gapscope-build} OUT
CLI=$BUILD/cli/gapscope-cli
HERE=gpu/tools/record_program
W=/tmp/gapscope-record-proof
R=$OUT/results.txt
mkdir -p "$W"
log() { echo "== $*" | tee -a "$R"; }
run() { echo "\$ $*" >> "$R"; "$@" >> "$R" 2>&1; echo "exit $?" >> "$R"; }

machine() {
  { nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; nvcc --version | tail -1
  } > "$OUT/machine.txt" 2>&1
}

build() {
  gpu/tools/device_build.sh gapscope-cli gapscope_inject gpu_tests || exit 1
  timeout 180 "$BUILD/tests/gpu/gpu_tests" > "$OUT/gpu_tests.log" 2>&1
  echo "gpu_tests exit $? ($(grep -c '^\[       OK' "$OUT/gpu_tests.log") ok, $(grep -c '^\[  SKIPPED' "$OUT/gpu_tests.log") skipped lines)" | tee -a "$R"
  ( cd "$BUILD" && strip -o /tmp/gapscope-cli.stripped cli/gapscope-cli && cp /tmp/gapscope-cli.stripped cli/gapscope-cli &&
    tar -czf "$OUT/bin.tar.gz" cli/gapscope-cli gpu/libgapscope_gpu_cuda.so gpu/libgapscope_inject.so )
}

compile_program() {
  nvcc -O2 -arch=sm_90 "$HERE/two_streams_graph.cu" -o "$W/two_streams_graph" -ldl || exit 1
}

# Signals the program leaves at their default: it flushes, then dies of them.
signals() {
  log "SIGINT to the recorder 4 s into a long run: forwarded, the program flushes and ends with 130"
  "$CLI" record -o "$W/sigint.json.gz" -- "$W/two_streams_graph" 1000000 >> "$R" 2>&1 &
  local pid=$!
  sleep 4; kill -INT "$pid"; wait "$pid"; echo "record exit $?" >> "$R"
  log "--duration 2 --kill-on-stop on a long run: SIGTERM after 2 s of recording, status 143"
  run timeout 60 "$CLI" record --duration 2 --kill-on-stop -o "$W/duration.json.gz" -- "$W/two_streams_graph" 1000000
}

plain_program() {
  compile_program
  log "plain nvcc program: two streams and a CUDA graph, 10 steps"
  run timeout 120 "$CLI" record -o "$W/plain.json.gz" -- "$W/two_streams_graph" 10
  run python3 "$HERE/check_trace.py" "$W/plain.json.gz" 10 1
  log "a parent (bash) that starts two CUDA child processes, 5 steps each"
  run timeout 120 "$CLI" record -o "$W/children.json.gz" -- bash -c "$W/two_streams_graph 5 & $W/two_streams_graph 5 & wait"
  run python3 "$HERE/check_trace.py" "$W/children.json.gz" 5 2
  log "--capture-range cudaProfilerApi (cudaProfilerStart before step 3, Stop after step 5)"
  run timeout 120 "$CLI" record --capture-range cudaProfilerApi -o "$W/range.json.gz" -- "$W/two_streams_graph" 10 profiler-range
  run python3 "$HERE/check_trace.py" "$W/range.json.gz" 3 1
  log "--capture-range nvtx:ProfilerStep#2"
  run timeout 120 "$CLI" record --capture-range 'nvtx:ProfilerStep#2' -o "$W/nvtx.json.gz" -- "$W/two_streams_graph" 10
  run python3 "$HERE/check_trace.py" "$W/nvtx.json.gz" 1 1
  log "exit status passes through (bash exits 7 after the program)"
  run timeout 120 "$CLI" record -o "$W/exit.json.gz" -- bash -c "$W/two_streams_graph 2; exit 7"
  log "SIGINT to the recorder after 4 s of a long run (forwarded to the program), then the file loads"
  "$CLI" record -o "$W/interrupted.json.gz" -- "$W/two_streams_graph" 1000000 >> "$R" 2>&1 &
  local pid=$!
  sleep 4; kill -INT "$pid"; wait "$pid"; echo "record exit $?" >> "$R"
  run "$CLI" summary "$W/interrupted.json.gz"
}

torch_program() {
  log "PyTorch MLP training, 20 steps: gapscope record (operators through --torch-ops, automatic for python)"
  run timeout 180 "$CLI" record -o "$W/mlp.json.gz" -- python3 "$HERE/torch_steps.py" --mode mlp --steps 20
  log "the same program under torch.profiler"
  run timeout 180 python3 "$HERE/torch_steps.py" --mode mlp --steps 20 --profile "$W/mlp_torch.json"
  "$CLI" gaps "$W/mlp.json.gz" --per-step --format json > "$W/mlp_gaps.json" 2>> "$R"
  "$CLI" gaps "$W/mlp_torch.json" --per-step --format json > "$W/mlp_torch_gaps.json" 2>> "$R"
  log "per step, the same analysis of both traces"
  run python3 "$HERE/compare_steps.py" "$W/mlp_gaps.json" "$W/mlp_torch_gaps.json" 20
  log "the same with operators from emit_nvtx (GAPSCOPE_TORCH_OPS_MODE=emit_nvtx, the fallback)"
  GAPSCOPE_TORCH_OPS_MODE=emit_nvtx run timeout 180 "$CLI" record -o "$W/mlp_emit.json.gz" -- python3 "$HERE/torch_steps.py" --mode mlp --steps 20
  "$CLI" gaps "$W/mlp_emit.json.gz" --per-step --format json > "$W/mlp_emit_gaps.json" 2>> "$R"
  run python3 "$HERE/compare_steps.py" "$W/mlp_emit_gaps.json" "$W/mlp_torch_gaps.json" 20
  log "the same without operator ranges (--no-torch-ops)"
  run timeout 180 "$CLI" record --no-torch-ops -o "$W/mlp_noops.json.gz" -- python3 "$HERE/torch_steps.py" --mode mlp --steps 20
  "$CLI" gaps "$W/mlp_noops.json.gz" --per-step --format json > "$W/mlp_noops_gaps.json" 2>> "$R"
  run python3 "$HERE/compare_steps.py" "$W/mlp_noops_gaps.json" "$W/mlp_torch_gaps.json" 20
  log "operators in the recorded trace (ops) and the gaps they are blamed for"
  run "$CLI" ops "$W/mlp.json.gz" --limit 12
  run "$CLI" gaps "$W/mlp.json.gz" --limit 5
}

# The plain program recorded 8 times with a stack report on a crash: a
# recorded program must end as it would untraced.
exit_check() {
  cc -shared -fPIC -O1 -g "$HERE/segv_report.c" -o "$W/libsegv_report.so" || return
  log "8 recordings of the plain program (2 steps), exit status and a stack on any crash"
  for i in 1 2 3 4 5 6 7 8; do
    LD_PRELOAD="$W/libsegv_report.so" timeout 60 "$CLI" record -o "$W/exit_$i.json.gz" -- "$W/two_streams_graph" 2 > "$W/exit_$i.log" 2>&1
    echo "run $i: exit $? $(grep -c 'ended without' "$W/exit_$i.log") unclean" >> "$R"
    grep -A30 '== SIG' "$W/exit_$i.log" >> "$R"
  done
}

# The recorder of an earlier `proof` run (BIN_TAR), so no build is needed.
unpack_bin() {
  mkdir -p "$BUILD" && tar -C "$BUILD" -xzf "$BIN_TAR"
  mkdir -p /tmp/gapscope-deps && for f in .deps/*.deb; do dpkg -x "$f" /tmp/gapscope-deps; done
  export LD_LIBRARY_PATH=/tmp/gapscope-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}

overhead() {
  if [ -n "${BIN_TAR:-}" ]; then unpack_bin; fi
  case "${1:-both}" in
    launch|both)
      log "overhead, launch-bound (200 tiny kernels a step, ${LAUNCH_STEPS:=200} steps)"
      run timeout 540 python3 "$HERE/overhead.py" "$CLI" launch "$LAUNCH_STEPS" "$W" ;;&
    compute|both)
      log "overhead, compute-bound (8 bf16 8192^3 matmuls a step, 20 steps)"
      run timeout 540 python3 "$HERE/overhead.py" "$CLI" compute 20 "$W" ;;
  esac
}

# The multi-GPU proof, on a machine with NPROC GPUs (default 2): ddp_steps.py
# as NPROC ranks (torchrun, one GPU each; by default rank 1 spends 30 ms of
# CPU before backward in steps 5 and 12; PLANT replaces those flags), untraced
# and recorded into a folder (one trace per rank) RUNS times each (default
# 5), interleaved, for the loop time; once under torch.profiler; then `ranks`
# reads the last recording and torch.profiler's traces. Only the CLI and the
# injection library are built (no gpu_tests), to stay within minutes.
# Results: $OUT/ranks-summary.txt and three tarballs (few files, as the
# device machine hands back at most 8).
NPROC=${NPROC:-2}
RUNS=${RUNS:-5}
read -r -a RANKS_SLOW <<< "${PLANT:---slow-rank 1 --slow-steps 5,12 --slow-ms 30}"
RECORD_FLAGS=${RECORD_FLAGS:---no-torch-ops}

ranks_build() {
  if [ -n "${BIN_TAR:-}" ]; then unpack_bin; return; fi
  gpu/tools/device_build.sh gapscope-cli gapscope_inject || exit 1
}

ranks_runs() {
  local K=$1 k run=(torchrun)
  command -v torchrun > /dev/null || run=(python3 -m torch.distributed.run)
  local prog=("${run[@]}" --standalone --nproc-per-node "$NPROC" "$HERE/ddp_steps.py" "${RANKS_SLOW[@]}")
  log "$NPROC-rank DDP (${prog[*]}): untraced and recorded (record $RECORD_FLAGS -o DIR/), $RUNS times each, interleaved"
  for k in $(seq 1 "$RUNS"); do
    timeout 180 "${prog[@]}" --mode untraced > "$K/untraced-$k.log" 2>&1
    echo "untraced $k: exit $?" >> "$R"
    timeout 240 "$CLI" record $RECORD_FLAGS -o "$K/ranks-gapscope-$k/" -- "${prog[@]}" --mode gapscope \
      > "$K/gapscope-$k.log" 2>&1
    ranks_ran "gapscope $k" $? "$K/ranks-gapscope-$k"
  done
  log "the same program under torch.profiler (CPU + CUDA, the 20 measured steps)"
  timeout 240 "${prog[@]}" --mode torch --out "$K/ranks-torch" > "$K/torch.log" 2>&1
  ranks_ran torch $? "$K/ranks-torch"
  gzip -f "$K"/ranks-torch/*.json
}

# NAME STATUS DIR: a line for the results, with the files the run left.
ranks_ran() {
  echo "$1: exit $2 ($(ls "$3" 2>/dev/null | tr '\n' ' '))" >> "$R"
}

# `gapscope-cli ranks` on the last recording and on torch.profiler's traces.
ranks_analyse() {
  local K=$1 d f
  for d in "ranks-gapscope-$RUNS" ranks-torch; do
    for f in json text; do
      timeout 120 "$CLI" ranks "$K/$d" --format $f > "$K/$d.ranks.$f" 2> "$K/$d.ranks.$f.err"
      echo "ranks $d --format $f: exit $?" >> "$R"
    done
  done
}

ranks_summary() {
  local K=$1 d
  echo "== loop time of the 20 measured steps per rank (LOOP_MS), median of $RUNS runs"
  python3 "$HERE/loop_medians.py" "untraced=$(ls "$K"/untraced-*.log | paste -sd,)" \
    "gapscope=$(ls "$K"/gapscope-*.log | paste -sd,)" "torch.profiler (1 run)=$K/torch.log"
  echo "== what record printed for the last recording"
  grep -E '^(Processes|  pid|Saved|Warning|Note|Per rank)' "$K/gapscope-$RUNS.log"
  for d in "ranks-gapscope-$RUNS" ranks-torch; do
    echo "== gapscope-cli ranks $d"
    head -40 "$K/$d.ranks.text"
    head -5 "$K/$d.ranks.text.err"
    python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[1]))
    print("json: verdict:", d.get("verdict"), "| stragglers:", d.get("stragglers"))
except Exception as e:
    print("json: not read:", e)' "$K/$d.ranks.json"
  done
}

ranks() {
  local K=$W/ranks
  export NCCL_NVLS_ENABLE=0
  nvidia-smi -L | tee -a "$R"
  ranks_build
  rm -rf "$K" && mkdir -p "$K"
  ranks_runs "$K"
  ranks_analyse "$K"
  ranks_summary "$K" 2>&1 | tee "$OUT/ranks-summary.txt" >> "$R"
  cat "$OUT/ranks-summary.txt"
  ( cd "$K" || exit
    tar -czf "$OUT/ranks-logs.tar.gz" *.log *.ranks.*
    tar -czf "$OUT/ranks-traces.tar.gz" "ranks-gapscope-$RUNS" ranks-torch
    if [ "$RUNS" -gt 1 ]; then tar -czf "$OUT/ranks-more-traces.tar.gz" $(seq -f 'ranks-gapscope-%g' 1 $((RUNS - 1))); fi )
}

# A user's unmarked training script (user_train.py: DataLoader workers, AMP,
# AdamW, no step markers), eager and under torch.compile: untraced UNTRACED
# times each (default 3) for the program's own iteration times, recorded by `record --` (the
# default, operators on for python), and under torch.profiler without a
# schedule (no ProfilerStep#N). The traces and logs come back in
# user-traces.tar.gz; `diff` of the eager and compiled runs is made here
# with the device's build (and again wherever the traces are read).
user() {
  local U=$W/user v flag
  ranks_build
  rm -rf "$U" && mkdir -p "$U"
  for v in eager compiled; do
    flag=; [ "$v" = compiled ] && flag=--compile
    for k in $(seq 1 "${UNTRACED:-3}"); do
      timeout 300 python3 "$HERE/user_train.py" $flag --iters 30 > "$U/$v-untraced-$k.log" 2>&1
      echo "$v untraced $k: exit $?" >> "$R"
    done
    log "$v: record -- python3 user_train.py $flag"
    timeout 400 "$CLI" record -o "$U/$v-gapscope.json.gz" -- python3 "$HERE/user_train.py" $flag \
      > "$U/$v-gapscope.log" 2>&1
    echo "record $v: exit $?" >> "$R"
    log "$v: torch.profiler without a schedule"
    timeout 300 python3 "$HERE/user_train.py" $flag --torch-profile "$U/$v-torch.json" > "$U/$v-torch.log" 2>&1
    echo "torch.profiler $v: exit $?" >> "$R"
    gzip -f "$U/$v-torch.json"
  done
  for t in gapscope torch; do
    timeout 120 "$CLI" diff "$U/eager-$t.json.gz" "$U/compiled-$t.json.gz" > "$U/diff-$t.txt" 2>&1
    echo "diff $t: exit $?" >> "$R"
  done
  ( cd "$U" && tar -czf "$OUT/user-traces.tar.gz" *.log *.txt *.json.gz )
  grep -h "ITER_MS\|^Saved\|Steps\|steps\|Verdict" "$U"/*.log | cut -c1-400 | tee -a "$R"
  head -12 "$U/diff-gapscope.txt" "$U/diff-torch.txt"
}

# A user's unmarked DDP script (user_ddp.py: DistributedSampler, DataLoader
# workers, AMP, AdamW, rank 0 logs; rank 1 stalls SLOW_MS before backward in
# iterations SLOW_ITERS) on NPROC GPUs, eager and under torch.compile:
# untraced UNTRACED times each (default 1) for the ranks' own iteration
# times, recorded by `record -o DIR/ --` (the default, operators on), and
# eager under torch.profiler without a schedule; then `ranks` on each
# folder and `diff` of each rank's eager and compiled recordings.
# Everything comes back in user-ranks.tar.gz.
user_ranks() {
  local U=$W/user-ranks k v flag r run=(torchrun)
  command -v torchrun > /dev/null || run=(python3 -m torch.distributed.run)
  local prog=("${run[@]}" --standalone --nproc-per-node "$NPROC" "$HERE/user_ddp.py" --slow-rank 1
              --slow-iters "${SLOW_ITERS:-6,11}" --slow-ms "${SLOW_MS:-40}")
  export NCCL_NVLS_ENABLE=0
  nvidia-smi -L | tee -a "$R"
  ranks_build
  rm -rf "$U" && mkdir -p "$U"
  for v in eager compiled; do
    flag=; [ "$v" = compiled ] && flag=--compile
    for k in $(seq 1 "${UNTRACED:-1}"); do
      timeout 300 "${prog[@]}" $flag > "$U/$v-untraced-$k.log" 2>&1
      echo "$v untraced $k: exit $?" >> "$R"
    done
    log "record -o DIR/ -- ${prog[*]} $flag"
    timeout 400 "$CLI" record -o "$U/gapscope-$v/" -- "${prog[@]}" $flag > "$U/gapscope-$v.log" 2>&1
    ranks_ran "gapscope $v" $? "$U/gapscope-$v"
  done
  log "eager under torch.profiler without a schedule"
  timeout 300 "${prog[@]}" --torch-profile "$U/torch" > "$U/torch.log" 2>&1
  ranks_ran torch $? "$U/torch"
  gzip -f "$U"/torch/*.json
  for d in gapscope-eager gapscope-compiled torch; do
    timeout 120 "$CLI" ranks "$U/$d" > "$U/ranks-$d.txt" 2>&1
    timeout 120 "$CLI" ranks "$U/$d" --format json > "$U/ranks-$d.json" 2>> "$U/ranks-$d.txt"
    for f in "$U/$d"/rank-*.json.gz; do "$CLI" summary "$f" | grep -E "^(Steps|Verdict)" >> "$U/ranks-$d.txt"; done
  done
  for r in $(seq 0 $((NPROC - 1))); do
    timeout 120 "$CLI" diff "$U/gapscope-eager/rank-$r.json.gz" "$U/gapscope-compiled/rank-$r.json.gz" \
      > "$U/diff-rank-$r.txt" 2>&1
  done
  ( cd "$U" && tar -czf "$OUT/user-ranks.tar.gz" *.log *.txt *.json gapscope-eager gapscope-compiled torch )
  grep -h "ITER_MS\|^Saved\|Warning" "$U"/*.log | cut -c1-400 | tee -a "$R"
  head -30 "$U"/ranks-*.txt | tee -a "$R"
  head -12 "$U"/diff-rank-*.txt | tee -a "$R"
}

# The user's loop on many GPUs: the DDP script with its stalling rank
# ("before") and with the stall gone ("after"), each recorded with `record
# -o DIR/ -- torchrun ...` and under torch.profiler, then `diff before/
# after/` of each pair. Everything comes back in user-ranks-fix.tar.gz.
user_ranks_fix() {
  local U=$W/user-ranks-fix v run=(torchrun)
  command -v torchrun > /dev/null || run=(python3 -m torch.distributed.run)
  local prog=("${run[@]}" --standalone --nproc-per-node "$NPROC" "$HERE/user_ddp.py" --slow-rank 1 --slow-ms "${SLOW_MS:-40}")
  export NCCL_NVLS_ENABLE=0
  nvidia-smi -L | tee -a "$R"
  ranks_build
  rm -rf "$U" && mkdir -p "$U"
  for v in before after; do
    local iters="${SLOW_ITERS:-6,11}"; [ "$v" = after ] && iters=
    log "$v: record -o DIR/ -- ${prog[*]} --slow-iters '$iters'"
    timeout 400 "$CLI" record -o "$U/gapscope-$v/" -- "${prog[@]}" --slow-iters "$iters" > "$U/gapscope-$v.log" 2>&1
    ranks_ran "gapscope $v" $? "$U/gapscope-$v"
    timeout 300 "${prog[@]}" --slow-iters "$iters" --torch-profile "$U/torch-$v" > "$U/torch-$v.log" 2>&1
    ranks_ran "torch $v" $? "$U/torch-$v"
    gzip -f "$U/torch-$v"/*.json
  done
  for d in gapscope torch; do
    timeout 120 "$CLI" diff "$U/$d-before" "$U/$d-after" > "$U/diff-$d.txt" 2>&1
    timeout 120 "$CLI" diff "$U/$d-before" "$U/$d-after" --format json > "$U/diff-$d.json" 2>> "$U/diff-$d.txt"
  done
  ( cd "$U" && tar -czf "$OUT/user-ranks-fix.tar.gz" *.log *.txt *.json gapscope-before gapscope-after torch-before torch-after )
  grep -h "ITER_MS\|Warning" "$U"/*.log | cut -c1-300 | tee -a "$R"
  head -40 "$U"/diff-*.txt | tee -a "$R"
}

machine
# Several recordings of each side (docs/compare.md, "Several recordings of
# each side"): the unmarked script under torch.profiler, eager EAGER times
# and compiled COMPILED times, taken in turns so that a drift of the
# machine falls on both; short runs (ITERS iterations) keep the traces small.
user_repeat() {
  local U=$OUT/user-repeat k
  mkdir -p "$U"
  machine
  # A compilation first, untraced: Inductor's cache then serves every
  # recorded one alike (the first compile of a machine took 20 s, then 2.6 s).
  timeout 300 python3 "$HERE/user_train.py" --compile --iters 2 > "$U/compile-cache.log" 2>&1
  echo "compile cache: exit $?" >> "$R"
  for k in $(seq 1 "${EAGER:-8}"); do
    timeout 300 python3 "$HERE/user_train.py" --iters "${ITERS:-6}" --torch-profile "$U/eager-$k.json" > "$U/eager-$k.log" 2>&1
    echo "eager $k: exit $?" >> "$R"
    if [ "$k" -le "${COMPILED:-4}" ]; then
      timeout 300 python3 "$HERE/user_train.py" --compile --iters "${ITERS:-6}" --torch-profile "$U/compiled-$k.json" \
        > "$U/compiled-$k.log" 2>&1
      echo "compiled $k: exit $?" >> "$R"
    fi
  done
  gzip -f "$U"/*.json
  grep -H ITER_MS "$U"/*.log | tee "$U/iter_ms.txt" >> "$R"
}

case "${1:-proof}" in
  proof) build; plain_program; torch_program ;;
  all) build; plain_program; exit_check; torch_program; overhead ;;
  check) build; plain_program; exit_check; torch_program ;;
  signals) build; compile_program; signals ;;
  steps) log "per-step figures over repeated runs (MLP, 20 steps, 5 runs each way)"
         run timeout 560 python3 "$HERE/steps_repeated.py" "$CLI" 20 5 "$W" ;;
  steps-large) build; log "per-step figures over repeated runs (MLP on 8192 rows, compute-bound, 20 steps, 5 runs each way)"
         run timeout 500 python3 "$HERE/steps_repeated.py" "$CLI" 20 5 "$W" mlp-large ;;
  overhead) overhead both ;;
  overhead-launch) overhead launch ;;
  api) build; plain_program; overhead launch ;;
  overhead-compute) overhead compute ;;
  ranks) ranks ;;
  user) user ;;
  user-ranks) user_ranks ;;
  user-ranks-fix) user_ranks_fix ;;
  user-repeat) user_repeat ;;
esac
tar -C "$W" -czf "$OUT/traces.tar.gz" $(cd "$W" && ls *.json.gz 2>/dev/null | head -20)
echo done | tee -a "$R"
