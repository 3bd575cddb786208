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

// Cuts the trailing parameter list "(int, float*)" when the name ends with
// one. A parenthesis after a space is no parameter list but part of the
// name: "Memcpy HtoD (Pageable -> Device)" keeps its direction.
std::string_view withoutParameters(std::string_view name) {
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return i > 0 && name[i - 1] == ' ' ? name : name.substr(0, i);
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

bool isNumber(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// In a wrapper "AUnaryFunctor<float, float, float, MulFunctor<float>>" that
// starts at `at` (the '<' after the wrapper's name), the innermost
// "...Functor" before the wrapper's arguments close; the wrapper otherwise.
std::string_view innermostFunctor(std::string_view args, std::size_t at, std::string_view wrapper) {
  const std::size_t close = args.find('>', at);
  for (std::size_t f = args.find("Functor<", at + 1); f != std::string_view::npos && f < close;
       f = args.find("Functor<", f + 1))
    wrapper = identBefore(args, f + 7);
  return wrapper;
}

// The first functor named in the template arguments: an identifier holding
// "Functor" (CUDAFunctor_add, MulFunctor) or ending in "_kernel_cuda"
// (tanh_kernel_cuda), wherever it sits ("elementwise_kernel<128, 2,
// gpu_kernel_impl_nocast<CUDAFunctor_add<float>>>" names it third).
std::string_view namedFunctor(std::string_view args) {
  for (std::size_t i = 0; i < args.size();) {
    if (!isIdentChar(args[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < args.size() && isIdentChar(args[end])) ++end;
    const std::string_view ident = args.substr(i, end - i);
    if (ident.ends_with("Functor") && end < args.size() && args[end] == '<') return innermostFunctor(args, end, ident);
    if (contains(ident, "Functor") || ident.ends_with("_kernel_cuda")) return ident;
    i = end;
  }
  return {};
}

// The functor of "at::native::vectorized_elementwise_kernel<4, FUNCTOR, ...>":
// one named as such anywhere in the template arguments (namedFunctor), else
// the identifier right before the first '(' or '<' of the second template
// argument ("launch_clamp_scalar"); never a bare number.
std::string elementwiseFunctor(std::string_view name) {
  std::string text(name);
  eraseAll(text, "(anonymous namespace)::");
  std::size_t open = text.find('<');
  if (open == std::string::npos) return "";
  const std::string_view args = std::string_view(text).substr(open + 1);
  if (std::string_view named = namedFunctor(args); !named.empty()) return std::string(named);
  std::size_t comma = args.find(',');
  if (comma == std::string_view::npos) return "";
  std::string_view arg = args.substr(comma + 1);
  std::size_t stop = arg.find_first_of("(<,>");
  if (stop == std::string_view::npos) return "";
  std::string_view functor = identBefore(arg, stop);
  return isNumber(functor) ? "" : std::string(functor);
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
