#include "models/table_format.h"

#include "gapscope/timeline/time_format.h"

namespace gapscope::app {

QString durationText(TimeNs ns) { return QString::fromStdString(timeline::formatDuration(ns)); }

QString percentText(double pct) { return QStringLiteral("%1 %").arg(pct, 0, 'f', 2); }

QString utf8(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace gapscope::app
