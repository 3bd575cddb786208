#include "program_choice.h"

#include <QDir>
#include <QSettings>
#include <QVariantMap>

namespace gapscope::app {

namespace {

const QString kRecentProgramsKey = QStringLiteral("recentPrograms");

// Words as a POSIX shell splits them (no expansion): blanks separate,
// '...' is literal, "..." keeps blanks and takes \" \\ \$ \` as escapes, a
// backslash outside quotes escapes the next character. False for an
// unbalanced quote. (QProcess::splitCommand knows no single quotes.)
bool splitShellWords(const QString& text, QStringList* words) {
  QString word;
  bool inWord = false;
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (c.isSpace()) {
      if (inWord) words->append(word);
      word.clear();
      inWord = false;
    } else if (c == QLatin1Char('\\')) {
      if (++i < text.size()) word += text[i];
      inWord = true;
    } else if (c == QLatin1Char('\'')) {
      const qsizetype close = text.indexOf(QLatin1Char('\''), i + 1);
      if (close < 0) return false;
      word += text.mid(i + 1, close - i - 1);
      i = close;
      inWord = true;
    } else if (c == QLatin1Char('"')) {
      for (++i; i < text.size() && text[i] != QLatin1Char('"'); ++i) {
        if (text[i] == QLatin1Char('\\') && i + 1 < text.size() && QStringLiteral("\"\\$`").contains(text[i + 1])) ++i;
        word += text[i];
      }
      if (i >= text.size()) return false;
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words->append(word);
  return true;
}

QVariantMap toMap(const ProgramChoice& c) {
  return {{QStringLiteral("command"), c.commandLine},
          {QStringLiteral("directory"), c.workingDirectory},
          {QStringLiteral("environment"), c.environment},
          {QStringLiteral("capture"), static_cast<int>(c.capture)},
          {QStringLiteral("nvtx"), c.nvtxName},
          {QStringLiteral("torchOps"), c.torchOps},
          {QStringLiteral("endProgram"), c.endProgramOnStop}};
}

ProgramChoice fromMap(const QVariantMap& m) {
  ProgramChoice c;
  c.commandLine = m.value(QStringLiteral("command")).toString();
  c.workingDirectory = m.value(QStringLiteral("directory")).toString();
  c.environment = m.value(QStringLiteral("environment")).toStringList();
  const int capture = m.value(QStringLiteral("capture")).toInt();
  c.capture = capture >= 0 && capture <= 2 ? static_cast<ProgramChoice::Capture>(capture) : ProgramChoice::Capture::Whole;
  c.nvtxName = m.value(QStringLiteral("nvtx")).toString();
  c.torchOps = m.value(QStringLiteral("torchOps")).toBool();
  c.endProgramOnStop = m.value(QStringLiteral("endProgram"), true).toBool();
  return c;
}

}  // namespace

bool toProgramOptions(const ProgramChoice& choice, gpu::ProgramOptions* out, QString* error) {
  const QString line = choice.commandLine.trimmed();
  if (line.isEmpty()) {
    *error = QObject::tr("Give the command to record, e.g. python3 train.py --epochs 1");
    return false;
  }
  QStringList words;
  if (!splitShellWords(line, &words)) {
    *error = QObject::tr("The command has an unbalanced quote");
    return false;
  }
  gpu::ProgramOptions o;
  for (const QString& word : words) o.command.push_back(word.toStdString());
  if (o.command.empty()) {
    *error = QObject::tr("Give the command to record, e.g. python3 train.py --epochs 1");
    return false;
  }
  const QString dir = choice.workingDirectory.trimmed();
  if (!dir.isEmpty() && !QDir(dir).exists()) {
    *error = QObject::tr("The working directory %1 does not exist").arg(dir);
    return false;
  }
  o.workingDirectory = dir.toStdString();
  for (const QString& entry : choice.environment) {
    const QString e = entry.trimmed();
    if (e.isEmpty()) continue;
    if (e.indexOf(QLatin1Char('=')) <= 0) {
      *error = QObject::tr("Environment entries are NAME=VALUE; \"%1\" is not").arg(e);
      return false;
    }
    o.environment.push_back(e.toStdString());
  }
  switch (choice.capture) {
    case ProgramChoice::Capture::Whole: break;
    case ProgramChoice::Capture::CudaProfilerApi: o.captureRange = gpu::CaptureRange::CudaProfilerApi; break;
    case ProgramChoice::Capture::Nvtx:
      if (choice.nvtxName.trimmed().isEmpty()) {
        *error = QObject::tr("Name the NVTX range to capture");
        return false;
      }
      o.captureRange = gpu::CaptureRange::Nvtx;
      o.captureNvtxName = choice.nvtxName.trimmed().toStdString();
      break;
  }
  o.torchOps = choice.torchOps;
  o.killOnStop = choice.endProgramOnStop;
  *out = std::move(o);
  return true;
}

QList<ProgramChoice> recentPrograms() {
  QList<ProgramChoice> out;
  for (const QVariant& v : QSettings().value(kRecentProgramsKey).toList()) {
    ProgramChoice c = fromMap(v.toMap());
    if (!c.commandLine.isEmpty()) out.append(c);
  }
  return out;
}

void rememberProgram(const ProgramChoice& choice) {
  QList<ProgramChoice> recent = recentPrograms();
  recent.removeIf([&choice](const ProgramChoice& c) { return c.commandLine == choice.commandLine; });
  recent.prepend(choice);
  QVariantList stored;
  for (const ProgramChoice& c : recent.mid(0, kMaxRecentPrograms)) stored.append(toMap(c));
  QSettings().setValue(kRecentProgramsKey, stored);
}

}  // namespace gapscope::app
