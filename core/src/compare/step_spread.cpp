// The Mann-Whitney U test of two runs' step times (step_spread.h): U from
// the pooled steps' ranks, its p-value from U's exact distribution for a
// few steps without ties, else from the normal approximation.
#include "gapscope/compare/step_spread.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "gapscope/format/number.h"

namespace gapscope::compare {
namespace {

// No ties, the run with fewer steps at most this many (scipy's rule) and
// the other at most kExactLargerAtMost: the exact distribution.
constexpr std::size_t kExactSmallerAtMost = 8;
constexpr std::size_t kExactLargerAtMost = 1000;

struct Ranked {
  double rankSumA = 0;  // of A's steps, ranks 1..N, a tie group sharing its mean rank
  double tieTerm = 0;   // sum over tie groups of t^3 - t
};

Ranked rankPooled(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b) {
  std::vector<std::pair<TimeNs, bool>> pooled;  // (time, from A)
  pooled.reserve(a.size() + b.size());
  for (TimeNs t : a) pooled.emplace_back(t, true);
  for (TimeNs t : b) pooled.emplace_back(t, false);
  std::sort(pooled.begin(), pooled.end());
  Ranked r;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    std::size_t fromA = 0;
    for (; j < pooled.size() && pooled[j].first == pooled[i].first; ++j) fromA += pooled[j].second ? 1 : 0;
    const double t = static_cast<double>(j - i);
    const double meanRank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    r.rankSumA += meanRank * static_cast<double>(fromA);
    r.tieTerm += t * t * t - t;
    i = j;
  }
  return r;
}

double choose(std::size_t n, std::size_t k) {
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  return c;
}

// How many of the C(m+n, m) orderings of m and n steps give each U, 0..mn:
// the last step of the pooled order is A's (it beats all n of B's) or B's.
// Only additions, so the counts stay exact as far as a double holds them.
std::vector<double> exactCounts(std::size_t m, std::size_t n) {
  // ofA[i]: the distribution for i steps of A and the j of B so far.
  std::vector<std::vector<double>> ofA(m + 1, std::vector<double>{1.0});
  for (std::size_t j = 1; j <= n; ++j) {
    for (std::size_t i = 1; i <= m; ++i) {
      std::vector<double>& c = ofA[i];  // (i, j - 1), made (i, j) here
      c.resize(i * j + 1, 0.0);
      const std::vector<double>& lastA = ofA[i - 1];  // (i - 1, j), already made
      for (std::size_t u = 0; u < lastA.size(); ++u) c[u + j] += lastA[u];
    }
  }
  return ofA[m];
}

double exactPValue(std::size_t m, std::size_t n, double u) {
  const std::vector<double> counts = exactCounts(m, n);
  const auto at = static_cast<std::size_t>(std::llround(u));
  double atMost = 0;
  double atLeast = 0;
  double total = 0;  // C(m + n, m)
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (k <= at) atMost += counts[k];
    if (k >= at) atLeast += counts[k];
    total += counts[k];
  }
  return std::min(1.0, 2.0 * std::min(atMost, atLeast) / total);
}

double normalPValue(double m, double n, double u, double tieTerm) {
  const double all = m + n;
  const double variance = m * n / 12.0 * ((all + 1.0) - tieTerm / (all * (all - 1.0)));
  if (!(variance > 0)) return 1.0;  // every step the same time
  const double z = std::max(0.0, std::abs(u - m * n / 2.0) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

// The smallest p-value m and n steps can give (every step of one side
// longer than every step of the other, no ties).
double smallestPValue(std::size_t m, std::size_t n, SpreadMethod method) {
  if (method == SpreadMethod::Exact) return std::min(1.0, 2.0 / choose(m + n, m));
  const auto dm = static_cast<double>(m);
  const auto dn = static_cast<double>(n);
  return normalPValue(dm, dn, dm * dn, 0.0);
}

// Two significant digits, never rounded up to the threshold: "p = 0.0031",
// "p = 0.023", "p = 0.0499", "p = 0.21".
std::string pEquals(double p) {
  if (p < 0.001) return "p < 0.001";
  int decimals = p < 0.01 ? 4 : p < 0.1 ? 3 : 2;
  const auto rounded = [&](int d) { return std::round(p * std::pow(10.0, d)) / std::pow(10.0, d); };
  while (p < kSpreadSignificance && rounded(decimals) >= kSpreadSignificance) ++decimals;
  return "p = " + format::formatFixed(p, decimals);
}

}  // namespace

StepSpreadTest stepSpreadTest(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b) {
  StepSpreadTest t;
  t.stepsA = a.size();
  t.stepsB = b.size();
  if (a.empty() || b.empty()) return t;
  const Ranked r = rankPooled(a, b);
  const auto m = static_cast<double>(a.size());
  const auto n = static_cast<double>(b.size());
  t.u = r.rankSumA - m * (m + 1.0) / 2.0;
  const bool exact = r.tieTerm == 0 && std::min(a.size(), b.size()) <= kExactSmallerAtMost &&
                     std::max(a.size(), b.size()) <= kExactLargerAtMost;
  t.method = exact ? SpreadMethod::Exact : SpreadMethod::Normal;
  t.pValue = exact ? exactPValue(a.size(), b.size(), t.u) : normalPValue(m, n, t.u, r.tieTerm);
  t.canTell = t.beyondSpread() || smallestPValue(a.size(), b.size(), t.method) < kSpreadSignificance;
  return t;
}

StepSpreadTest runToRunTest(const std::vector<TimeNs>& mediansA, const std::vector<TimeNs>& mediansB) {
  StepSpreadTest t = stepSpreadTest(mediansA, mediansB);
  t.unit = SpreadUnit::Recordings;
  return t;
}

std::string spreadClause(const StepSpreadTest& t, bool advice) {
  const bool recordings = t.unit == SpreadUnit::Recordings;
  const std::string counts = std::to_string(t.stepsA) + " and " + std::to_string(t.stepsB);
  const std::string what = recordings ? "recordings" : "steps";
  if (!t.canTell) {
    return "too few " + what + " (" + counts + ") to tell from their spread" +
           (recordings && advice ? ": record at least " + std::to_string(kRecordingsToTell) + " of each" : "");
  }
  const std::string spread = recordings ? "the run-to-run spread" : "the steps' spread";
  const std::string test = " (" + pEquals(t.pValue) + " over " + counts + " " + what + ")";
  if (t.beyondSpread()) return "beyond " + spread + test;
  if (!advice) return "within " + spread + test;
  return "within " + spread + test + (recordings ? ": record more runs of each to tell" : ": record each run again to tell");
}

std::string spreadSentence(const StepSpreadTest& t) {
  std::string s = spreadClause(t);
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

const char* spreadMethodName(SpreadMethod m) {
  switch (m) {
    case SpreadMethod::Exact: return "exact";
    case SpreadMethod::Normal: return "normal";
    case SpreadMethod::None: break;
  }
  return "none";
}

}  // namespace gapscope::compare
