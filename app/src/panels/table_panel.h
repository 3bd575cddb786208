// A table with a filter box: any of the models in models/, sorted by their
// raw numbers (kSortRole), filtered by name. Double-click (or Enter) on a row
// says which source row was activated.
#pragma once

#include <QWidget>

class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope::app {

class TablePanel : public QWidget {
  Q_OBJECT

 public:
  // `name` prefixes the children's object names: NAME (the view), NAMEFilter.
  TablePanel(QAbstractItemModel* model, const QString& name, int filterColumn, QWidget* parent = nullptr);

  QTableView* view() const { return view_; }
  QLineEdit* filter() const { return filter_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QHBoxLayout* toolbar() const { return toolbar_; }
  int sourceRow(int proxyRow) const;
  // Selects and shows the row of source row `row` (when not filtered out).
  void selectSourceRow(int row);
  // Shows it in the middle of the view and makes it the current row, the
  // selection left as it is.
  void showSourceRow(int row);

 signals:
  void rowActivated(int sourceRow);
  void currentRowChanged(int sourceRow);

 private:
  void updateCount();

  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_;
  QHBoxLayout* toolbar_;
  QLabel* count_;
};

}  // namespace gapscope::app
