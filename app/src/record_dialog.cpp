#include "record_dialog.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include "gapscope/gpu/workloads.h"

namespace gapscope::app {

namespace {

const QString kPageKey = QStringLiteral("recordDialog/page");

QString firstWord(const QString& commandLine) {
  return commandLine.trimmed().section(QLatin1Char(' '), 0, 0);
}

}  // namespace

RecordDialog::RecordDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("recordDialog"));
  setWindowTitle(tr("Record"));
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("recordTabs"));
  tabs_->addTab(makeWorkloadPage(), tr("Bundled workload"));
  tabs_->addTab(makeProgramPage(), tr("Your program"));
  tabs_->setCurrentIndex(QSettings().value(kPageKey, 0).toInt() == 1 ? 1 : 0);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  connect(buttons, &QDialogButtonBox::accepted, this, &RecordDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(tabs_);
  layout->addWidget(buttons);
}

QWidget* RecordDialog::makeWorkloadPage() {
  auto* page = new QWidget(this);
  workload_ = new QComboBox(page);
  workload_->setObjectName(QStringLiteral("recordWorkload"));
  for (const auto& w : gpu::workloads()) workload_->addItem(QString::fromStdString(w.name));
  variant_ = new QComboBox(page);
  variant_->setObjectName(QStringLiteral("recordVariant"));
  size_ = new QSpinBox(page);
  size_->setObjectName(QStringLiteral("recordSize"));
  steps_ = new QSpinBox(page);
  steps_->setObjectName(QStringLiteral("recordSteps"));
  steps_->setRange(1, 1000);
  description_ = new QLabel(page);
  description_->setWordWrap(true);
  sizeMeaning_ = new QLabel(page);
  auto* form = new QFormLayout(page);
  form->addRow(tr("Workload:"), workload_);
  form->addRow(QString(), description_);
  form->addRow(tr("Variant:"), variant_);
  form->addRow(tr("Size:"), size_);
  form->addRow(QString(), sizeMeaning_);
  form->addRow(tr("Recorded steps:"), steps_);
  connect(workload_, &QComboBox::currentIndexChanged, this, &RecordDialog::onWorkloadChanged);
  onWorkloadChanged(workload_->currentIndex());
  return page;
}

QWidget* RecordDialog::makeProgramPage() {
  auto* page = new QWidget(this);
  command_ = new QComboBox(page);
  command_->setObjectName(QStringLiteral("programCommand"));
  command_->setEditable(true);
  command_->setInsertPolicy(QComboBox::NoInsert);
  command_->lineEdit()->setPlaceholderText(tr("python3 train.py --epochs 1"));
  command_->setToolTip(tr("The program and its arguments, quoted as in a shell; recent commands are in the list"));
  recent_ = recentPrograms();
  for (const ProgramChoice& c : recent_) command_->addItem(c.commandLine);
  command_->setCurrentIndex(-1);
  command_->setMinimumContentsLength(40);
  command_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  directory_ = new QLineEdit(page);
  directory_->setObjectName(QStringLiteral("programDirectory"));
  directory_->setPlaceholderText(tr("gapscope's own (%1)").arg(QDir::currentPath()));
  auto* browse = new QPushButton(tr("Browse…"), page);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Working Directory"), directory_->text());
    if (!dir.isEmpty()) directory_->setText(dir);
  });
  auto* directoryRow = new QHBoxLayout;
  directoryRow->addWidget(directory_, 1);
  directoryRow->addWidget(browse);
  environment_ = new QPlainTextEdit(page);
  environment_->setObjectName(QStringLiteral("programEnvironment"));
  environment_->setPlaceholderText(tr("NAME=VALUE, one per line (added to gapscope's environment)"));
  environment_->setTabChangesFocus(true);
  environment_->setFixedHeight(environment_->fontMetrics().lineSpacing() * 4 + 12);
  capture_ = new QComboBox(page);
  capture_->setObjectName(QStringLiteral("programCapture"));
  capture_->addItems({tr("The whole run"), tr("Between cudaProfilerStart and cudaProfilerStop"),
                      tr("Inside NVTX ranges named")});
  nvtxName_ = new QLineEdit(page);
  nvtxName_->setObjectName(QStringLiteral("programNvtxName"));
  nvtxName_->setPlaceholderText(tr("e.g. ProfilerStep#5"));
  auto* captureRow = new QHBoxLayout;
  captureRow->addWidget(capture_);
  captureRow->addWidget(nvtxName_, 1);
  torchOps_ = new QCheckBox(tr("PyTorch operators on the CPU threads (python programs)"), page);
  torchOps_->setObjectName(QStringLiteral("programTorchOps"));
  endProgram_ = new QCheckBox(tr("Stop also ends the program"), page);
  endProgram_->setObjectName(QStringLiteral("programEndOnStop"));
  endProgram_->setChecked(true);
  programError_ = new QLabel(page);
  programError_->setObjectName(QStringLiteral("programError"));
  programError_->setWordWrap(true);
  programError_->setStyleSheet(QStringLiteral("color: #d04040"));
  programError_->hide();
  auto* note = new QLabel(tr("The timeline follows the recording live; Stop ends it. The trace is saved "
                             "as it grows, so a crash of the program still leaves a trace."),
                          page);
  note->setWordWrap(true);
  auto* form = new QFormLayout(page);
  form->addRow(tr("Command:"), command_);
  form->addRow(tr("Working directory:"), directoryRow);
  form->addRow(tr("Environment:"), environment_);
  form->addRow(tr("Capture:"), captureRow);
  form->addRow(QString(), torchOps_);
  form->addRow(QString(), endProgram_);
  form->addRow(QString(), note);
  form->addRow(QString(), programError_);
  connect(command_, &QComboBox::activated, this, &RecordDialog::onRecentPicked);
  connect(command_, &QComboBox::editTextChanged, this, &RecordDialog::onCommandEdited);
  connect(directory_, &QLineEdit::textChanged, this, [this] { onCommandEdited(command_->currentText()); });
  connect(torchOps_, &QCheckBox::clicked, this, [this] { torchOpsTouched_ = true; });
  connect(capture_, &QComboBox::currentIndexChanged, this, &RecordDialog::updateCaptureName);
  updateCaptureName();
  return page;
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

