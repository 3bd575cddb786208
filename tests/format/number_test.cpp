// Percentages, microseconds, byte sizes and plain numbers, pinned.
#include "gapscope/format/number.h"

#include <gtest/gtest.h>

#include "time_limits.h"

#include <limits>

namespace gapscope::format {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
using testing::kMax;
using testing::kMin;

struct PercentCase {
  double pct;
  PercentStyle style;
  const char* want;
};

TEST(FormatPercent, EachStyle) {
  using enum PercentStyle;
  const PercentCase cases[] = {
      {0, Readable, "0.0%"},
      {0.01, Readable, "<0.1%"},  // not zero, so not "0.0%"
      {1e-300, Readable, "<0.1%"},
      {0.049999, Readable, "<0.1%"},
      {0.05, Readable, "0.1%"},
      {12.345, Readable, "12.3%"},
      {100, Readable, "100.0%"},
      {-0.01, Readable, "-0.0%"},
      {kNaN, Readable, "nan%"},
      {kInf, Readable, "inf%"},
      {-kInf, Readable, "-inf%"},
      {0.01, Verdict, "0.0%"},
      {12.345, Verdict, "12.3%"},
      {99.96, Verdict, "100.0%"},
      {kNaN, Verdict, "nan%"},
      {0, TorchTable, "0.00%"},
      {0.001, TorchTable, "0.00%"},
      {12.3456, TorchTable, "12.35%"},
      {100, TorchTable, "100.00%"},
      {-3.5, TorchTable, "-3.50%"},
      {kInf, TorchTable, "inf%"},
      {0, AppTable, "0.00 %"},
      {12.3456, AppTable, "12.35 %"},
      {kNaN, AppTable, "nan %"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(formatPercent(c.pct, c.style), c.want) << c.pct << " in style " << static_cast<int>(c.style);
  EXPECT_EQ(formatPercent(0.01), "<0.1%");  // the default style
}

TEST(FormatMicroseconds, ExactDecimalText) {
  const std::pair<TimeNs, const char*> cases[] = {
      {0, "0"},
      {1, "0.001"},
      {999, "0.999"},
      {1000, "1"},
      {1920, "1.92"},
      {-5, "-0.005"},
      {-1000, "-1"},
      {4'472'706'015'647'769, "4472706015647.769"},
      {kMax, "9223372036854775.807"},
      {kMin, "-9223372036854775.808"},
  };
  for (const auto& [ns, want] : cases) EXPECT_EQ(exactUs(ns), want) << "ns = " << ns;
  // Appended after what the buffer holds, as the CSV writer uses it.
  std::string row = "x,";
  appendExactUs(row, 1020);
  row += ',';
  appendExactUs(row, -300);
  EXPECT_EQ(row, "x,1.02,-0.3");
}

TEST(FormatMicroseconds, JsonNumberIsTheNearestDouble) {
  const std::pair<TimeNs, double> cases[] = {
      {0, 0.0},
      {1, 0.001},
      {1920, 1.92},
      {-5, -0.005},
      {4'472'706'015'647'769, 4472706015647.769},  // below 2^53: exact in shortest form
  };
  for (const auto& [ns, want] : cases) EXPECT_EQ(usNumber(ns), want) << "ns = " << ns;
}

TEST(FormatBytes, BinaryUnitsWithOneDecimal) {
  const std::pair<std::int64_t, const char*> cases[] = {
      {0, "0 B"},
      {-5, "-5 B"},
      {-2'097'152, "-2.0 MiB"},
      {1023, "1023 B"},
      {1024, "1.0 KiB"},
      {49'152, "48.0 KiB"},
      {1'048'575, "1024.0 KiB"},  // rounds up but keeps the unit
      {1'048'576, "1.0 MiB"},
      {150'100'000'000, "139.8 GiB"},
      {kMax, "8388608.0 TiB"},  // TiB is the largest unit
  };
  for (const auto& [bytes, want] : cases) EXPECT_EQ(formatBytes(bytes), want) << bytes << " bytes";
}

struct DecimalsCase {
  double value;
  int decimals;
  const char* want;
};

TEST(FormatNumber, TrailingZerosDroppedAndNonFiniteIsZero) {
  const DecimalsCase cases[] = {
      {0, 2, "0"},
      {1.5, 2, "1.5"},
      {2.0, 2, "2"},
      {12.3456, 2, "12.35"},
      {0.1234567, 6, "0.123457"},
      {1'234'567.0, 0, "1234567"},
      {-2.5, 1, "-2.5"},
      {-0.001, 2, "0"},  // not "-0"
      {-0.0, 2, "0"},
      {kNaN, 2, "0"},
      {kInf, 1, "0"},
      {-kInf, 1, "0"},
  };
  for (const auto& c : cases) EXPECT_EQ(formatNumber(c.value, c.decimals), c.want) << c.value;
}

TEST(FormatNumber, FixedKeepsEveryDecimal) {
  const DecimalsCase cases[] = {
      {0, 4, "0.0000"},
      {12.3456, 1, "12.3"},
      {99.5, 4, "99.5000"},
      {-0.0, 1, "-0.0"},
      {kNaN, 1, "nan"},
      {1e20, 0, "100000000000000000000"},
  };
  for (const auto& c : cases) EXPECT_EQ(formatFixed(c.value, c.decimals), c.want) << c.value;
  EXPECT_EQ(formatFixed(1e300, 2).size(), 304u);  // no fixed buffer cuts it short
}

}  // namespace
}  // namespace gapscope::format
