// gapscope-cli record --torch-ops: PyTorch operators as NVTX ranges, from a
// RecordFunction observer (the mechanism torch.profiler itself uses for CPU
// operators). sitecustomize.py compiles this file once per PyTorch build
// (torch.utils.cpp_extension, cached) and calls install() when the program
// initialises CUDA. Each operator is one nvtxRangePushA of its name, which
// PyTorch keeps as a constant string, and one nvtxRangePop: no formatting,
// unlike emit_nvtx, whose per-operator strings made the recorded steps 8 to
// 12 % longer. Autograd nodes get ", seq = N" (their forward's sequence
// number) so the recorder tells them from user annotations.
#include <ATen/record_function.h>
#include <nvtx3/nvToolsExt.h>
#include <torch/extension.h>

#include <string>

namespace {

at::CallbackHandle gHandle = 0;

std::unique_ptr<at::ObserverContext> onEnter(const at::RecordFunction& fn) {
  if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
    const std::string name = std::string(fn.name()) + ", seq = " + std::to_string(fn.seqNr());
    nvtxRangePushA(name.c_str());
  } else {
    nvtxRangePushA(fn.name());
  }
  return nullptr;
}

void onExit(const at::RecordFunction&, at::ObserverContext*) { nvtxRangePop(); }

bool install() {
  if (gHandle != 0) return true;
  gHandle = at::addGlobalCallback(at::RecordFunctionCallback(onEnter, onExit)
                                      .needsInputs(false)
                                      .needsOutputs(false)
                                      .needsIds(false)
                                      .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                                               at::RecordScope::USER_SCOPE}));
  return gHandle != 0;
}

void uninstall() {
  if (gHandle == 0) return;
  at::removeCallback(gHandle);
  gHandle = 0;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("install", &install, "Emit every PyTorch operator as an NVTX range");
  m.def("uninstall", &uninstall, "Stop emitting");
}
