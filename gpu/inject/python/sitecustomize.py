"""gapscope-cli record --torch-ops: PyTorch operators as NVTX ranges.

`gapscope-cli record` puts this folder first on PYTHONPATH, so Python runs
this file at start-up. It waits until the program imports torch and then
until torch initialises CUDA (torch.cuda._lazy_call), and turns on
PyTorch's documented NVTX emission there (torch.autograd.profiler.emit_nvtx):
every operator becomes an NVTX range "aten::NAME, seq = N" that the
injection library records on the thread that ran it. A process that never
uses CUDA is left alone. Any other sitecustomize on the path still runs.
"""
import atexit
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_state = {"profiler": None}


def _start_emit_nvtx():
    import torch

    if _state["profiler"] is not None:
        return
    prof = torch.autograd.profiler.emit_nvtx(record_shapes=False)
    prof.__enter__()
    _state["profiler"] = prof
    atexit.register(_stop_emit_nvtx)


def _stop_emit_nvtx():
    prof, _state["profiler"] = _state["profiler"], None
    if prof is not None:
        prof.__exit__(None, None, None)


def _after_torch_import(torch):
    try:
        torch.cuda._lazy_call(_start_emit_nvtx)
    except Exception as e:  # an older or newer torch without _lazy_call
        sys.stderr.write("gapscope: --torch-ops could not hook CUDA start-up (%s)\n" % e)


class _TorchImportHook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_hook(module):
            exec_module(module)
            _after_torch_import(module)

        spec.loader.exec_module = exec_then_hook
        return spec


def _run_next_sitecustomize():
    others = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


if os.environ.get("GAPSCOPE_TORCH_OPS") == "1":
    if "torch" in sys.modules:
        _after_torch_import(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _TorchImportHook())
_run_next_sitecustomize()
