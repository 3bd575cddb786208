// gapscope-cli record --torch-ops: PyTorch operators as NVTX ranges, from a
// RecordFunction observer (the mechanism torch.profiler itself uses for CPU
// operators). sitecustomize.py compiles this file once per PyTorch build
// (torch.utils.cpp_extension, cached) and calls install() when the program
// initialises CUDA. Each operator is one nvtxRangePushA of its name, which
// PyTorch keeps as a constant string, and one nvtxRangePop: no formatting,
// unlike emit_nvtx, whose per-operator strings made the recorded steps 8 to
// 12 % longer. Autograd nodes get ", seq = N" (their forward's sequence
// number) so the recorder tells them from user annotations; so do the
// operators whose names do not read as one ("detach", "CompiledFunction",
// "autograd::engine::evaluate_function: AddmmBackward0"), which get
// kOperatorTag: torch.profiler files every one of them as a cpu_op.
#include <ATen/record_function.h>
#include <nvtx3/nvToolsExt.h>
#include <torch/extension.h>

#include <cctype>
#include <cstring>
#include <string>

namespace {

at::CallbackHandle gHandle = 0;

// The recorder's classifyNvtxRange (gpu/src/program/program_trace.cpp)
// cuts this off and keeps the range as an operator: keep the two alike.
constexpr const char* kOperatorTag = ", scope = operator";

// "ns::name" of word characters and dots: what the recorder reads as an
// operator without a tag (isQualifiedName there).
bool readsAsOperator(const char* name) {
  const char* sep = std::strstr(name, "::");
  if (sep == nullptr || sep == name || sep[2] == '\0') return false;
  for (const char* c = name; *c; ++c) {
    if (!std::isalnum(static_cast<unsigned char>(*c)) && *c != '_' && *c != '.' && *c != ':') return false;
  }
  return true;
}

std::unique_ptr<at::ObserverContext> onEnter(const at::RecordFunction& fn) {
  if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
    const std::string name = std::string(fn.name()) + ", seq = " + std::to_string(fn.seqNr());
    nvtxRangePushA(name.c_str());
  } else if (fn.scope() == at::RecordScope::FUNCTION && !readsAsOperator(fn.name())) {
    nvtxRangePushA((std::string(fn.name()) + kOperatorTag).c_str());
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
