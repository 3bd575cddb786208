#include "ranks/load_progress.h"

#include <QObject>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace gapscope::app {

LoadProgress addLoadProgress(QStatusBar* status, const QString& name) {
  LoadProgress p;
  p.bar = new QProgressBar(status);
  p.bar->setObjectName(name + QStringLiteral("Progress"));
  p.bar->setMaximumWidth(260);
  p.bar->hide();
  p.cancel = new QPushButton(QObject::tr("Cancel"), status);
  p.cancel->setObjectName(name + QStringLiteral("Cancel"));
  p.cancel->hide();
  status->addPermanentWidget(p.bar);
  status->addPermanentWidget(p.cancel);
  return p;
}

}  // namespace gapscope::app
