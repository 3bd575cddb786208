#!/usr/bin/env python3
"""Writes the fuzz seed corpus (tests/fuzz/corpus/) from the small real
traces in tests/data and ../shared/traces, plus hand-written hostile inputs.

Each real trace is cut to about 6 KB of events, taken round-robin over its
(phase, category) kinds so every kind of event stays, with the top-level
members kept (deviceProperties, distributedInfo, ...). Run from anywhere:
    python3 tests/fuzz/make_seeds.py
"""
import gzip
import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/fuzz/corpus"
SOURCES = [ROOT / "tests/data", ROOT.parent / "shared/traces"]
BUDGET = 6000
MAX_SOURCE = 3 << 20  # traces bigger than this as stored are skipped


def load(path):
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        return json.loads(raw)
    except ValueError:
        return None


def cut(trace):
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace
    if not isinstance(events, list) or not events:
        return None
    kinds = {}
    for e in events:
        if isinstance(e, dict):
            kinds.setdefault((e.get("ph"), e.get("cat")), []).append(e)
    picked, size = [], 0
    while kinds and size < BUDGET:
        for key in list(kinds):
            e = kinds[key].pop(0)
            if not kinds[key]:
                del kinds[key]
            text = json.dumps(e, separators=(",", ":"))
            if size + len(text) > BUDGET and picked:
                continue
            picked.append(e)
            size += len(text)
    picked.sort(key=lambda e: (e.get("ph") != "M", e.get("ts", 0) if isinstance(e.get("ts"), (int, float)) else 0))
    if isinstance(trace, dict):
        out = {k: v for k, v in trace.items() if k != "traceEvents" and len(json.dumps(v)) < 2000}
        out["traceEvents"] = picked
        return json.dumps(out, separators=(",", ":"))
    return json.dumps(picked, separators=(",", ":"))


HOSTILE = {
    "far_times": '{"traceEvents":[{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":9000000000000000,"dur":5,'
                 '"args":{"device":0,"stream":7}},{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":10,'
                 '"dur":9000000000000000,"args":{"device":0,"stream":7}},{"ph":"X","name":"k","cat":"kernel","pid":0,'
                 '"tid":7,"ts":-3000000000000000,"dur":3000000000000000,"args":{"device":0,"stream":7}}]}',
    "prologue_string": '{"systemTraceEvents":"' + "x" * 600 + '","traceEvents":[{"ph":"X","name":"a","pid":1,'
                       '"tid":1,"ts":1,"dur":1}]}',
    "spaces": " " * 300,
    "early_error": '{"traceEvents":[{x' + "a" * 300,
    "cuts_in_string": '[{"ph":"X","name":"' + "}, {" * 80 + '","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"i","s":"g",'
                      '"name":"i","pid":1,"tid":1,"ts":2}]',
    "steps": '{"traceEvents":[{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,'
             '"dur":100},{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,'
             '"args":{"correlation":1}},{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":30,"dur":20,'
             '"args":{"correlation":1,"device":0,"stream":7}},{"ph":"s","id":1,"pid":1,"tid":1,"ts":10,"cat":"ac2g",'
             '"name":"ac2g"},{"ph":"f","id":1,"pid":0,"tid":7,"ts":30,"cat":"ac2g","name":"ac2g","bp":"e"}]}',
    "begin_end": '[{"ph":"B","name":"a","pid":1,"tid":1,"ts":1},{"ph":"E","pid":1,"tid":1,"ts":3000000000000000},'
                 '{"ph":"b","id":5,"name":"x","cat":"c","pid":1,"tid":1,"ts":-3000000000000000},'
                 '{"ph":"e","id":5,"name":"x","cat":"c","pid":1,"tid":1,"ts":3000000000000000}]',
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    seen = set()
    for base in SOURCES:
        for path in sorted(base.rglob("*")):
            if not path.is_file() or ".oracle" in path.name or path.stat().st_size > MAX_SOURCE:
                continue
            if not (path.name.endswith(".json") or path.name.endswith(".json.gz")):
                continue
            trace = load(path)
            text = cut(trace) if trace is not None else None
            if not text:
                continue
            digest = hashlib.sha1(text.encode()).hexdigest()[:10]
            if digest in seen:
                continue
            seen.add(digest)
            name = path.name.replace(".json.gz", "").replace(".json", "")
            (OUT / f"{name}-{digest}.json").write_text(text)
    for name, text in HOSTILE.items():
        (OUT / f"hostile-{name}.json").write_text(text)


if __name__ == "__main__":
    main()
