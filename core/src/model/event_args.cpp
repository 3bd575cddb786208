#include "gapscope/model/event_args.h"

namespace gapscope {

EventArgs::EventArgs(const Trace& trace) : trace_(trace) {
  if (!trace.argsSource || !trace.argsSource->slowOutOfOrder()) return;
  std::vector<ArgsRef> refs;
  refs.reserve(trace.slices.size() + trace.instants.size());
  for (const Slice& s : trace.slices) refs.push_back(s.args);
  for (const Instant& in : trace.instants) refs.push_back(in.args);
  where_.assign(refs.size(), Place{});
  trace.forEachArgsInSourceOrder(refs, [this](std::size_t i, const std::string& json) {
    where_[i] = {text_.size(), json.size()};
    text_ += json;
  });
}

std::string EventArgs::slice(const Slice& s) const {
  return get(static_cast<std::size_t>(&s - trace_.slices.data()), s.args);
}

std::string EventArgs::instant(const Instant& in) const {
  return get(trace_.slices.size() + static_cast<std::size_t>(&in - trace_.instants.data()), in.args);
}

std::string EventArgs::get(std::size_t index, const ArgsRef& ref) const {
  if (where_.empty()) return trace_.argsJson(ref);
  return text_.substr(where_[index].at, where_[index].length);
}

}  // namespace gapscope