void RecordDialog::onRecentPicked(int index) {
  if (index >= 0 && index < recent_.size()) setProgram(recent_[index]);
}

// PyTorch operators follow the program (found where it will start) until the user decides.
void RecordDialog::onCommandEdited(const QString& text) {
  // Looked up again (PATH, the file's first line) only when the program or its folder changed, not on
  // every keystroke of its arguments.
  const QString program = firstWord(text), directory = directory_->text().trimmed();
  if (!torchOpsTouched_ && (program != checkedProgram_ || directory != checkedDirectory_)) {
    checkedProgram_ = program;
    checkedDirectory_ = directory;
    torchOps_->setChecked(gpu::looksLikePython(program.toStdString(), directory.toStdString()));
  }
  programError_->hide();
}

void RecordDialog::updateCaptureName() {
  nvtxName_->setEnabled(capture_->currentIndex() == static_cast<int>(ProgramChoice::Capture::Nvtx));
}

void RecordDialog::setProgram(const ProgramChoice& c) {
  command_->setEditText(c.commandLine);
  directory_->setText(c.workingDirectory);
  environment_->setPlainText(c.environment.join(QLatin1Char('\n')));
  capture_->setCurrentIndex(static_cast<int>(c.capture));
  nvtxName_->setText(c.nvtxName);
  torchOps_->setChecked(c.torchOps);
  torchOpsTouched_ = true;  // as recorded last time
  endProgram_->setChecked(c.endProgramOnStop);
}

void RecordDialog::showProgramPage() { tabs_->setCurrentIndex(1); }

bool RecordDialog::programChosen() const { return tabs_->currentIndex() == 1; }

RecordChoice RecordDialog::choice() const {
  return {workload_->currentText(), variant_->currentText(), size_->value(), steps_->value()};
}

ProgramChoice RecordDialog::program() const {
  ProgramChoice c;
  c.commandLine = command_->currentText().trimmed();
  c.workingDirectory = directory_->text().trimmed();
  c.environment = environment_->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  for (QString& e : c.environment) e = e.trimmed();
  c.environment.removeAll(QString());
  c.capture = static_cast<ProgramChoice::Capture>(capture_->currentIndex());
  c.nvtxName = nvtxName_->text().trimmed();
  c.torchOps = torchOps_->isChecked();
  c.endProgramOnStop = endProgram_->isChecked();
  return c;
}

// A program that cannot be run as given keeps the dialog open, saying why.
void RecordDialog::accept() {
  QSettings().setValue(kPageKey, tabs_->currentIndex());
  if (programChosen()) {
    QString error;
    if (!toProgramOptions(program(), &programOptions_, &error)) {
      programError_->setText(error);
      programError_->show();
      return;
    }
    rememberProgram(program());
  }
  QDialog::accept();
}

}  // namespace gapscope::app

#endif  // GAPSCOPE_APP_HAVE_RECORDER
