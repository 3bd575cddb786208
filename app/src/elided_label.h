// A one-line label that, when narrower than its text, ends the text with
// "…" rather than cutting a character in half, and shows the whole text
// as its tooltip (the status bar's trace and range summaries at 1024 px).
#pragma once

#include <QLabel>

namespace gapscope::app {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  using QLabel::QLabel;
  QSize minimumSizeHint() const override;
  // The text as drawn at the label's present width.
  QString shownText() const;

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace gapscope::app
