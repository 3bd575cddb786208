// MainWindow: File > Export Report. The report is built on a worker thread
// from the open trace's analysis result (the one the views show) and written
// atomically by core's report writer.
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "main_window.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

struct ReportChoice {
  QString filter;
  report::ReportFormat format;
  QString suffix;  // empty: a folder
};

const QList<ReportChoice>& reportChoices() {
  static const QList<ReportChoice> choices{
      {QObject::tr("HTML report (*.html)"), report::ReportFormat::Html, QStringLiteral("html")},
      {QObject::tr("Markdown for GitHub (*.md)"), report::ReportFormat::Markdown, QStringLiteral("md")},
      {QObject::tr("JSON (*.json)"), report::ReportFormat::Json, QStringLiteral("json")},
      {QObject::tr("CSV tables, one file each, in a folder (*)"), report::ReportFormat::Csv, QString()},
  };
  return choices;
}

// The report's default name: the trace's file name without its extensions.
QString defaultReportBase(const QString& tracePath) {
  QString base = QFileInfo(tracePath).fileName();
  for (const char* ext : {".gz", ".json", ".pt.trace", ".trace"}) {
    if (base.endsWith(QLatin1String(ext))) base.chop(static_cast<int>(qstrlen(ext)));
  }
  return (base.isEmpty() ? QStringLiteral("gapscope") : base) + QStringLiteral("-report");
}

}  // namespace

void MainWindow::chooseReportPath() {
  if (!session_->hasTrace()) return;
  QStringList filters;
  for (const auto& c : reportChoices()) filters << c.filter;
  const QFileInfo trace(session_->loaded().path);
  const QString dir = trace.exists() ? trace.absolutePath() : QString();
  QString selected = filters.first();
  QString path = QFileDialog::getSaveFileName(this, tr("Export Report"),
                                              dir + QLatin1Char('/') + defaultReportBase(trace.filePath()) +
                                                  QStringLiteral(".html"),
                                              filters.join(QStringLiteral(";;")), &selected);
  if (path.isEmpty()) return;
  const ReportChoice& choice = reportChoices()[std::max<qsizetype>(0, filters.indexOf(selected))];
  if (!choice.suffix.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + choice.suffix;
  exportReport(path, choice.format);
}

bool MainWindow::exportReport(const QString& path, report::ReportFormat format) {
  if (!session_->hasTrace()) return false;
  // Holding the analysis keeps it (and its trace) alive even if another
  // trace is opened meanwhile. Its results are the ones on screen: the report
  // reads them, it computes nothing again.
  std::shared_ptr<const analysis::TraceAnalysis> analysis = session_->loaded().analysis;
  statusBar()->showMessage(tr("Writing report %1…").arg(path));
  auto* watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
    const QString error = watcher->result();
    watcher->deleteLater();
    if (error.isEmpty()) {
      statusBar()->showMessage(tr("Report written to %1").arg(path), 8000);
    } else {
      statusBar()->clearMessage();
      if (isVisible()) QMessageBox::warning(this, tr("Export Report"), tr("The report was not written: %1").arg(error));
    }
    emit reportExported(path, error);
  });
  watcher->setFuture(QtConcurrent::run([analysis, path, format] {
    const report::Report r = report::buildReport(*analysis);
    return QString::fromStdString(report::writeReport(r, format, path.toStdString()));
  }));
  return true;
}

}  // namespace gapscope::app
