#!/usr/bin/env python3
"""The Dask path (python/gapscope_dask) against `gapscope-cli ranks`.

    test_gapscope_dask.py --cli build/cli/gapscope-cli --gen build/bench/ranks/gapscope-gen-ranks

Generates 16 ranks with two planted stragglers (launch gaps on rank 5 in
step 3, a late arrival of rank 11 in step 7), runs `gapscope-cli ranks DIR
--format json`, runs `python3 -m gapscope_dask` on a LocalCluster of 2
workers, and checks that the two documents are the same, parsed and as
text, and that they name the planted stragglers. ctest runs it (label
`dask`) with PYTHONPATH at python/. Exit status 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

from gapscope_dask import jsonout, stragglers  # noqa: E402
from gapscope_dask.pipeline import rank_files, split_stderr, table_dir_names  # noqa: E402
from gapscope_dask.text import render_text, torch_time  # noqa: E402

CLI = GEN = None  # set by main() from --cli / --gen


def run(command, **kwargs):
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    if proc.returncode != 0:
        raise AssertionError("%s exited with %d:\n%s" % (command, proc.returncode, proc.stderr.decode(errors="replace")))
    return proc


class Pieces(unittest.TestCase):
    """What needs no binary."""

    def test_doubles_print_as_nlohmann_does(self):
        # nlohmann's Grisu2 prints these with one digit more than Python's repr
        # (found by printing 400000 doubles both ways).
        for value, text in [(52.58915262575103, "52.589152625751026"), (190.3864165683962, "190.38641656839621"),
                            (4583.599999999999, "4583.5999999999995"), (100.0, "100.0"), (0.0, "0.0"),
                            (1e15, "1e+15"), (1e-05, "1e-05"), (0.0001, "0.0001"), (12.5, "12.5")]:
            self.assertEqual(jsonout.dumps(value), text)

    def test_json_layout(self):
        doc = {"a": [], "b": {}, "c": [1, {"d": "é\n\u0001\"\\/"}], "e": True, "f": None}
        self.assertEqual(jsonout.dumps(doc), json.dumps(doc, indent=2, ensure_ascii=False))

    def test_rules(self):
        self.assertEqual(stragglers.lower_median([4, 1, 3, 2]), 2)
        self.assertEqual(stragglers.lower_median([]), 0)
        self.assertEqual(stragglers.collective_wait(100, 50, 130), 30)
        self.assertEqual(stragglers.collective_wait(100, 50, 400), 50)
        self.assertEqual(stragglers.collective_wait(100, 50, 90), 0)
        self.assertEqual(stragglers.millis(1234567), "1.235 ms")
        self.assertFalse(stragglers.big_enough(10000, 100000, stragglers.STRAGGLER_SHARE))  # not above kStragglerMinNs
        self.assertTrue(stragglers.big_enough(10001, 100000, stragglers.STRAGGLER_SHARE))
        self.assertFalse(stragglers.big_enough(100000, 1000000, stragglers.CONSISTENTLY_SLOW_SHARE))  # 10 %
        self.assertTrue(stragglers.big_enough(100001, 1000000, stragglers.CONSISTENTLY_SLOW_SHARE))
        steps = [{"ranks": 4, "excess_ns": e, "median_ns": 100, "warm_up": False} for e in (5, 1, 9, 3)]
        self.assertEqual(stragglers.usual_excess(steps), 0)  # under SPREAD_MIN_STEPS steps: not used
        steps.append({"ranks": 4, "excess_ns": 90000, "median_ns": 100, "warm_up": True})  # a warm-up: not counted
        self.assertEqual(stragglers.usual_excess(steps), 0)
        steps.append({"ranks": 4, "excess_ns": -7, "median_ns": 100, "warm_up": False})  # how far either way
        steps.append({"ranks": 1, "excess_ns": 0, "median_ns": 900, "warm_up": False})  # one rank: not counted
        self.assertEqual(stragglers.usual_excess(steps), 5)
        steps = [{"ranks": 4, "excess_ns": 30000, "median_ns": 2000, "warm_up": False} for _ in range(6)]
        self.assertEqual(stragglers.usual_excess(steps), 500)  # capped at a quarter of the typical median
        self.assertFalse(stragglers.stands_out(15, 5))
        self.assertTrue(stragglers.stands_out(16, 5))
        self.assertTrue(stragglers.is_collective_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)"))
        self.assertTrue(stragglers.is_collective_kernel("void GLOO::reduce"))
        self.assertFalse(stragglers.is_collective_kernel("void cutlass::Kernel2<cutlass_80_simt_sgemm>"))
        kept, notes = stragglers.unique_ranks([(1, "a"), (-1, "b"), (1, "c"), (0, "d")])
        self.assertEqual(kept, [(3, 0), (0, 1), (1, 2)])
        self.assertEqual(notes, ["rank 1 given twice: c left out", "b names no rank: taken as rank 2"])
        self.assertEqual(torch_time(1234567), "1.235ms")
        self.assertEqual(torch_time(999), "0.999us")

    def test_tables_of_another_version_are_named_so(self):
        import gzip
        from gapscope_dask.tables import TablesError, read_rank_part
        with tempfile.TemporaryDirectory() as d:
            with gzip.open(os.path.join(d, "meta.csv.gz"), "wt") as f:
                f.write("schema_version,rank,world_size,file,step_source\n1,0,2,rank-0.json,profiler_step\n")
            with self.assertRaisesRegex(TablesError, "schema version 1, this reader knows 2"):
                read_rank_part(d)

    def test_names(self):
        self.assertEqual(table_dir_names(["a/rank-0.json", "b/rank-0.json.gz", "c/x.pt.trace.json"]),
                         ["rank-0", "rank-0~2", "x.pt.trace"])
        self.assertEqual(split_stderr("gapscope-cli export-tables: warning: w1\ngapscope-cli export-tables: bad\n"),
                         (["w1"], "bad"))


class AgainstCli(unittest.TestCase):
    """`gapscope-cli ranks` and the Dask path on the same generated ranks."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gapscope-dask-test-")
        cls.dir = os.path.join(cls.tmp.name, "ranks")
        run([GEN, cls.dir, "--ranks", "16", "--steps", "10", "--gap-rank", "5", "--gap-step", "3",
             "--late-rank", "11", "--late-step", "7"])
        t0 = time.monotonic()
        cls.cli_json = run([CLI, "ranks", cls.dir, "--format", "json"]).stdout.decode()
        cls.cli_text = run([CLI, "ranks", cls.dir, "--format", "text"]).stdout
        t1 = time.monotonic()
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        tables = os.path.join(cls.tmp.name, "tables")
        cls.dask_json = run([sys.executable, "-m", "gapscope_dask", "--workers", "2", "--cli", CLI,
                             "--tables-dir", tables, "--format", "json", cls.dir], env=env).stdout.decode()
        t2 = time.monotonic()
        cls.tables = tables
        print("gapscope-cli ranks: %.1f s, python3 -m gapscope_dask (LocalCluster of 2): %.1f s"
              % (t1 - t0, t2 - t1), file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_same_document(self):
        cli, dask = json.loads(self.cli_json), json.loads(self.dask_json)
        self.assertEqual(list(cli), ["ranks", "steps", "usual_excess_ns", "step_mark", "stragglers", "causes", "verdict", "notes", "warnings",
                                     "errors"])
        self.assertEqual(dask, cli)
        self.assertEqual(self.dask_json, self.cli_json)  # byte for byte

    def test_printer_reprints_the_cli(self):
        self.assertEqual(jsonout.dumps(json.loads(self.cli_json)) + "\n", self.cli_json)

    def test_same_text(self):
        self.assertEqual(render_text(json.loads(self.dask_json)).decode(), self.cli_text.decode())

    def test_tables_kept_per_rank(self):
        self.assertEqual(sorted(os.listdir(self.tables)), sorted("rank-%d" % r for r in range(16)))
        self.assertEqual(len(rank_files([self.dir])), 16)

    def test_planted_stragglers(self):
        doc = json.loads(self.dask_json)
        self.assertEqual(len(doc["ranks"]), 16)
        self.assertEqual(len(doc["steps"]), 10)
        self.assertIn(5, doc["stragglers"])
        self.assertIn(11, doc["stragglers"])
        self.assertEqual(len(doc["stragglers"]), 2)
        straggling = {s["step"]: s["slowest_rank"] for s in doc["steps"] if s["straggling"]}
        self.assertEqual(straggling, {3: 5, 7: 11})
        self.assertEqual(doc["errors"], [])
        self.assertTrue(doc["verdict"].startswith("rank %d is the straggler" % doc["stragglers"][0]))


class AgainstCliWithAWarmUpAndMixedMarks(unittest.TestCase):
    """A set whose first step is a warm-up (rank 6 starts 20 ms late), with a
    late rank in step 7, and two ranks whose steps come from an iteration
    marker instead of ProfilerStep#N: both paths agree byte for byte, mark
    the warm-up, leave it out and say the marks differ."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gapscope-dask-warm-up-")
        plain, marked = os.path.join(cls.tmp.name, "plain"), os.path.join(cls.tmp.name, "marked")
        common = ["--ranks", "8", "--steps", "10", "--warm-up-rank", "6", "--late-rank", "2", "--late-step", "7"]
        run([GEN, plain] + common)
        run([GEN, marked] + common + ["--marker", "train_step"])
        for rank in (3, 4):
            os.replace(os.path.join(marked, "rank-%d.json" % rank), os.path.join(plain, "rank-%d.json" % rank))
        cls.dir = plain
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cls.cli_json = run([CLI, "ranks", plain, "--format", "json"]).stdout.decode()
        cls.cli_text = run([CLI, "ranks", plain]).stdout
        cls.dask_json = run([sys.executable, "-m", "gapscope_dask", "--workers", "2", "--cli", CLI, "--tables-dir",
                             os.path.join(cls.tmp.name, "tables"), "--format", "json", plain], env=env).stdout.decode()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_same_document_and_text(self):
        self.assertEqual(self.dask_json, self.cli_json)  # byte for byte
        self.assertEqual(render_text(json.loads(self.dask_json)).decode(), self.cli_text.decode())

    def test_warm_up_left_out(self):
        doc = json.loads(self.dask_json)
        self.assertEqual([s["step"] for s in doc["steps"] if s["warm_up"]], [1])
        self.assertEqual(doc["stragglers"], [2])
        self.assertIn("straggling in 1 of 9 steps after the warm-up (7)", doc["verdict"])
        self.assertTrue(any(n.startswith("step 1 is a warm-up") and "rank 6 the slowest in it" in n
                            for n in doc["notes"]), doc["notes"])
        self.assertIn("warm-up", self.cli_text.decode())

    def test_ranks_numbered_otherwise_and_a_rank_with_only_its_warm_up(self):
        # Rank 5's steps renumbered one up (its warm-up is step 2, which the others do not share) and
        # rank 7 cut after its first step (nothing but the warm-up): both paths say so alike.
        odd = os.path.join(self.tmp.name, "odd")
        run([GEN, odd, "--ranks", "8", "--steps", "10", "--warm-up-rank", "6", "--late-rank", "2", "--late-step", "7"])
        path = os.path.join(odd, "rank-5.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(re.sub(r"ProfilerStep#(\d+)", lambda m: "ProfilerStep#%d" % (int(m.group(1)) + 1), text))
        path = os.path.join(odd, "rank-7.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(re.sub(r'"name": "ProfilerStep#([2-9]|10)"', '"name": "not_a_step"', text))
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cli = run([CLI, "ranks", odd, "--format", "json"]).stdout.decode()
        dask = run([sys.executable, "-m", "gapscope_dask", "--workers", "2", "--cli", CLI, "--tables-dir",
                    os.path.join(self.tmp.name, "odd-tables"), "--format", "json", odd], env=env).stdout.decode()
        self.assertEqual(dask, cli)
        notes = " | ".join(json.loads(cli)["notes"])
        self.assertIn("step 2 is a warm-up on rank 5 but not on most ranks", notes)
        self.assertIn("rank 7 has no step but a warm-up", notes)

    def test_mixed_marks_named(self):
        doc = json.loads(self.dask_json)
        self.assertIn("the ranks' steps come from different marks (ranks 0, 1, 2, 5, 6, 7: ProfilerStep#N; "
                      "ranks 3, 4: each train_step to the next)", " ".join(doc["notes"]))


class AgainstCliOnRealDdp(unittest.TestCase):
    """Real DDP jobs, each recorded by `gapscope-cli record -o DIR/` and by
    torch.profiler on each rank: 2 ranks on two H100s (tests/data/h100-ddp),
    rank 1 slowed by 30 ms of CPU work in steps 5 and 12; 4 ranks on four
    H200s (tests/data/h200-ddp4), the same on rank 1 and 20 ms of extra
    matrix products on rank 3 in steps 8 and 15; a user's script with no
    step marks on two H100s (tests/data/h100-user-ddp), rank 1 stalled in
    iterations 6 and 11. Both paths agree byte for byte and name those
    ranks in those steps."""

    @classmethod
    def setUpClass(cls):
        # One cluster for both sets, reached as an existing scheduler is
        # (--scheduler): that path is tested too, and the cluster starts once.
        from distributed import LocalCluster
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()

    def both_paths(self, data):
        """The document and text of `ranks` and of the Dask path, checked equal; the parsed document."""
        cli = run([CLI, "ranks", data, "--format", "json"]).stdout.decode()
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        dask = run([sys.executable, "-m", "gapscope_dask", "--scheduler", self.cluster.scheduler_address, "--cli", CLI,
                    "--format", "json", data], env=env).stdout.decode()
        self.assertEqual(dask, cli)  # byte for byte
        text = run([CLI, "ranks", data]).stdout
        dask_text = run([sys.executable, "-m", "gapscope_dask", "--scheduler", self.cluster.scheduler_address,
                         "--cli", CLI, data], env=env).stdout
        self.assertEqual(dask_text, text)
        return json.loads(cli)

    def check(self, folder, job="h100-ddp"):
        doc = self.both_paths(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", job, folder))
        self.assertEqual(doc["stragglers"][0], 1)
        slowest = {s["step"]: s["slowest_rank"] for s in doc["steps"] if s["straggling"]}
        self.assertEqual(slowest[5], 1)
        self.assertEqual(slowest[12], 1)
        self.assertGreater(doc["causes"][0]["excess_ns"], 25_000_000)  # the 30 ms of CPU work, less overlap
        return doc, slowest

    def test_recorded_by_gapscope(self):
        doc, _ = self.check("gapscope")
        self.assertEqual([r["rank"] for r in doc["ranks"]], [0, 1])

    def test_recorded_by_torch_profiler(self):
        doc, _ = self.check("torch")
        self.assertEqual([r["rank"] for r in doc["ranks"]], [0, 1])

    def test_four_ranks_recorded_by_gapscope(self):
        doc, slowest = self.check("gapscope", "h200-ddp4")
        self.assertEqual([r["rank"] for r in doc["ranks"]], [0, 1, 2, 3])
        self.assertEqual(slowest, {5: 1, 8: 3, 12: 1, 15: 3})
        self.assertEqual(doc["stragglers"], [1, 3])
        self.assertIn("sgemm", doc["causes"][1]["slower_kernel"])

    def test_unmarked_user_script_with_a_warm_up(self):
        # tests/data/h100-user-ddp: no step marks, a start-up step, rank 1 stalled in iterations 6 and 11.
        for folder in ("gapscope", "torch"):
            doc = self.both_paths(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                               "h100-user-ddp", folder))
            self.assertEqual([s["step"] for s in doc["steps"] if s["warm_up"]], [1])
            self.assertEqual({s["step"]: s["slowest_rank"] for s in doc["steps"] if s["straggling"]}, {6: 1, 11: 1})

    def test_runs_compared_from_their_dask_documents(self):
        # The loop at cluster scale: each run's document from the Dask path, then `diff` of the two documents
        # says what `diff` of the two directories says (tests/data/h100-user-ddp-fix: the stall before, fixed after).
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "h100-user-ddp-fix")
        with tempfile.TemporaryDirectory(prefix="gapscope-dask-diff-") as tmp:
            paths = {}
            for run_name in ("before", "after"):
                doc = self.both_paths(os.path.join(data, run_name))
                paths[run_name] = os.path.join(tmp, run_name + ".json")
                with open(paths[run_name], "w", encoding="utf-8") as f:
                    f.write(jsonout.dumps(doc) + "\n")
            of_docs = run([CLI, "diff", paths["before"], paths["after"]]).stdout.decode()
            of_dirs = run([CLI, "diff", os.path.join(data, "before"), os.path.join(data, "after")]).stdout.decode()
        for run_name in ("before", "after"):
            of_docs = of_docs.replace(paths[run_name], os.path.join(data, run_name))
        self.assertEqual(of_docs, of_dirs)
        self.assertIn("rank 1 no longer straggles in single steps (2 of 15 in A, none in B)", of_docs)

    def test_unreadable_files_are_named_alike(self):
        # A rank cut before its first event and the set's own document saved beside its ranks.
        with tempfile.TemporaryDirectory(prefix="gapscope-dask-unreadable-") as tmp:
            data = os.path.join(tmp, "ranks")
            run([GEN, data, "--ranks", "4", "--steps", "6"])
            document = run([CLI, "ranks", data, "--format", "json"]).stdout
            with open(os.path.join(data, "rank-3.json"), "r+b") as f:
                f.truncate(33)
            with open(os.path.join(data, "ranks.json"), "wb") as f:
                f.write(document)
            doc = self.both_paths(data)
        self.assertEqual([e["file"] for e in doc["errors"]], [os.path.join(data, "ranks.json")])
        self.assertIn("a ranks document", doc["errors"][0]["message"])
        self.assertEqual(len(doc["warnings"]), 1)
        self.assertIn("rank-3.json: truncated at byte 33", doc["warnings"][0])

    def test_four_ranks_recorded_by_torch_profiler(self):
        doc, slowest = self.check("torch", "h200-ddp4")
        self.assertEqual({step: slowest[step] for step in (5, 8, 12, 15)}, {5: 1, 8: 3, 12: 1, 15: 3})
        self.assertIn(3, doc["stragglers"])


def main() -> int:
    global CLI, GEN
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True, help="gapscope-cli")
    parser.add_argument("--gen", required=True, help="gapscope-gen-ranks")
    args, rest = parser.parse_known_args()
    CLI, GEN = os.path.abspath(args.cli), os.path.abspath(args.gen)
    started = time.monotonic()
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    print("test_gapscope_dask: %.1f s" % (time.monotonic() - started), file=sys.stderr)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
