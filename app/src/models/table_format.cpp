#include "models/table_format.h"

#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"

namespace gapscope::app {

QString durationText(TimeNs ns) { return utf8(format::formatDuration(ns)); }

QVariant durationCell(TimeNs ns, bool sort) {
  return sort ? QVariant(static_cast<qlonglong>(ns)) : QVariant(durationText(ns));
}

QVariant percentCell(double pct, bool sort) {
  return sort ? QVariant(pct) : QVariant(utf8(format::formatPercent(pct, format::PercentStyle::AppTable)));
}

QString utf8(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace gapscope::app
