// Import issues of the open trace: every anomaly the reader counted (name,
// severity, count, first byte offset, what it means). Nothing is dropped
// silently, so the user sees here what was odd about the file.
#pragma once

#include <QWidget>

class QTableWidget;

namespace gapscope::app {

class TraceSession;

class IssuesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit IssuesPanel(TraceSession* session, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }

 private:
  void refresh();

  TraceSession* session_;
  QTableWidget* table_;
};

}  // namespace gapscope::app
