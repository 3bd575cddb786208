"""gapscope-cli record --torch-ops: PyTorch operators as NVTX ranges.

`gapscope-cli record` puts this folder first on PYTHONPATH, so Python runs
this file at start-up. It waits until the program imports torch and then
until torch initialises CUDA (torch.cuda._lazy_call), and there makes every
operator an NVTX range that the injection library records on the thread
that ran it:

- by default with a RecordFunction observer (gapscope_torch_observer.cpp,
  the mechanism torch.profiler uses for its CPU operators): compiled once per
  PyTorch build with torch.utils.cpp_extension (cached in
  $TORCH_EXTENSIONS_DIR, about a minute the first time), one NVTX push and
  pop per operator with the name PyTorch keeps, no formatting;
- where that cannot be built (no compiler, no CUDA headers) or
  GAPSCOPE_TORCH_OPS_MODE=emit_nvtx, with PyTorch's documented NVTX
  emission, torch.autograd.profiler.emit_nvtx ("aten::NAME, seq = N"),
  which costs more per operator.

A process that never uses CUDA is left alone. Any other sitecustomize on
the path still runs.
"""
import atexit
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_state = {"profiler": None}


def _cuda_include_dirs():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return [d for d in (os.path.join(home, "include"),) if os.path.isdir(os.path.join(d, "nvtx3"))]


def _start_observer():
    """True when the RecordFunction observer is installed."""
    from torch.utils import cpp_extension

    includes = _cuda_include_dirs()
    if not includes:
        raise RuntimeError("no CUDA headers with nvtx3 (set CUDA_HOME)")
    sys.stderr.write("gapscope: loading the PyTorch operator observer (built once per PyTorch, "
                     "about a minute the first time)\n")
    # An operator on the timeline (a qualified name, so the recorder keeps it
    # as a cpu_op): the GPU's wait meanwhile is blamed on it, not on the
    # program's "(untraced)" time.
    import torch

    torch.cuda.nvtx.range_push("gapscope::load_operator_observer")
    try:
        module = cpp_extension.load(
            name="gapscope_torch_observer",
            sources=[os.path.join(_HERE, "gapscope_torch_observer.cpp")],
            extra_include_paths=includes,
            extra_cflags=["-O2"],
            verbose=False,
        )
    finally:
        torch.cuda.nvtx.range_pop()
    if not module.install():
        raise RuntimeError("at::addGlobalCallback refused the observer")
    _state["profiler"] = module
    atexit.register(module.uninstall)
    return True


def _start_torch_ops():
    import torch

    if _state["profiler"] is not None:
        return
    if os.environ.get("GAPSCOPE_TORCH_OPS_MODE", "observer") != "emit_nvtx":
        try:
            if _start_observer():
                return
        except Exception as e:  # no compiler, no headers, an incompatible torch
            sys.stderr.write("gapscope: the operator observer is not available (%s); "
                             "using torch.autograd.profiler.emit_nvtx\n" % e)
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
        torch.cuda._lazy_call(_start_torch_ops)
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
