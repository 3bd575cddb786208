// The app's text of durations, and the cell values shared by the table
// models: under kSortRole the raw number, so "9.5 µs" sorts before
// "10.2 µs", else the text from gapscope/format.
#pragma once

#include <QString>
#include <QVariant>

#include <string_view>

#include "gapscope/model/types.h"

namespace gapscope::app {

inline constexpr int kSortRole = Qt::UserRole + 1;

// "12.3 µs": format::DurationStyle::Readable as a QString.
QString durationText(TimeNs ns);
QVariant durationCell(TimeNs ns, bool sort);
// `pct` in percent: "12.34 %".
QVariant percentCell(double pct, bool sort);
QString utf8(std::string_view s);

}  // namespace gapscope::app
