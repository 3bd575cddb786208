// Every duration style and the time-axis labels, pinned: the CLI, the
// reports and the app print these bytes.
#include "gapscope/format/duration.h"

#include <gtest/gtest.h>

#include "time_limits.h"

#include <limits>
#include <span>

namespace gapscope::format {
namespace {

using testing::kMax;
using testing::kMin;

struct DurationCase {
  TimeNs ns;
  const char* want;
};

void expectStyle(DurationStyle style, std::span<const DurationCase> cases) {
  for (const auto& c : cases) EXPECT_EQ(formatDuration(c.ns, style), c.want) << "ns = " << c.ns;
}

TEST(FormatDuration, ReadableHasThreeSignificantDigits) {
  const DurationCase cases[] = {
      {0, "0 ns"},
      {1, "1 ns"},
      {850, "850 ns"},
      {999, "999 ns"},
      {1000, "1.00 µs"},
      {12'345, "12.3 µs"},
      {99'949, "99.9 µs"},
      {99'950, "100.0 µs"},  // four digits: only rounding into the next unit moves up
      {999'499, "999 µs"},
      {999'500, "1.00 ms"},  // never "1000 µs"
      {999'700, "1.00 ms"},
      {999'960, "1.00 ms"},
      {1'234'567, "1.23 ms"},
      {1'500'000, "1.50 ms"},
      {999'500'000, "1.00 s"},
      {2'345'000'000, "2.35 s"},
      {7'200'000'000'000, "7200 s"},
      {-1, "-1 ns"},
      {-1500, "-1.50 µs"},
      {-4200, "-4.20 µs"},
      {kMax, "9223372037 s"},
      {kMin, "-9223372037 s"},
  };
  expectStyle(DurationStyle::Readable, cases);
  EXPECT_EQ(formatDuration(12'345), "12.3 µs");  // the default style
}

TEST(FormatDuration, AxisLabelDropsTrailingZeros) {
  const DurationCase cases[] = {
      {0, "0 ns"},
      {999, "999 ns"},
      {1000, "1 µs"},
      {2500, "2.5 µs"},
      {100'000, "100 µs"},
      {999'960, "1 ms"},
      {1'230'000, "1.23 ms"},
      {10'000'000, "10 ms"},
      {-1500, "-1.5 µs"},
      {kMin, "-9223372037 s"},
  };
  expectStyle(DurationStyle::AxisLabel, cases);
}

TEST(FormatDuration, VerdictIsExactToThreeDecimals) {
  const DurationCase cases[] = {
      {0, "0 ns"},
      {1, "1 ns"},
      {999, "999 ns"},
      {1000, "1 µs"},
      {12'345, "12.345 µs"},
      {999'999, "999.999 µs"},
      {1'000'000, "1 ms"},
      {1'234'567, "1.235 ms"},  // half up
      {1'500'000, "1.5 ms"},
      {999'999'999, "1000 ms"},  // rounding stays in the unit
      {1'000'000'000, "1 s"},
      {-999, "-999 ns"},
      {-12'345, "-12.345 µs"},
      {-1'000'500, "-1.001 ms"},
      {kMax, "9223372036.855 s"},
      {kMin, "-9223372036.855 s"},
  };
  expectStyle(DurationStyle::Verdict, cases);
}

TEST(FormatDuration, TorchTableMatchesPyTorch) {
  const DurationCase cases[] = {
      {0, "0.000us"},
      {1, "0.001us"},
      {999, "0.999us"},
      {12'345, "12.345us"},
      {999'999, "999.999us"},
      {1'000'000, "1.000ms"},
      {1'234'567, "1.235ms"},
      {999'999'999, "1000.000ms"},
      {1'000'000'000, "1.000s"},
      {2'000'499'999, "2.000s"},
      {2'000'500'000, "2.001s"},
      {-12'345, "-12.345us"},
      {kMax, "9223372036.855s"},
      {kMin, "-9223372036.855s"},
  };
  expectStyle(DurationStyle::TorchTable, cases);
}

TEST(FormatTimeLabel, UnitIsTheLargestNotAboveTheMagnitude) {
  const std::pair<TimeNs, TimeNs> cases[] = {
      {0, 1},
      {999, 1},
      {1000, 1000},
      {-1000, 1000},
      {1'250'000, 1'000'000},
      {5'000'000'000, 1'000'000'000},
      {kMax, 1'000'000'000},
      {kMin, 1'000'000'000},
  };
  for (const auto& [maxAbs, unit] : cases) EXPECT_EQ(labelUnitFor(maxAbs), unit) << "maxAbs = " << maxAbs;
}

TEST(FormatTimeLabel, OneUnitAndJustEnoughDecimals) {
  struct Case {
    TimeNs t, step, unit;
    const char* want;
  };
  const Case cases[] = {
      {1'250'000, 50'000, 1'000'000, "1.25 ms"},
      {1'000'000, 50'000, 1'000'000, "1.00 ms"},
      {1'250'001, 1, 1'000'000, "1.250001 ms"},
      {0, 200, 1000, "0.0 µs"},
      {30, 10, 1, "30 ns"},
      {0, 1, 1, "0 ns"},
      {-2'000'000'000, 1'000'000'000, 1'000'000'000, "-2 s"},
      {5, 0, 0, "5 ns"},  // no step or unit: nanoseconds
      {kMax, 1, 1'000'000'000, "9223372036.854775807 s"},
      {kMin, 1'000'000'000, 1'000'000'000, "-9223372036 s"},
  };
  for (const auto& c : cases) EXPECT_EQ(formatTimeLabel(c.t, c.step, c.unit), c.want) << "t = " << c.t;
}

}  // namespace
}  // namespace gapscope::format
