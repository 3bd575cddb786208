// The details of what is selected: for a slice its name, times, self time,
// thread, launch partner, kernel configuration and every arg (fetched from
// the source and shown as a tree); for a gap its cause, explanation, the GPU
// ops around it and the CPU work blamed for it. Items that name another
// slice select it when activated.
#pragma once

#include <QWidget>

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

class QTreeWidget;
class QTreeWidgetItem;

namespace gapscope::app {

class TraceSession;
class WrappedTitle;

class DetailsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DetailsPanel(TraceSession* session, QWidget* parent = nullptr);

  QTreeWidget* tree() const { return tree_; }
  // Above the tree: the slice's whole name (or the gap's length and cause,
  // and why it happened under it), wrapped, so a narrow pane still shows a
  // kernel name's end and the gap's explanation.
  WrappedTitle* title() const { return title_; }
  WrappedTitle* subtitle() const { return subtitle_; }
  // The args of the shown slice as indented JSON ("" when none).
  QString argsJson() const { return argsJson_; }
  // The value shown for a top-level field (e.g. "Name", "Duration"), "" when absent.
  QString field(const QString& name) const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void refresh();
  // Field as wide as its longest key, but never more than a share of the pane.
  void fitFieldColumn();
  void showSlice(std::uint32_t slice);
  void showGap(std::uint32_t gap);
  QTreeWidgetItem* add(const QString& key, const QString& value, QTreeWidgetItem* parent = nullptr);
  QTreeWidgetItem* addSliceLink(const QString& key, std::uint32_t slice, QTreeWidgetItem* parent = nullptr);
  void addJson(QTreeWidgetItem* parent, const QString& key, const nlohmann::ordered_json& value);
  void onActivated(QTreeWidgetItem* item);

  TraceSession* session_;
  WrappedTitle* title_;
  WrappedTitle* subtitle_;
  QTreeWidget* tree_;
  QString argsJson_;
};

}  // namespace gapscope::app
