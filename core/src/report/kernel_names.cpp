#include "report/kernel_names.h"

#include <algorithm>
#include <cctype>

namespace gapscope::report {
namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Cuts the trailing parameter list "(int, float*)" when the name ends with one.
std::string_view withoutParameters(std::string_view name) {
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return name.substr(0, i);
  }
  return name;
}

void eraseAll(std::string& s, std::string_view what) {
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at)) s.erase(at, what.size());
}

// The identifier that ends right before position `end` of `s`.
std::string_view identBefore(std::string_view s, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && isIdentChar(s[begin - 1])) --begin;
  return s.substr(begin, end - begin);
}

// The functor of "at::native::vectorized_elementwise_kernel<4, FUNCTOR, ...>":
// the identifier right before the first '(' or '<' of the second template
// argument ("tanh_kernel_cuda", "CUDAFunctor_add"); for wrappers such as
// "BinaryFunctor<float, float, float, MulFunctor<float>>" the innermost
// "...Functor" ("MulFunctor").
std::string elementwiseFunctor(std::string_view name) {
  std::string text(name);
  eraseAll(text, "(anonymous namespace)::");
  std::size_t open = text.find('<');
  std::size_t comma = open == std::string::npos ? std::string::npos : text.find(',', open);
  if (comma == std::string::npos) return "";
  std::string_view arg = std::string_view(text).substr(comma + 1);
  std::size_t stop = arg.find_first_of("(<,>");
  if (stop == std::string_view::npos) return "";
  std::string_view functor = identBefore(arg, stop);
  if (arg[stop] == '<' && functor.ends_with("Functor")) {
    // Look for an inner "...Functor<" before the wrapper's arguments close.
    std::size_t close = arg.find('>', stop);
    for (std::size_t at = arg.find("Functor<", stop + 1); at != std::string_view::npos && at < close;
         at = arg.find("Functor<", at + 1)) {
      functor = identBefore(arg, at + 7);
    }
  }
  return std::string(functor);
}

std::string cutMiddle(std::string text, std::size_t maxLength) {
  if (text.size() <= maxLength || maxLength < 8) return text;
  std::size_t keepHead = (maxLength - 3) * 2 / 3;
  std::size_t keepTail = maxLength - 3 - keepHead;
  // Never cut inside a UTF-8 sequence.
  while (keepHead > 0 && (static_cast<unsigned char>(text[keepHead]) & 0xC0) == 0x80) --keepHead;
  std::size_t tailStart = text.size() - keepTail;
  while (tailStart < text.size() && (static_cast<unsigned char>(text[tailStart]) & 0xC0) == 0x80)
    ++tailStart;
  return text.substr(0, keepHead) + "..." + text.substr(tailStart);
}

}  // namespace

bool isElementwiseKernel(std::string_view name) {
  return contains(name, "elementwise_kernel") || startsWith(name, "triton_poi_");
}

bool isGemmKernel(std::string_view name) {
  std::string l = lower(name);
  // cuDNN runs convolutions as implicit GEMMs ("implicit_convolve_sgemm",
  // "..._fprop_implicit_gemm_..."): those are convolutions, not matmuls.
  for (std::string_view conv : {"conv", "fprop", "dgrad", "wgrad"})
    if (contains(l, conv)) return false;
  return contains(l, "gemm") || startsWith(l, "nvjet") || startsWith(l, "triton_tem_fused_mm") ||
         startsWith(l, "triton_tem_fused_addmm");
}

bool opAlreadyAddsToGemm(std::string_view opName) {
  return startsWith(opName, "aten::add") || startsWith(opName, "aten::baddbmm");
}

bool gemmHasBiasEpilogue(std::string_view name) {
  std::string l = lower(name);
  return contains(l, "_bias") || contains(l, "bias_") || startsWith(l, "triton_tem_fused_addmm");
}

bool isAddKernel(std::string_view name) {
  if (startsWith(name, "triton_poi_")) return contains(name, "_add");
  if (!isElementwiseKernel(name)) return false;
  std::string functor = elementwiseFunctor(name);
  std::string l = lower(functor);
  return l == "cudafunctor_add" || l == "addfunctor" || l == "add_kernel_cuda" ||
         contains(l, "functor_add");
}

std::string kernelLabel(std::string_view name, std::size_t maxLength) {
  std::string_view s = name;
  if (startsWith(s, "void ")) s.remove_prefix(5);
  if (contains(s, "elementwise_kernel")) {
    std::string functor = elementwiseFunctor(s);
    if (!functor.empty()) return cutMiddle("elementwise: " + functor, maxLength);
  }
  std::string label(withoutParameters(s));
  eraseAll(label, "(anonymous namespace)::");
  return cutMiddle(std::move(label), maxLength);
}

std::uint8_t KernelClassifier::flags(StringId name) {
  if (name >= flags_.size()) return 0;
  std::uint8_t& f = flags_[name];
  if (f & kKnown) return f;
  std::string_view text = trace_.str(name);
  f = kKnown;
  if (isElementwiseKernel(text)) f |= kElementwise;
  if (isGemmKernel(text) && !gemmHasBiasEpilogue(text)) f |= kGemmNoBias;
  if (isAddKernel(text)) f |= kAdd;
  return f;
}

}  // namespace gapscope::report
