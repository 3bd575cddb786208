#include "bare_scan.h"

#include <simdjson.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "byte_source.h"
#include "json_text.h"

namespace gapscope::bench {

namespace {

namespace od = simdjson::ondemand;
constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

struct Piece {
  std::unique_ptr<char[]> data;  // '[' + text + room for ']' + padding
  std::size_t len = 0;           // bytes to parse, '[' and ']' included
  std::size_t allocated = 0;
};

// Visits every member of every event and of its args; nothing is kept.
void scanPiece(od::parser& parser, Piece& p, ScanCounts& counts) {
  od::document doc;
  auto fail = [&](simdjson::error_code e) { counts.error = simdjson::error_message(e); };
  if (auto e = parser.iterate(simdjson::padded_string_view(p.data.get(), p.len, p.allocated)).get(doc)) return fail(e);
  od::array events;
  if (auto e = doc.get_array().get(events)) return fail(e);
  for (auto element : events) {
    od::object event;
    if (element.get_object().get(event)) continue;
    ++counts.events;
    for (auto member : event) {
      od::field f;
      if (auto e = std::move(member).get(f)) return fail(e);
      ++counts.members;
      const char* key = f.key().raw();
      if (std::memcmp(key, "args\"", 5) != 0) continue;
      od::object args;
      if (f.value().get_object().get(args)) continue;
      for (auto arg : args) {
        od::field af;
        if (auto e = std::move(arg).get(af)) return fail(e);
        ++counts.members;
        (void)af.key().raw();
      }
    }
  }
}

}  // namespace

ScanCounts bareChunkedScan(const std::string& path, int threads, std::size_t chunkBytes) {
  ScanCounts total;
  std::string error;
  std::unique_ptr<io::ByteSource> src = io::openFileSource(path, &error);
  if (!src) {
    total.error = error;
    return total;
  }
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Piece> queue;
  bool done = false;
  std::vector<ScanCounts> counts(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      od::parser parser;
      while (true) {
        Piece p;
        {
          std::unique_lock lock(mu);
          cv.wait(lock, [&] { return done || !queue.empty(); });
          if (queue.empty()) return;
          p = std::move(queue.front());
          queue.pop_front();
        }
        cv.notify_all();
        scanPiece(parser, p, counts[static_cast<std::size_t>(t)]);
      }
    });
  }
  // Producer: read, find the events array, cut, hand over.
  auto newPiece = [&](std::size_t capacity) {
    Piece p;
    p.allocated = capacity + 2 + kPadding;
    p.data.reset(new char[p.allocated]);
    p.data[0] = '[';
    return p;
  };
  Piece cur = newPiece(chunkBytes);
  std::size_t filled = 0;
  bool eof = false;
  bool started = false;
  while (!eof || filled) {
    while (!eof && filled < chunkBytes) {
      std::size_t n = src->read(cur.data.get() + 1 + filled, chunkBytes - filled);
      if (n == 0) eof = true;
      filled += n;
    }
    std::string_view text(cur.data.get() + 1, filled);
    if (!started) {
      // The events start after the '[' of "traceEvents" (or the first '[').
      std::size_t key = text.find("\"traceEvents\"");
      std::size_t open = text.find('[', key == std::string_view::npos ? 0 : key);
      if (open == std::string_view::npos) break;
      std::memmove(cur.data.get() + 1, cur.data.get() + 2 + open, filled - open - 1);
      filled -= open + 1;
      started = true;
      continue;
    }
    std::size_t cut = eof ? std::string_view::npos : io::findEventSeparatorBackward(text, filled);
    if (!eof && cut == std::string_view::npos) {
      error = "an event is larger than a chunk";
      break;
    }
    Piece next = newPiece(chunkBytes);
    std::size_t carried = 0;
    if (cut == std::string_view::npos) {
      // The last piece: up to its last ']' (simdjson wants the root array to end the document).
      cur.len = 1 + text.rfind(']') + 1;
    } else {
      carried = filled - cut - 1;
      std::memcpy(next.data.get() + 1, text.data() + cut + 1, carried);
      cur.data[1 + cut] = ']';
      cur.len = cut + 2;
    }
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return queue.size() < static_cast<std::size_t>(threads) + 1; });
      queue.push_back(std::move(cur));
    }
    cv.notify_all();
    if (cut == std::string_view::npos) break;
    cur = std::move(next);
    filled = carried;
  }
  {
    std::lock_guard lock(mu);
    done = true;
  }
  cv.notify_all();
  for (auto& w : workers) w.join();
  for (const auto& c : counts) {
    total.events += c.events;
    total.members += c.members;
    if (error.empty()) error = c.error;
  }
  total.error = error.empty() ? src->error() : error;
  return total;
}

}  // namespace gapscope::bench
