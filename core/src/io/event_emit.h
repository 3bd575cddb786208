// Turns the fields of one event (event_fields.h) into TraceBuilder calls,
// and counts what cannot be used as import issues. Nothing here knows JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event_fields.h"
#include "event_parser.h"
#include "name_cache.h"

namespace gapscope::io {

class EventEmitter {
 public:
  // `buf` and `base` map pointers into the parsed text to stream offsets.
  EventEmitter(const EventFields& fields, const ArgNumbers& numbers, ChunkOutput& out, NameCache& names,
               const char* buf, std::uint64_t base)
      : f(fields), numbers_(numbers), out_(out), names_(names), buf_(buf), base_(base) {}

  void emit();

 private:
  TraceBuilder& builder() { return out_.builder; }
  StringId intern(std::string_view text) { return names_.get(out_.builder, text); }
  std::uint64_t offsetOf(const char* p) const { return base_ + static_cast<std::uint64_t>(p - buf_); }
  void issue(const char* name, Severity sev, const char* what) { builder().issues().add(name, sev, f.offset, what); }

  ChromeId chromeId(const Scalar& s);  // cached by its text (NameCache::id)
  ChromeId convertedId(const Scalar& s);
  bool inRange(TimeNs t, const Scalar& s, const char* field);
  bool time(const Scalar& s, TimeNs* out, const char* field, const char* missingName, const char* invalidName, const char* what);
  bool timestamp(TimeNs* ts);
  std::uint64_t numericFlowId(const Scalar& s, bool local);
  ArgsRef argsRef();
  void requireThread();
  void emitSlice(bool complete);
  void emitEnd();
  void emitInstant();
  std::string counterSeriesName(const char* rawKey);
  void emitCounter();
  void emitFlow();
  void emitAsync();
  void emitMetadata();
  void dropUnknown();

  const EventFields& f;
  const ArgNumbers& numbers_;
  ChunkOutput& out_;
  NameCache& names_;
  const char* buf_;
  std::uint64_t base_;
};

}  // namespace gapscope::io
