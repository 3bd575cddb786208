// Cell text shared by the table models: durations in the largest fitting
// unit, percentages with two decimals. Sorting never uses these: every
// model answers kSortRole with the raw number.
#pragma once

#include <QString>

#include "gapscope/model/types.h"

namespace gapscope::app {

inline constexpr int kSortRole = Qt::UserRole + 1;

QString durationText(TimeNs ns);
QString percentText(double pct);
QString utf8(std::string_view s);

}  // namespace gapscope::app
