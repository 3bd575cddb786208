// A one-line label that elides its text to its width (QLabel does not) and
// shows the whole text as its tooltip.
#pragma once

#include <QFrame>

namespace gapscope::app {

class ElidedLabel : public QFrame {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  void setText(const QString& text);
  QString text() const { return text_; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString text_;
};

}  // namespace gapscope::app
