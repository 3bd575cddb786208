#include "recording_store.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "gapscope/writer/chrome_writer.h"

namespace gapscope::app {

QString recordingsFolder() {
  const QString folder =
      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recordings");
  QDir().mkpath(folder);
  return folder;
}

QString newRecordingPath(const QString& folder, const QString& workload, const QString& variant) {
  const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
  const QString base = QStringLiteral("%1/%2-%3-%4").arg(folder, workload, variant.isEmpty() ? QStringLiteral("default") : variant, stamp);
  QString path = base + QStringLiteral(".json.gz");
  for (int n = 2; QFileInfo::exists(path); ++n) path = QStringLiteral("%1-%2.json.gz").arg(base).arg(n);
  return path;
}

QString saveRecording(const Trace& trace, const QString& path) {
  if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
    return QStringLiteral("cannot create the folder %1").arg(QFileInfo(path).absolutePath());
  }
  const writer::WriteResult r = writer::writeChromeTrace(trace, path.toStdString());
  return QString::fromStdString(r.error);
}

}  // namespace gapscope::app
