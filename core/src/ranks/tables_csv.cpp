#include "gapscope/ranks/tables_csv.h"

#include <zlib.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <stdexcept>

#include "gapscope/format/escape.h"
#include "inflated_text.h"

namespace gapscope::ranks {
namespace fs = std::filesystem;
namespace {

using analysis::GapCause;
using Row = std::vector<std::string>;

const std::vector<std::string> kMeta = {"schema_version", "rank", "world_size", "file", "step_source", "step_name"};
const std::vector<std::string> kSteps = {"rank", "step", "start_ns", "time_ns", "busy_ns", "active_ns",
                                         "idle_launch_overhead_ns", "idle_synchronization_ns", "idle_queued_ns",
                                         "idle_other_ns", "kernels", "launches", "collectives", "collective_ns", "warm_up"};
const std::vector<std::string> kCollectives = {"rank", "step", "index", "name", "cpu_op",
                                               "device", "stream", "start_ns", "dur_ns"};
const std::vector<std::string> kKernels = {"rank", "name", "calls", "total_ns"};
const std::vector<std::string> kOps = {"rank", "name", "calls", "self_cpu_ns", "cpu_total_ns", "device_total_ns"};
const std::vector<std::string> kGaps = {"rank", "step", "device", "stream", "start_ns", "dur_ns", "cause"};

std::string n(std::int64_t v) { return std::to_string(v); }
std::string n(std::uint64_t v) { return std::to_string(v); }

// One gzip CSV, written to NAME.tmp and renamed when closed.
class CsvOut {
 public:
  CsvOut(const fs::path& path, const std::vector<std::string>& header) : path_(path), tmp_(path.string() + ".tmp") {
    gz_ = gzopen(tmp_.c_str(), "wb6");
    if (!gz_) throw std::runtime_error("cannot write " + tmp_);
    row(header);
  }
  ~CsvOut() {
    if (gz_) {
      gzclose(gz_);
      std::remove(tmp_.c_str());
    }
  }
  void row(const Row& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) line_ += ',';
      format::appendCsvQuoted(line_, fields[i]);
    }
    line_ += '\n';
    if (line_.size() > (1u << 16)) flush();
  }
  void close() {
    flush();
    const int rc = gzclose(gz_);
    gz_ = nullptr;
    if (rc != Z_OK) throw std::runtime_error("cannot write " + tmp_);
    fs::rename(tmp_, path_);
  }

 private:
  void flush() {
    if (!line_.empty() && gzwrite(gz_, line_.data(), static_cast<unsigned>(line_.size())) <= 0) {
      throw std::runtime_error("cannot write " + tmp_);
    }
    line_.clear();
  }
  fs::path path_;
  std::string tmp_;
  gzFile gz_ = nullptr;
  std::string line_;
};

const char* const kCauseNames[] = {"launch_overhead", "synchronization", "queued", "other"};

void writeMeta(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "meta.csv.gz", kMeta);
  out.row({n(std::int64_t{kTablesSchemaVersion}), n(t.rank), n(t.worldSize), t.file,
           analysis::stepSourceName(t.stepSource), t.stepName});
  out.close();
}
void writeSteps(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "steps.csv.gz", kSteps);
  for (const auto& s : t.steps) {
    out.row({n(t.rank), n(s.step), n(s.startNs), n(s.timeNs), n(s.busyNs), n(s.activeNs), n(s.idle.ns[0]),
             n(s.idle.ns[1]), n(s.idle.ns[2]), n(s.idle.ns[3]), n(s.kernels), n(s.launches), n(s.collectives),
             n(s.collectiveNs), s.warmUp ? "1" : "0"});
  }
  out.close();
}
void writeCollectives(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "collectives.csv.gz", kCollectives);
  for (const auto& c : t.collectives) {
    out.row({n(t.rank), n(c.step), n(std::uint64_t{c.index}), c.name, c.cpuOp, n(std::int64_t{c.device}), n(c.stream),
             n(c.startNs), n(c.durNs)});
  }
  out.close();
}
void writeKernels(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "kernels.csv.gz", kKernels);
  for (const auto& k : t.kernels) out.row({n(t.rank), k.name, n(k.calls), n(k.totalNs)});
  out.close();
}
void writeOps(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "ops.csv.gz", kOps);
  for (const auto& o : t.ops) {
    out.row({n(t.rank), o.name, n(o.calls), n(o.selfCpuNs), n(o.cpuTotalNs), n(o.deviceTotalNs)});
  }
  out.close();
}
void writeGaps(const RankTables& t, const fs::path& dir) {
  CsvOut out(dir / "gaps.csv.gz", kGaps);
  for (const auto& g : t.gaps) {
    out.row({n(t.rank), n(g.step), n(std::int64_t{g.device}), n(g.stream), n(g.startNs), n(g.durNs),
             kCauseNames[static_cast<int>(g.cause)]});
  }
  out.close();
}

// ---- reading ----

