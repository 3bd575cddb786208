// ts/dur text -> int64 nanoseconds, exactly (never through double).
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "decimal_time.h"

using gapscope::TimeNs;
using gapscope::io::parseInt64;
using gapscope::io::parseMicrosAsNanos;
using gapscope::io::parseUnsignedId;

namespace {

TimeNs ns(const char* text) {
  TimeNs v = -12345;
  EXPECT_TRUE(parseMicrosAsNanos(text, &v)) << text;
  return v;
}

bool rejects(const char* text) {
  TimeNs v;
  return !parseMicrosAsNanos(text, &v);
}

}  // namespace

TEST(DecimalTime, KinetoTimestampsAreExact) {
  // 16 significant digits: a double would turn this into ...709.5390625 or worse.
  EXPECT_EQ(ns("4472700411709.539"), 4472700411709539);
  EXPECT_EQ(ns("4472705146261.405"), 4472705146261405);
  EXPECT_EQ(ns("1665536373729077"), 1665536373729077000);
}

TEST(DecimalTime, IntegersAndShortFractions) {
  EXPECT_EQ(ns("0"), 0);
  EXPECT_EQ(ns("7"), 7000);
  EXPECT_EQ(ns("2.5"), 2500);
  EXPECT_EQ(ns("0.001"), 1);
  EXPECT_EQ(ns("-3.25"), -3250);
  EXPECT_EQ(ns("-0.0"), 0);
}

TEST(DecimalTime, RoundsHalfAwayFromZeroBeyondNanoseconds) {
  EXPECT_EQ(ns("1124609194129.6716"), 1124609194129672);  // catapult's fuchsia trace
  EXPECT_EQ(ns("0.0004"), 0);
  EXPECT_EQ(ns("0.0005"), 1);
  EXPECT_EQ(ns("0.00049999"), 0);
  EXPECT_EQ(ns("-0.0005"), -1);
  EXPECT_EQ(ns("-0.0004999"), 0);
  EXPECT_EQ(ns("1.9999999"), 2000);
}

TEST(DecimalTime, Exponents) {
  EXPECT_EQ(ns("1e3"), 1000000);
  EXPECT_EQ(ns("1.5E+3"), 1500000);
  EXPECT_EQ(ns("25e-1"), 2500);
  EXPECT_EQ(ns("6e-4"), 1);    // 0.6 ns rounds up
  EXPECT_EQ(ns("4e-4"), 0);
  EXPECT_EQ(ns("1e-30"), 0);
  EXPECT_EQ(ns("4.472700411709539e12"), 4472700411709539);
  EXPECT_EQ(ns("0e400"), 0);
}

TEST(DecimalTime, SurroundingWhitespaceIsIgnored) { EXPECT_EQ(ns(" 12.5\n "), 12500); }

TEST(DecimalTime, RejectsNonNumbersAndOverflow) {
  EXPECT_TRUE(rejects(""));
  EXPECT_TRUE(rejects("abc"));
  EXPECT_TRUE(rejects("1.2.3"));
  EXPECT_TRUE(rejects("1."));
  EXPECT_TRUE(rejects(".5"));
  EXPECT_TRUE(rejects("1e"));
  EXPECT_TRUE(rejects("--1"));
  EXPECT_TRUE(rejects("NaN"));
  EXPECT_TRUE(rejects("\"12\""));
  EXPECT_TRUE(rejects("9223372036854776"));  // us: 9.2e18 ns does not fit
  EXPECT_TRUE(rejects("1e20"));
  EXPECT_TRUE(rejects("1e999999999"));
  EXPECT_EQ(ns("9223372036854775.807"), std::numeric_limits<std::int64_t>::max());
}

TEST(DecimalTime, Int64) {
  std::int64_t v = 0;
  EXPECT_TRUE(parseInt64("1790857026000000000", &v));
  EXPECT_EQ(v, 1790857026000000000);
  EXPECT_TRUE(parseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, std::numeric_limits<std::int64_t>::min());
  EXPECT_FALSE(parseInt64("9223372036854775808", &v));
  EXPECT_FALSE(parseInt64("1.5", &v));
  EXPECT_FALSE(parseInt64("1e3", &v));
  EXPECT_FALSE(parseInt64("", &v));
}

TEST(DecimalTime, Ids) {
  std::uint64_t v = 0;
  EXPECT_TRUE(parseUnsignedId("2246", &v));
  EXPECT_EQ(v, 2246u);
  EXPECT_TRUE(parseUnsignedId("0x1F", &v));
  EXPECT_EQ(v, 31u);
  EXPECT_TRUE(parseUnsignedId("-1", &v));
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_TRUE(parseUnsignedId("18446744073709551615", &v));
  EXPECT_FALSE(parseUnsignedId("18446744073709551616", &v));
  EXPECT_FALSE(parseUnsignedId("stream", &v));
  EXPECT_FALSE(parseUnsignedId("0x", &v));
}

// Every length of integer part (1 to 15 digits, where a timestamp's first
// eight are read as one word) with 0 to 3 decimals, against the value
// built from the same digits by integer arithmetic.
TEST(DecimalTime, EveryDigitCountIsExact) {
  std::mt19937_64 rng(7);
  for (int intDigits = 1; intDigits <= 15; ++intDigits) {
    for (int decimals = 0; decimals <= 3; ++decimals) {
      for (int trial = 0; trial < 200; ++trial) {
        std::string text;
        std::int64_t micros = 0;
        for (int i = 0; i < intDigits; ++i) {
          const int d = static_cast<int>(rng() % 10);
          text += static_cast<char>('0' + d);
          micros = micros * 10 + d;
        }
        std::int64_t fraction = 0;
        if (decimals > 0) text += '.';
        for (int i = 0; i < decimals; ++i) {
          const int d = static_cast<int>(rng() % 10);
          text += static_cast<char>('0' + d);
          fraction = fraction * 10 + d;
        }
        for (int i = decimals; i < 3; ++i) fraction *= 10;
        const bool negative = trial % 2 == 1;
        const TimeNs expected = (micros * 1000 + fraction) * (negative ? -1 : 1);
        if (negative) text = "-" + text;
        EXPECT_EQ(ns(text.c_str()), expected) << text;
      }
    }
  }
}

// A digit run cut by a non-digit inside the first eight bytes is not read as one word.
TEST(DecimalTime, AWordWithANonDigitIsNotReadAsDigits) {
  EXPECT_EQ(ns("1234567.5"), 1234567500);
  EXPECT_EQ(ns("1234.5678"), 1234568);  // rounded at the nanosecond
  EXPECT_TRUE(rejects("12345678x"));
  EXPECT_TRUE(rejects("1234567/"));
  EXPECT_TRUE(rejects("12345:78"));
  EXPECT_EQ(ns("00000000012.5"), 12500);
}
