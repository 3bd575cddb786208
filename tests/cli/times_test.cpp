// Issue 14 through the CLI: times near the int64 limit print nothing absurd
// (no negative span or self time, no verdict from overflowed figures).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "cli_run.h"

namespace {

using gapscope::testing::CliResult;
using gapscope::testing::runCli;
using gapscope::testing::TempDir;

// A negative number printed as a figure (not a '-' inside a path or name).
bool printsANegativeNumber(const std::string& out) {
  return std::regex_search(out, std::regex(R"((^|[\s(|,])-[0-9])"));
}

}  // namespace

TEST(CliTimes, TimesNearTheInt64LimitPrintNothingAbsurd) {
  // Before: a kernel at ts 9e15 us overflowed int64 nanoseconds and the
  // summary printed "Span: -9000000000.000s" and a wrong verdict.
  TempDir dir;
  const std::string path = (dir.path() / "far.json").string();
  std::ofstream(path) << R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":10,"args":{"correlation":1,"device":0,"stream":7}},
{"ph":"X","cat":"kernel","name":"far","pid":0,"tid":7,"ts":9000000000000000,"dur":9000000000000000,"args":{"device":0,"stream":7}},
{"ph":"X","cat":"cpu_op","name":"aten::long","pid":1,"tid":1,"ts":60,"dur":9000000000000000}
]})";
  for (const std::string command : {"summary", "ops", "kernels", "gaps"}) {
    CliResult r = runCli({command, path});
    ASSERT_EQ(r.status, 0) << command << "\n" << r.err;
    EXPECT_FALSE(printsANegativeNumber(r.out)) << command << ":\n" << r.out;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << command << ":\n" << r.out;
  }
  CliResult summary = runCli({"summary", path});
  EXPECT_NE(summary.out.find("Span:         60.000us"), std::string::npos) << summary.out;
  EXPECT_NE(summary.out.find("timestamp_out_of_range"), std::string::npos) << summary.out;
  EXPECT_NE(summary.out.find("duration_out_of_range"), std::string::npos) << summary.out;
  EXPECT_NE(summary.out.find("of the event \"far\""), std::string::npos) << summary.out;
}

TEST(CliTimes, TimesAtTheLimitAddUpWithoutOverflow) {
  // Every time at the limit: the span is 9e18 ns, an operator's total over
  // four calls passes int64 and saturates, and nothing prints negative.
  TempDir dir;
  const std::string path = (dir.path() / "edge.json").string();
  std::ofstream out(path);
  out << R"({"traceEvents":[)";
  for (int i = 0; i < 4; ++i) {
    out << R"({"ph":"X","cat":"cpu_op","name":"aten::edge","pid":1,"tid":)" << i
        << R"(,"ts":-3000000000000000,"dur":3000000000000000},)";
    out << R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":)" << 7 + i
        << R"(,"ts":3000000000000000,"dur":3000000000000000,"args":{"device":0,"stream":)" << 7 + i << "}},";
  }
  out << R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":-3000000000000000,"dur":1,"args":{"device":0,"stream":7}}]})";
  out.close();
  for (const std::string command : {"summary", "ops", "kernels", "gaps"}) {
    CliResult r = runCli({command, path});
    ASSERT_EQ(r.status, 0) << command << "\n" << r.err;
    EXPECT_FALSE(printsANegativeNumber(r.out)) << command << ":\n" << r.out;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << command << ":\n" << r.out;
  }
}
