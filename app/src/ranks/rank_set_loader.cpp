#include "ranks/rank_set_loader.h"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "gapscope/ranks/ranks_document.h"

namespace gapscope::app {

namespace {

// A rank's trace as a document names it: absolute, or relative to where
// `ranks` ran, which may be here or the document's own folder (a set's
// document saved beside it); as written when neither holds the file.
std::string traceOfDocument(const std::string& file, const QDir& documentFolder) {
  const QString named = QString::fromStdString(file);
  if (QFileInfo(named).isAbsolute() || QFileInfo::exists(named)) return file;
  const QString besideDocument = documentFolder.filePath(named);
  return QFileInfo::exists(besideDocument) ? besideDocument.toStdString() : file;
}

// A saved `ranks --format json` document (the CLI's or the Dask path's):
// the analysis as it was written, each rank's row naming its trace where
// the run was recorded; no tables, so no heat map cells.
RanksOutcome readDocument(const QString& path, std::atomic<std::size_t>& done, std::atomic<std::size_t>& total) {
  RanksOutcome out;
  total.store(1);
  try {
    ranks::RanksDocument doc = ranks::readRanksDocument(path.toStdString());
    const QDir folder = QFileInfo(path).absoluteDir();
    for (ranks::RankRow& row : doc.analysis.ranks) row.file = traceOfDocument(row.file, folder);
    LoadedRanks loaded;
    loaded.analysis = std::move(doc.analysis);
    loaded.errors = std::move(doc.errors);
    loaded.warnings = std::move(doc.warnings);
    out.ranks = std::make_shared<const LoadedRanks>(std::move(loaded));
  } catch (const std::exception& e) {
    out.error = QString::fromStdString(e.what());
  }
  done.store(1);
  return out;
}

bool isRanksDocument(const QStringList& arguments) {
  return arguments.size() == 1 && QFileInfo(arguments.first()).isFile() &&
         ranks::looksLikeRanksDocument(arguments.first().toStdString());
}

}  // namespace

RanksOutcome loadRanks(const QStringList& arguments, RunSource source, const std::atomic<bool>& cancel,
                       std::atomic<std::size_t>& done, std::atomic<std::size_t>& total) {
  if (source == RunSource::TracesOrDocument && isRanksDocument(arguments))
    return readDocument(arguments.first(), done, total);
  RanksOutcome out;
  std::vector<std::string> files;
  try {
    std::vector<std::string> names;
    for (const QString& a : arguments) names.push_back(a.toStdString());
    files = ranks::rankFiles(names);
  } catch (const std::exception& e) {
    out.error = QString::fromStdString(e.what());
    return out;
  }
  if (files.empty()) {
    out.error = QObject::tr("no trace files (*.json, *.json.gz) in %1").arg(arguments.join(QStringLiteral(", ")));
    return out;
  }
  total.store(files.size());
  ranks::RankSetOptions options;
  options.cancel = &cancel;
  options.progress = [&done](std::size_t k, std::size_t) { done.store(k, std::memory_order_relaxed); };
  ranks::RankSet set = ranks::loadRankSet(files, options);
  if (set.cancelled || cancel.load()) {
    out.cancelled = true;
    return out;
  }
  if (set.tables.empty()) {
    out.error = QObject::tr("none of the %1 rank files could be read").arg(files.size());
    if (!set.errors.empty()) out.error += QStringLiteral(": ") + QString::fromStdString(set.errors.front().message);
    return out;
  }
  out.ranks = std::make_shared<const LoadedRanks>(analyseRanks(std::move(set)));
  return out;
}

RankSetLoader::RankSetLoader(QObject* parent) : QObject(parent) {
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &RankSetLoader::pollProgress);
  connect(&watcher_, &QFutureWatcher<RanksOutcome>::finished, this, &RankSetLoader::onWorkerDone);
}

RankSetLoader::~RankSetLoader() {
  cancel();
  watcher_.waitForFinished();
}

bool RankSetLoader::load(const QStringList& arguments, RunSource source) {
  if (busy()) return false;
  cancel_.store(false);
  done_.store(0);
  total_.store(0);
  watcher_.setFuture(
      QtConcurrent::run([this, arguments, source] { return loadRanks(arguments, source, cancel_, done_, total_); }));
  poll_.start();
  emit started();
  emit progress(0, 0);
  return true;
}

void RankSetLoader::cancel() { cancel_.store(true); }

void RankSetLoader::pollProgress() {
  emit progress(done_.load(std::memory_order_relaxed), total_.load(std::memory_order_relaxed));
}

void RankSetLoader::onWorkerDone() {
  poll_.stop();
  RanksOutcome outcome = watcher_.result();
  // A Cancel that came after the worker ended but before its result reached
  // this thread still wins, as in TraceLoader.
  if (cancel_.load()) outcome = RanksOutcome{nullptr, QString(), true};
  emit finished(outcome);
}

}  // namespace gapscope::app
