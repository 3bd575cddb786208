// The trace MIME types of packaging/<id>.mime.xml, resolved the way a file
// manager resolves them: update-mime-database compiles the package together
// with freedesktop.org's own types into a scratch MIME database, and Qt's
// QMimeDatabase (the lookup the app's file dialogs use too) reads it back.
// This proves that trace files get our types although application/json
// (*.json) and application/gzip (*.gz) claim them as well, and that ordinary
// JSON and gzip files keep their usual types.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <memory>
#include <string>

namespace {

constexpr const char* kTraceJson = "application/x-chrome-trace+json";
constexpr const char* kTraceJsonGz = "application/x-chrome-trace+json-compressed";
constexpr const char* kSystemTypes = "/usr/share/mime/packages/freedesktop.org.xml";

// update-mime-database writes and fsyncs ~870 small files: 6-12 s on this
// machine's disk, under 1 s in memory. So the scratch database goes to
// /dev/shm (tmpfs) where there is one.
QString scratchTemplate() {
  const QFileInfo shm("/dev/shm");
  const QString name = "gapscope-mime-XXXXXX";
  return (shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath()) + "/" + name;
}

class MimeTypesTest : public ::testing::Test {
 protected:
  // QMimeDatabase reads its data once per process, so the scratch database
  // is built once, before the first lookup, and pointed to by XDG_DATA_DIRS.
  static void SetUpTestSuite() {
    const QString tool = QStandardPaths::findExecutable("update-mime-database");
    if (tool.isEmpty() || !QFile::exists(kSystemTypes)) {
      skipReason_ = "shared-mime-info is not installed (apt-get install shared-mime-info)";
      return;
    }
    dataDir_ = std::make_unique<QTemporaryDir>(scratchTemplate());
    const QString packages = dataDir_->filePath("mime/packages");
    if (!dataDir_->isValid() || !QDir().mkpath(packages) ||
        !QFile::copy(kSystemTypes, packages + "/freedesktop.org.xml") ||
        !QFile::copy(GAPSCOPE_MIME_PACKAGE, packages + "/gapscope.xml")) {
      setupError_ = "cannot set up a scratch MIME database with " GAPSCOPE_MIME_PACKAGE;
      return;
    }
    qputenv("XDG_DATA_DIRS", dataDir_->path().toLocal8Bit());
    qputenv("XDG_DATA_HOME", dataDir_->filePath("empty-home").toLocal8Bit());

    QProcess update;
    update.setProcessChannelMode(QProcess::MergedChannels);
    update.start(tool, {dataDir_->filePath("mime")});
    if (!update.waitForFinished(60000) || update.exitStatus() != QProcess::NormalExit) {
      setupError_ = "update-mime-database did not finish";
      return;
    }
    toolOutput_ = update.readAll().toStdString();
    toolExitCode_ = update.exitCode();
  }
  static void TearDownTestSuite() { dataDir_.reset(); }
  void SetUp() override {
    if (!skipReason_.empty()) GTEST_SKIP() << skipReason_;
    ASSERT_EQ(setupError_, "");
  }

  static std::string typeOf(const char* fileName) {
    const QMimeDatabase db;
    return db.mimeTypeForFile(fileName, QMimeDatabase::MatchExtension).name().toStdString();
  }

  static inline std::unique_ptr<QTemporaryDir> dataDir_;
  static inline std::string skipReason_;
  static inline std::string setupError_;
  static inline std::string toolOutput_;
  static inline int toolExitCode_ = 0;
};

TEST_F(MimeTypesTest, UpdateMimeDatabaseAcceptsThePackageWithoutComplaint) {
  EXPECT_EQ(toolExitCode_, 0);
  EXPECT_EQ(toolOutput_, "");
}

TEST_F(MimeTypesTest, TracesGetTheTraceTypes) {
  EXPECT_EQ(typeOf("step_12.pt.trace.json"), kTraceJson);
  EXPECT_EQ(typeOf("chrome_export.trace.json"), kTraceJson);
  EXPECT_EQ(typeOf("STEP.PT.TRACE.JSON"), kTraceJson);  // globs match case-insensitively
  EXPECT_EQ(typeOf("step_12.pt.trace.json.gz"), kTraceJsonGz);
  EXPECT_EQ(typeOf("chrome_export.trace.json.gz"), kTraceJsonGz);
}

TEST_F(MimeTypesTest, TraceTypesAreStillJsonAndGzipAndOthersKeepTheirTypes) {
  const QMimeDatabase db;
  const QMimeType json = db.mimeTypeForName(kTraceJson);
  const QMimeType gz = db.mimeTypeForName(kTraceJsonGz);
  ASSERT_TRUE(json.isValid());
  ASSERT_TRUE(gz.isValid());
  // Editors and archive tools that open JSON or gzip keep offering themselves.
  EXPECT_TRUE(json.inherits("application/json"));
  EXPECT_TRUE(gz.inherits("application/gzip"));
  EXPECT_FALSE(json.comment().isEmpty());
  EXPECT_FALSE(gz.comment().isEmpty());

  EXPECT_EQ(typeOf("config.json"), "application/json");
  EXPECT_EQ(typeOf("trace.json"), "application/json");  // "trace" is the name, not a suffix
  EXPECT_EQ(typeOf("logs.gz"), "application/gzip");
  EXPECT_EQ(typeOf("config.json.gz"), "application/gzip");
}

}  // namespace
