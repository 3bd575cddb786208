"""The text form of the `ranks` document, as cli/cmd_ranks.cpp prints it
(printText): the verdict, a table per rank and per step in the style of
PyTorch's key_averages() table (cli/output.cpp TextTable), the notes,
warnings and errors. Widths are counted in bytes, as std::string's are."""

from __future__ import annotations

from typing import List, Sequence

LEFT, RIGHT = "left", "right"


def torch_time(ns: int) -> str:
    """format::formatDuration(ns, DurationStyle::TorchTable): thousandths of
    us, ms or s, rounded half up, no space ("12.345us")."""
    mag = abs(ns)
    unit = 1000 if mag < 1000000 else 1000000 if mag < 1000000000 else 1000000000
    per = unit // 1000
    thousandths = (mag + per // 2) // per
    symbol = "us" if unit == 1000 else "ms" if unit == 1000000 else "s"
    return ("-" if ns < 0 else "") + "%d.%03d" % (thousandths // 1000, thousandths % 1000) + symbol


def torch_percent(pct: float) -> str:
    """format::formatPercent(pct, PercentStyle::TorchTable)."""
    return "%.2f%%" % pct


class TextTable:
    def __init__(self) -> None:
        self.columns: List[tuple] = []  # (header bytes, align, max width)
        self.rows: List[List[bytes]] = []

    def add_column(self, header: str, align: str = RIGHT, max_width: int = 0) -> None:
        self.columns.append((header.encode(), align, max_width))

    def add_row(self, cells: Sequence[str]) -> None:
        row = [c.encode("utf-8", "surrogateescape") for c in cells]
        row += [b""] * (len(self.columns) - len(row))
        for c, (_h, _a, limit) in enumerate(self.columns):
            if limit > 3 and len(row[c]) > limit:
                row[c] = row[c][: limit - 3] + b"..."
        self.rows.append(row)

    def render(self) -> bytes:
        widths = [len(h) for h, _a, _m in self.columns]
        for row in self.rows:
            for c in range(len(self.columns)):
                widths[c] = max(widths[c], len(row[c]))
        rule = b"  ".join(b"-" * w for w in widths) + b"\n"

        def line(cells):
            out = []
            for c, (_h, align, _m) in enumerate(self.columns):
                last = c + 1 == len(self.columns)
                width = 0 if last and align == LEFT else widths[c]
                pad = b" " * max(0, width - len(cells[c]))
                out.append(pad + cells[c] if align == RIGHT else cells[c] + pad)
            return b"  ".join(out) + b"\n"

        return rule + line([h for h, _a, _m in self.columns]) + rule + b"".join(line(r) for r in self.rows) + rule


def load_error_text(error):
    """The file and why, once (the reader's messages mostly name the file): describe() in rank_set.h."""
    if error["file"] in error["message"]:
        return error["message"]
    return "%s: %s" % (error["file"], error["message"])


def render_text(doc: dict) -> bytes:
    out = [("Verdict: " + doc["verdict"] + "\n\n").encode("utf-8", "surrogateescape")]
    ranks = TextTable()
    for header in ("Rank", "Steps", "Step time", "Own time", "GPU busy", "Collectives", "Wait", "Transfer",
                   "Idle: launch", "Idle: sync", "Straggling"):
        ranks.add_column(header)
    ranks.add_column("File", LEFT, 48)
    for r in doc["ranks"]:
        ranks.add_row([str(r["rank"]), str(r["steps"]), torch_time(r["step_time_ns"]), torch_time(r["own_time_ns"]),
                       torch_percent(r["gpu_busy_pct"]), torch_time(r["collective_ns"]),
                       torch_time(r["collective_wait_ns"]), torch_time(r["collective_transfer_ns"]),
                       torch_time(r["idle_by_cause_ns"]["launch_overhead"]),
                       torch_time(r["idle_by_cause_ns"]["synchronization"]),
                       str(r["straggling_steps"]) + ("*" if r["consistently_slow"] else ""), r["file"]])
    out.append(ranks.render())
    if any(s["warm_up"] for s in doc["steps"]):
        out.append(b"Step time and own time: medians over the rank's steps after the warm-up; collectives, wait, "
                   b"transfer and idle: totals over those steps.\n")
    else:
        out.append(b"Step time and own time: medians over the rank's steps; collectives, wait, transfer and idle: "
                   b"totals.\n")
    if any(r["consistently_slow"] for r in doc["ranks"]):
        out.append(b"*: consistently slower, its own time in a typical step over the step's median by 10%.\n")
    out.append(b"\n")
    steps = TextTable()
    for header in ("Step", "Ranks", "Slowest rank", "Its own time", "Median own time", "Step time", "Max wait",
                   "Straggling"):
        steps.add_column(header)
    for s in doc["steps"]:
        steps.add_row([str(s["step"]), str(s["ranks"]), str(s["slowest_rank"]), torch_time(s["slowest_ns"]),
                       torch_time(s["median_ns"]), torch_time(s["step_time_median_ns"]), torch_time(s["max_wait_ns"]),
                       "warm-up" if s["warm_up"] else "yes" if s["straggling"] else ""])
    out.append(steps.render())
    tail = ["Note: " + n + "\n" for n in doc["notes"]]
    tail += ["Warning: " + w + "\n" for w in doc.get("warnings", [])]
    tail += ["Not read: %s\n" % load_error_text(e) for e in doc["errors"]]
    out.append("".join(tail).encode("utf-8", "surrogateescape"))
    return b"".join(out)
