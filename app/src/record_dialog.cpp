#include "record_dialog.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gapscope/gpu/workloads.h"

namespace gapscope::app {

RecordDialog::RecordDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("recordDialog"));
  setWindowTitle(tr("Record a GPU Workload"));
  workload_ = new QComboBox(this);
  workload_->setObjectName(QStringLiteral("recordWorkload"));
  for (const auto& w : gpu::workloads()) workload_->addItem(QString::fromStdString(w.name));
  variant_ = new QComboBox(this);
  variant_->setObjectName(QStringLiteral("recordVariant"));
  size_ = new QSpinBox(this);
  size_->setObjectName(QStringLiteral("recordSize"));
  steps_ = new QSpinBox(this);
  steps_->setObjectName(QStringLiteral("recordSteps"));
  steps_->setRange(1, 1000);
  description_ = new QLabel(this);
  description_->setWordWrap(true);
  sizeMeaning_ = new QLabel(this);
  auto* form = new QFormLayout;
  form->addRow(tr("Workload:"), workload_);
  form->addRow(QString(), description_);
  form->addRow(tr("Variant:"), variant_);
  form->addRow(tr("Size:"), size_);
  form->addRow(QString(), sizeMeaning_);
  form->addRow(tr("Recorded steps:"), steps_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  connect(workload_, &QComboBox::currentIndexChanged, this, &RecordDialog::onWorkloadChanged);
  onWorkloadChanged(workload_->currentIndex());
}

void RecordDialog::onWorkloadChanged(int index) {
  const auto& all = gpu::workloads();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) return;
  const auto& w = all[static_cast<std::size_t>(index)];
  description_->setText(QString::fromStdString(w.description));
  variant_->clear();
  for (const auto& v : w.variants) variant_->addItem(QString::fromStdString(v));
  size_->setRange(w.minSize, w.maxSize);
  size_->setValue(w.defaultSize);
  sizeMeaning_->setText(QString::fromStdString(w.sizeMeaning));
  steps_->setValue(w.defaultSteps);
}

RecordChoice RecordDialog::choice() const {
  return {workload_->currentText(), variant_->currentText(), size_->value(), steps_->value()};
}

}  // namespace gapscope::app

#endif  // GAPSCOPE_APP_HAVE_RECORDER
