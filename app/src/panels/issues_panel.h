// Import issues of the open trace: every anomaly the reader counted (name,
// severity, count, first byte offset, what it means). Problems and notes are
// rows of their own; the known producer quirks (docs/import-issues.md) sit
// in one collapsed group, counted and explained but out of the way. Picking
// an issue shows its first occurrence as written in the file; "Show on
// timeline" (or a double-click) selects the slice read from it and
// highlights every slice the issue marks.
#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;
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
  // The picked issue's first occurrence as written, and what leads from it.
  QPlainTextEdit* sourceView() const { return source_; }
  QLabel* sourceHeading() const { return heading_; }
  QPushButton* showButton() const { return show_; }
  // Selects the picked issue's slice and highlights all it marks.
  void showOnTimeline();

 private:
  void refresh();
  QWidget* buildSourceBox();
  QTreeWidgetItem* issueItem(const ImportIssue& issue, std::size_t index) const;
  void showSource(QTreeWidgetItem* item);
  void clearSource(const QString& heading);

  TraceSession* session_;
  QTreeWidget* tree_;
  QTreeWidgetItem* quirks_ = nullptr;
  QLabel* heading_;
  QPlainTextEdit* source_;
  QPushButton* show_;
  QString shownIssue_;
  std::uint32_t firstSlice_ = kNoIndex;
  std::vector<std::uint32_t> marked_;
};

}  // namespace gapscope::app
