#include "about.h"

#include <QCoreApplication>
#include <QtGlobal>
#include <qcustomplot.h>
#include <zlib.h>

#include "gapscope/build_info.h"
#include "gapscope/version.h"

namespace gapscope::app {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("About", text); }

QString recorderLine() {
#ifdef GAPSCOPE_APP_HAVE_RECORDER
  return tr("built (CUPTI, loaded at run time from the CUDA module)");
#else
  return tr("not built (no CUDA toolkit at build time)");
#endif
}

QString row(const QString& what, const QString& value) {
  // Rich text tables have no column gap of their own: the first cell pads its right.
  return QStringLiteral("<tr><td style=\"padding-right:12px\">%1</td><td>%2</td></tr>")
      .arg(what.toHtmlEscaped(), value.toHtmlEscaped());
}

QString libraries() {
  QString rows;
  rows += row(QStringLiteral("Qt %1 (run time %2)").arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion())),
              QStringLiteral("LGPL-3.0"));
  rows += row(QStringLiteral("QCustomPlot %1").arg(QStringLiteral(QCUSTOMPLOT_VERSION_STR)), QStringLiteral("GPL-3.0"));
  rows += row(QStringLiteral("simdjson %1").arg(QStringLiteral(GAPSCOPE_SIMDJSON_VERSION)), QStringLiteral("Apache-2.0"));
  rows += row(QStringLiteral("nlohmann/json %1").arg(QStringLiteral(GAPSCOPE_NLOHMANN_JSON_VERSION)), QStringLiteral("MIT"));
  rows += row(QStringLiteral("zlib %1").arg(QStringLiteral(ZLIB_VERSION)), QStringLiteral("Zlib"));
  return rows;
}

}  // namespace

QString aboutText() {
  QString html = QStringLiteral("<h3>gapscope %1</h3>").arg(QStringLiteral(GAPSCOPE_VERSION));
  html += tr("<p>A GPU profiler trace viewer: where the GPU waited and why. Opens Chrome trace JSON from "
             "torch.profiler / Kineto and traces recorded by gapscope.</p>");
  html += QStringLiteral("<table>");
  html += row(tr("Commit"), QStringLiteral(GAPSCOPE_COMMIT));
  html += row(tr("Build"), QStringLiteral("%1, %2").arg(QStringLiteral(GAPSCOPE_BUILD_TYPE), QStringLiteral(GAPSCOPE_COMPILER)));
  html += row(tr("GPU recorder"), recorderLine());
  html += QStringLiteral("</table><p><b>%1</b></p><table>").arg(tr("Libraries"));
  html += libraries();
  html += QStringLiteral("</table>");
  html += tr("<p>gapscope's own code is under the MIT licence. This application links QCustomPlot, which is "
             "under the GPL-3.0, so the application as built here is distributed under the GPL-3.0.</p>");
  return html;
}

}  // namespace gapscope::app
