#include "segment_reader.h"

#include <cstring>

#include "json_text.h"
#include "text_buffer.h"

namespace gapscope::io {

namespace {
constexpr std::size_t kNotFound = std::string_view::npos;
}  // namespace

std::size_t lengthToParse(const char* d, std::size_t textLen, std::size_t commaAt) {
  if (commaAt != kNotFound) return commaAt + 2;
  const void* close = memrchr(d + 1, ']', textLen);
  return close ? static_cast<std::size_t>(static_cast<const char*>(close) - d) + 1 : 1 + textLen;
}

Segment interpretFast(const FastParse& fast, std::size_t commaAt) {
  Segment seg;
  if (commaAt != kNotFound && fast.closeIndex == commaAt + 1) {
    seg.kind = Segment::Kind::CutOk;
  } else {
    seg.kind = Segment::Kind::ArrayEnd;
    seg.pos = fast.closeIndex - 1;  // buffer index -> text index
  }
  return seg;
}

Segment SegmentReader::parseText(std::string_view text, std::uint64_t begin, std::size_t commaAt, bool last,
                                 StretchStart start) {
  // The fast parse reads "[" events "]": text that starts after an event,
  // or was not cut and does not end the file, is walked instead.
  if (start == StretchStart::AfterEvent || (commaAt == kNotFound && !last)) return walkExactly(text, begin, last, start);
  TextBuffer b = bufferHolding(text);
  const std::size_t len = lengthToParse(b.data(), text.size(), commaAt);
  if (commaAt != kNotFound) b.text()[commaAt] = ']';
  auto out = newOutput_();
  FastParse fast = parser_.parse(b.data(), len, b.allocated(), begin - 1, *out);
  if (fast.ok) {
    Segment seg = interpretFast(fast, commaAt);
    seg.outputs.push_back(std::move(out));
    return seg;
  }
  return walkExactly(text, begin, last, start);
}

Segment SegmentReader::walkExactly(std::string_view text, std::uint64_t begin, bool last, StretchStart start) {
  ++walks_;
  std::vector<Span> elements;
  Segment seg;
  std::size_t p = 0;
  bool expectValue = start != StretchStart::AfterEvent;
  bool afterComma = start == StretchStart::AfterComma;
  while (true) {
    p = skipSpaces(text, p);
    if (p >= text.size()) {
      if (last) {
        seg.kind = Segment::Kind::Truncated;
      } else if (expectValue && afterComma) {
        seg.kind = Segment::Kind::CutOk;
      } else {
        // Text that was not cut at a ',' (no cut found, or only white
        // space): the next text goes on from this state.
        seg.kind = Segment::Kind::BadCut;
        seg.pos = text.size();
        seg.carryStart = expectValue ? StretchStart::FirstInArray : StretchStart::AfterEvent;
      }
      break;
    }
    const char ch = text[p];
    if (expectValue) {
      if (ch == ']' && !afterComma) {
        seg.kind = Segment::Kind::ArrayEnd;
        seg.pos = p;
        break;
      }
      if (!std::strchr("{[\"-0123456789tfn", ch) || ch == '\0') {
        seg.kind = Segment::Kind::Malformed;
        seg.pos = p;
        seg.message = "expected an event (a JSON object), " + describeFound(text, p);
        break;
      }
      ValueExtent v = scanValueEnd(text, p);
      if (!v.complete) {
        JsonCheck check = checkJsonValue(text, p);
        if (!last && check.status != JsonCheck::Status::Error) {
          // The event goes on in the next text (a wrong cut, or none).
          seg.kind = Segment::Kind::BadCut;
          seg.pos = p;
          seg.carryStart = afterComma ? StretchStart::AfterComma : StretchStart::FirstInArray;
          break;
        }
        if (check.status == JsonCheck::Status::Error) {
          seg.kind = Segment::Kind::Malformed;
          seg.pos = check.pos;
          seg.message = check.message;
        } else {
          seg.kind = Segment::Kind::Truncated;
        }
        break;
      }
      elements.push_back({p, v.end});
      p = v.end;
      expectValue = false;
      continue;
    }
    if (ch == ',') {
      ++p;
      expectValue = true;
      afterComma = true;
      continue;
    }
    if (ch == ']') {
      seg.kind = Segment::Kind::ArrayEnd;
      seg.pos = p;
      break;
    }
    seg.kind = Segment::Kind::Malformed;
    seg.pos = p;
    seg.message = "expected ',' or ']' after an event, " + describeFound(text, p);
    break;
  }
  if (!elements.empty()) seg.lastCompleteEnd = elements.back().e;
  parseElements(text, begin, elements, seg);
  return seg;
}

void SegmentReader::parseElements(std::string_view text, std::uint64_t begin, const std::vector<Span>& elements,
                                  Segment& seg) {
  if (elements.empty()) return;
  const std::size_t from = elements.front().b;
  const std::size_t to = elements.back().e;
  {
    TextBuffer b = bufferHolding(text.substr(from, to - from));
    b.text()[to - from] = ']';
    auto out = newOutput_();
    FastParse fast = parser_.parse(b.data(), to - from + 2, b.allocated(), begin + from - 1, *out);
    if (fast.ok && fast.closeIndex == to - from + 1) {
      seg.outputs.push_back(std::move(out));
      return;
    }
  }
  // Something in these events is wrong: find it event by event.
  auto out = newOutput_();
  for (const auto& el : elements) {
    JsonCheck check = checkJsonValue(text, el.b);
    if (check.status != JsonCheck::Status::Ok || check.pos != el.e) {
      seg.kind = Segment::Kind::Malformed;
      seg.pos = check.pos;
      seg.message = check.status == JsonCheck::Status::Ok ? "expected ',' or ']' after an event"
                                                          : check.message;
      break;
    }
    TextBuffer b = bufferHolding(text.substr(el.b, el.e - el.b));
    b.text()[el.e - el.b] = ']';
    FastParse fast = parser_.parse(b.data(), el.e - el.b + 2, b.allocated(), begin + el.b - 1, *out);
    if (!fast.ok) {
      out->builder.issues().add("unparsable_event", Severity::Warning, begin + el.b,
                                "an event the parser could not read (" + fast.error + "): dropped");
    }
  }
  seg.outputs.push_back(std::move(out));
}

}  // namespace gapscope::io
