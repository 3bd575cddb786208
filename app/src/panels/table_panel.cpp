#include "panels/table_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "models/table_format.h"

namespace gapscope::app {

TablePanel::TablePanel(QAbstractItemModel* model, const QString& name, int filterColumn, QWidget* parent)
    : QWidget(parent), proxy_(new QSortFilterProxyModel(this)), view_(new QTableView(this)),
      filter_(new QLineEdit(this)), toolbar_(new QHBoxLayout), count_(new QLabel(this)) {
  setObjectName(name + QStringLiteral("Panel"));
  proxy_->setSourceModel(model);
  proxy_->setSortRole(kSortRole);
  proxy_->setFilterKeyColumn(filterColumn);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  filter_->setObjectName(name + QStringLiteral("Filter"));
  filter_->setPlaceholderText(tr("Filter by name…"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

  view_->setObjectName(name);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  view_->setTextElideMode(Qt::ElideMiddle);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  view_->horizontalHeader()->setSectionsMovable(true);
  view_->horizontalHeader()->setHighlightSections(false);
  view_->sortByColumn(-1, Qt::DescendingOrder);  // the analysis' own order until the user picks a column

  toolbar_->setContentsMargins(0, 0, 0, 0);
  toolbar_->addWidget(filter_, 1);
  toolbar_->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);
  layout->addLayout(toolbar_);
  layout->addWidget(view_, 1);

  connect(view_, &QTableView::activated, this,
          [this](const QModelIndex& index) { emit rowActivated(sourceRow(index.row())); });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) emit currentRowChanged(sourceRow(current.row()));
          });
  connect(proxy_, &QAbstractItemModel::modelReset, this, &TablePanel::updateCount);
  connect(proxy_, &QAbstractItemModel::rowsInserted, this, &TablePanel::updateCount);
  connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &TablePanel::updateCount);
  connect(proxy_, &QAbstractItemModel::layoutChanged, this, &TablePanel::updateCount);
  updateCount();
}

int TablePanel::sourceRow(int proxyRow) const {
  return proxy_->mapToSource(proxy_->index(proxyRow, 0)).row();
}

namespace {

void makeCurrent(QTableView* view, const QModelIndex& index, QItemSelectionModel::SelectionFlags how,
                 QAbstractItemView::ScrollHint scroll) {
  if (!index.isValid()) return;
  const QSignalBlocker block(view->selectionModel());
  view->selectionModel()->setCurrentIndex(index, how);
  view->scrollTo(index, scroll);
}

}  // namespace

void TablePanel::selectSourceRow(int row) {
  makeCurrent(view_, proxy_->mapFromSource(proxy_->sourceModel()->index(row, 0)),
              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows, QAbstractItemView::EnsureVisible);
}

void TablePanel::showSourceRow(int row) {
  makeCurrent(view_, proxy_->mapFromSource(proxy_->sourceModel()->index(row, 0)), QItemSelectionModel::NoUpdate,
              QAbstractItemView::PositionAtCenter);
}

void TablePanel::updateCount() {
  const int shown = proxy_->rowCount();
  const int all = proxy_->sourceModel() ? proxy_->sourceModel()->rowCount() : 0;
  count_->setText(shown == all ? tr("%n row(s)", "", all) : tr("%1 of %2 rows").arg(shown).arg(all));
}

}  // namespace gapscope::app