class CsvIn {
 public:
  CsvIn(const fs::path& path, const std::vector<std::string>& header) : name_(path.string()), text_(inflatedText(path.string())) {
    Row first;
    if (!next(first) || first != header) {
      fail("the header is not the one of schema version " + std::to_string(kTablesSchemaVersion) +
           " (tables written by another gapscope: export them again)");
    }
  }
  // The next record; false at the end.
  bool next(Row& row) {
    row.clear();
    if (pos_ >= text_.size()) return false;
    ++line_;
    lineStart_ = pos_;
    std::string field;
    for (;;) {
      if (pos_ < text_.size() && text_[pos_] == '"') {
        ++pos_;
        for (;;) {
          if (pos_ >= text_.size()) fail("a quoted field is not closed");
          const char c = text_[pos_++];
          if (c == '"' && pos_ < text_.size() && text_[pos_] == '"') {
            field += '"';
            ++pos_;
          } else if (c == '"') {
            break;
          } else {
            if (c == '\n') ++line_;
            field += c;
          }
        }
      }
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n') field += text_[pos_++];
      row.push_back(std::move(field));
      field.clear();
      if (pos_ >= text_.size() || text_[pos_] == '\n') {
        ++pos_;
        return true;
      }
      ++pos_;  // the comma
    }
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name_ + ":" + std::to_string(line_) + ":" + std::to_string(pos_ - lineStart_ + 1) + ": " +
                             what);
  }
  std::int64_t integer(const Row& row, std::size_t column) const {
    std::int64_t v = 0;
    const std::string& s = row.at(column);
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail("column " + std::to_string(column + 1) + ": '" + s + "' is not an integer");
    return v;
  }
  void expectColumns(const Row& row, std::size_t count) const {
    if (row.size() != count) fail("expected " + std::to_string(count) + " fields, found " + std::to_string(row.size()));
  }

 private:
  std::string name_;
  std::string text_;
  std::size_t pos_ = 0;
  std::size_t lineStart_ = 0;
  std::size_t line_ = 0;
};

// Calls `each` for every data row of one table, checked for its width.
void readTable(const fs::path& path, const std::vector<std::string>& header,
               const std::function<void(const CsvIn&, const Row&)>& each) {
  CsvIn in(path, header);
  Row row;
  while (in.next(row)) {
    in.expectColumns(row, header.size());
    each(in, row);
  }
}

analysis::StepSource stepSourceFrom(const CsvIn& in, const std::string& text) {
  for (auto s : {analysis::StepSource::ProfilerStep, analysis::StepSource::RepeatedAnnotation,
                 analysis::StepSource::WholeTrace}) {
    if (text == analysis::stepSourceName(s)) return s;
  }
  in.fail("unknown step_source '" + text + "'");
}

GapCause causeFrom(const CsvIn& in, const std::string& text) {
  for (int c = 0; c < 4; ++c) {
    if (text == kCauseNames[c]) return static_cast<GapCause>(c);
  }
  in.fail("unknown cause '" + text + "'");
}

}  // namespace

const std::vector<std::string>& tableNames() {
  static const std::vector<std::string> names = {"meta", "steps", "collectives", "kernels", "ops", "gaps"};
  return names;
}

void writeRankTables(const RankTables& t, const std::string& directory) {
  const fs::path dir(directory);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(directory + ": " + ec.message());
  writeMeta(t, dir);
  writeSteps(t, dir);
  writeCollectives(t, dir);
  writeKernels(t, dir);
  writeOps(t, dir);
  writeGaps(t, dir);
}

RankTables readRankTables(const std::string& directory) {
  const fs::path dir(directory);
  RankTables t;
  int metaRows = 0;
  readTable(dir / "meta.csv.gz", kMeta, [&](const CsvIn& in, const Row& r) {
    if (in.integer(r, 0) != kTablesSchemaVersion) in.fail("schema version " + r[0] + ", this gapscope reads " + std::to_string(kTablesSchemaVersion));
    t.rank = in.integer(r, 1);
    t.worldSize = in.integer(r, 2);
    t.file = r[3];
    t.stepSource = stepSourceFrom(in, r[4]);
    t.stepName = r[5];
    ++metaRows;
  });
  if (metaRows != 1) throw std::runtime_error((dir / "meta.csv.gz").string() + ": expected one row");
  readTable(dir / "steps.csv.gz", kSteps, [&](const CsvIn& in, const Row& r) {
    RankStep s;
    s.step = in.integer(r, 1);
    s.startNs = in.integer(r, 2);
    s.timeNs = in.integer(r, 3);
    s.busyNs = in.integer(r, 4);
    s.activeNs = in.integer(r, 5);
    for (std::size_t c = 0; c < 4; ++c) s.idle.ns[c] = in.integer(r, 6 + c);
    s.kernels = static_cast<std::uint64_t>(in.integer(r, 10));
    s.launches = static_cast<std::uint64_t>(in.integer(r, 11));
    s.collectives = static_cast<std::uint64_t>(in.integer(r, 12));
    s.collectiveNs = in.integer(r, 13);
    const std::int64_t warmUp = in.integer(r, 14);
    if (warmUp != 0 && warmUp != 1) in.fail("column 15: warm_up is " + r[14] + ", not 0 or 1");
    s.warmUp = warmUp == 1;
    t.steps.push_back(s);
  });
  readTable(dir / "collectives.csv.gz", kCollectives, [&](const CsvIn& in, const Row& r) {
    t.collectives.push_back({in.integer(r, 1), static_cast<std::uint32_t>(in.integer(r, 2)), r[3], r[4],
                             static_cast<std::int32_t>(in.integer(r, 5)), in.integer(r, 6), in.integer(r, 7),
                             in.integer(r, 8)});
  });
  readTable(dir / "kernels.csv.gz", kKernels, [&](const CsvIn& in, const Row& r) {
    t.kernels.push_back({r[1], in.integer(r, 2), in.integer(r, 3)});
  });
  readTable(dir / "ops.csv.gz", kOps, [&](const CsvIn& in, const Row& r) {
    t.ops.push_back({r[1], in.integer(r, 2), in.integer(r, 3), in.integer(r, 4), in.integer(r, 5)});
  });
  readTable(dir / "gaps.csv.gz", kGaps, [&](const CsvIn& in, const Row& r) {
    t.gaps.push_back({in.integer(r, 1), static_cast<std::int32_t>(in.integer(r, 2)), in.integer(r, 3),
                      in.integer(r, 4), in.integer(r, 5), causeFrom(in, r[6])});
  });
  return t;
}

}  // namespace gapscope::ranks
