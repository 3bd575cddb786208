// Import issues of the open trace: every anomaly the reader counted (name,
// severity, count, first byte offset, what it means). Problems and notes are
// rows of their own; the known producer quirks (docs/import-issues.md) sit
// in one collapsed group, counted and explained but out of the way.
#pragma once

#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace gapscope {
struct ImportIssue;
}

namespace gapscope::app {

class TraceSession;

class IssuesPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { Severity, Issue, Count, FirstByte, Meaning, ColumnCount };

  explicit IssuesPanel(TraceSession* session, QWidget* parent = nullptr);
  QTreeWidget* tree() const { return tree_; }
  // The "Known producer quirks" group, or nullptr when the trace has none.
  QTreeWidgetItem* quirksGroup() const { return quirks_; }

 private:
  void refresh();
  QTreeWidgetItem* issueItem(const ImportIssue& issue) const;

  TraceSession* session_;
  QTreeWidget* tree_;
  QTreeWidgetItem* quirks_ = nullptr;
};

}  // namespace gapscope::app
