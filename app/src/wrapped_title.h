// A title that wraps where it must: at a word boundary where there is one,
// else anywhere (a C++ kernel name is one long word of "::" and "<>"),
// over at most a few lines, the last ending in "…" when the text goes on.
// The whole text is its tooltip. The Details pane's slice name: at 1024 px
// the pane is 250 px wide and the name's distinctive end was cut away.
#pragma once

#include <QStringList>
#include <QWidget>

namespace gapscope::app {

class WrappedTitle : public QWidget {
  Q_OBJECT

 public:
  explicit WrappedTitle(int maxLines, QWidget* parent = nullptr);

  void setText(const QString& text);
  QString text() const { return text_; }
  // The lines as drawn at `width` (the last one elided when cut short).
  QStringList linesAt(int width) const;

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int maxLines_;
  QString text_;
};

}  // namespace gapscope::app
