// Recordings are saved before they are shown: the file must read back as the
// same trace, names never collide, and a folder that cannot be made is an
// error message, not a crash.
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "gapscope/io/chrome_reader.h"
#include "gapscope/model/trace_builder.h"
#include "recording_store.h"

using namespace gapscope;

namespace {

Trace smallRecording() {
  TraceBuilder b;
  SliceEvent launch;
  launch.pid = b.numericId(1);
  launch.tid = b.numericId(1);
  launch.name = b.intern("cudaLaunchKernel");
  launch.category = b.intern("cuda_runtime");
  launch.start = 1000;
  launch.dur = 4000;
  launch.correlation = 7;
  b.addComplete(launch);
  SliceEvent kernel = launch;
  kernel.pid = b.numericId(0);
  kernel.tid = b.numericId(7);
  kernel.name = b.intern("layer_norm_kernel");
  kernel.category = b.intern("kernel");
  kernel.start = 9000;
  kernel.dur = 2500;
  b.addComplete(kernel);
  return b.finish();
}

}  // namespace

TEST(RecordingStore, SavedRecordingReadsBackAsTheSameSlices) {
  QTemporaryDir dir;
  const QString path = app::newRecordingPath(dir.path(), QStringLiteral("split_stack"), QString());
  EXPECT_TRUE(QFileInfo(path).fileName().startsWith(QStringLiteral("split_stack-default-")));
  EXPECT_TRUE(path.endsWith(QStringLiteral(".json.gz")));
  const Trace trace = smallRecording();
  ASSERT_EQ(app::saveRecording(trace, path), QString());
  io::LoadResult back = io::loadChromeTrace(path.toStdString());
  ASSERT_TRUE(back.ok()) << back.error;
  ASSERT_EQ(back.trace->slices.size(), 2u);
  const Slice& k = back.trace->slices[back.trace->gpuOpForCorrelation(7)];
  EXPECT_EQ(back.trace->str(k.name), "layer_norm_kernel");
  EXPECT_EQ(k.dur, 2500);
}

TEST(RecordingStore, NewPathsNeverCollide) {
  QTemporaryDir dir;
  const QString first = app::newRecordingPath(dir.path(), QStringLiteral("mlp"), QStringLiteral("fused"));
  QFile f(first);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.close();
  const QString second = app::newRecordingPath(dir.path(), QStringLiteral("mlp"), QStringLiteral("fused"));
  EXPECT_NE(first, second);
}

TEST(RecordingStore, UnwritableFolderIsAnError) {
  QTemporaryDir dir;
  QFile blocker(dir.filePath(QStringLiteral("file")));
  ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
  blocker.close();
  // A folder below a plain file cannot be created.
  const QString error = app::saveRecording(smallRecording(), dir.filePath(QStringLiteral("file/sub/rec.json.gz")));
  EXPECT_FALSE(error.isEmpty());
}
