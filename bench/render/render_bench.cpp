// Renders a generated trace with N slices (default 10 million) through the
// real TimelineWidget into an offscreen QImage, at zoom levels from the
// whole trace down to a few microseconds, and prints per-frame times:
//   new frame  the view moved: level of detail, geometry and paint
//   replay     the same view again: paint only (geometry cached)
// Usage: gapscope-bench-render [--slices N] [--width W] [--height H] [--dpr D] [--frames F]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/model/trace_builder.h"
#include "gapscope/timeline/layout.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;

namespace {

struct Options {
  long long slices = 10'000'000;
  int width = 1600;
  int height = 900;
  double dpr = 1.0;
  int frames = 12;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* v = argv[i + 1];
    if (key == "--slices") o.slices = std::atoll(v);
    else if (key == "--width") o.width = std::atoi(v);
    else if (key == "--height") o.height = std::atoi(v);
    else if (key == "--dpr") o.dpr = std::atof(v);
    else if (key == "--frames") o.frames = std::atoi(v);
  }
  return o;
}

// A deterministic PyTorch-like trace: per unit an op > child op > launch
// call on the CPU thread and the kernel it launches on stream 7, four
// slices per unit, ~10 us per unit with jitter and now and then a longer
// CPU stall (a launch gap).
Trace generate(long long slices) {
  TraceBuilder b;
  std::vector<StringId> ops, children, kernels;
  for (int i = 0; i < 40; ++i) ops.push_back(b.intern("aten::op_" + std::to_string(i)));
  for (int i = 0; i < 40; ++i) children.push_back(b.intern("aten::inner_" + std::to_string(i)));
  for (int i = 0; i < 25; ++i) {
    kernels.push_back(b.intern("void at::native::generated_kernel_" + std::to_string(i) + "<float, 4>(int, float*)"));
  }
  const StringId launch = b.intern("cudaLaunchKernel");
  const StringId cpuOp = b.intern("cpu_op"), runtime = b.intern("cuda_runtime"), kernel = b.intern("kernel");
  const ChromeId pid = b.numericId(100), tid = b.numericId(100), dev = b.numericId(0), stream = b.numericId(7);
  b.setProcessName(pid, "python3");
  b.setThreadName(pid, tid, "thread 100 (python3)");
  b.setProcessLabels(dev, "GPU 0");
  std::uint64_t rng = 42;
  const auto next = [&rng]() {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<TimeNs>(rng >> 33);
  };
  SliceEvent e;
  TimeNs t = 0;
  const long long units = slices / 4;
  for (long long u = 0; u < units; ++u) {
    const TimeNs opDur = 6000 + next() % 4000;
    e.pid = pid;
    e.tid = tid;
    e.category = cpuOp;
    e.correlation = kNoCorrelation;
    e.start = t;
    e.dur = opDur;
    e.name = ops[static_cast<std::size_t>(u % 40)];
    b.addComplete(e);
    e.start = t + 500;
    e.dur = opDur - 1000;
    e.name = children[static_cast<std::size_t>((u * 7) % 40)];
    b.addComplete(e);
    const TimeNs launchStart = t + 1000 + next() % 2000;
    e.start = launchStart;
    e.dur = 1500 + next() % 1000;
    e.name = launch;
    e.category = runtime;
    e.correlation = u + 1;
    b.addComplete(e);
    e.pid = dev;
    e.tid = stream;
    e.category = kernel;
    e.start = launchStart + e.dur + 2000 + next() % 3000;
    e.dur = 1000 + next() % 6000;
    e.name = kernels[static_cast<std::size_t>(u % 25)];
    b.addComplete(e);
    t += opDur + 500 + ((u % 997) == 0 ? 200000 : next() % 1500);
  }
  return b.finish();
}

struct Stats {
  double median = 0;
  double max = 0;
};

Stats stats(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.back()};
}

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Wall and CPU time of one render. On a shared machine wall time includes
// waiting for a core; CPU time is what the frame itself costs.
struct Timing {
  double wall = 0;
  double cpu = 0;
};

Timing render(TimelineWidget& w, QImage& image) {
  QElapsedTimer clock;
  const double cpu0 = threadCpuMs();
  clock.start();
  w.renderTo(image);
  return {static_cast<double>(clock.nsecsElapsed()) / 1e6, threadCpuMs() - cpu0};
}

}  // namespace

int main(int argc, char** argv) {
  if (qgetenv("QT_QPA_PLATFORM").isEmpty()) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const Options o = parse(argc, argv);

  QElapsedTimer clock;
  clock.start();
  LoadedTrace loaded;
  auto trace = std::make_shared<const Trace>(generate(o.slices));
  const double genS = static_cast<double>(clock.restart()) / 1000.0;
  loaded.layout = std::make_shared<const timeline::TimelineLayout>(timeline::TimelineLayout::build(*trace));
  const double layoutS = static_cast<double>(clock.restart()) / 1000.0;
  loaded.analysis = std::make_shared<const analysis::TraceAnalysis>(trace);
  loaded.analysis->gaps();  // the views read only the gap analysis
  const double gapsS = static_cast<double>(clock.restart()) / 1000.0;
  loaded.trace = trace;
  loaded.displayName = QStringLiteral("generated");
  std::size_t indexBytes = 0, bucketBytes = 0, edgeBytes = 0;
  for (const auto& r : loaded.layout->rows()) {
    indexBytes += r.indices.capacity() * sizeof(std::uint32_t);
    bucketBytes += r.buckets.memoryBytes();
    edgeBytes += r.edges.memoryBytes();
  }
  std::printf("trace: %zu slices, %zu gaps listed; generated in %.1f s, layout %.2f s, gap analysis %.1f s\n",
              trace->slices.size(), loaded.gaps().gaps.size(), genS, layoutS, gapsS);
  std::printf("memory: trace %.0f MB, layout row indices %.0f MB, time buckets %.1f MB, edge copies %.1f MB\n",
              static_cast<double>(trace->memoryBytes()) / 1e6, static_cast<double>(indexBytes) / 1e6,
              static_cast<double>(bucketBytes) / 1e6, static_cast<double>(edgeBytes) / 1e6);

  TraceSession session;
  session.setTrace(std::move(loaded));
  TimelineWidget widget(&session);
  widget.resize(o.width, o.height);
  QImage image(static_cast<int>(o.width * o.dpr), static_cast<int>(o.height * o.dpr),
               QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(o.dpr);
  widget.renderTo(image);  // warm-up: fonts, glyph caches
  widget.fitAll();

  std::printf("\n%dx%d logical pixels, device pixel ratio %.1f, %d frames per zoom level, milliseconds\n",
              o.width, o.height, o.dpr, o.frames);
  std::printf("%-9s %12s | %-23s | %-23s | %-11s | %s\n", "visible", "ns/pixel", "new frame wall med/max",
              "new frame CPU med/max", "replay CPU", "geometry wall med");
  const TimeNs t0 = trace->minTime();
  const TimeNs span = trace->maxTime() - t0;
  const double areaWidth = widget.width() - widget.chrome().namesWidth;
  double worstWall = 0, worstCpu = 0;
  for (double zoom = 1; span / zoom >= 20000; zoom *= 10) {
    std::vector<double> wall, cpu, replay, build;
    const auto visible = static_cast<TimeNs>(static_cast<double>(span) / zoom);
    for (int f = 0; f < o.frames; ++f) {
      // Views spread over the whole trace; each also panned a few pixels
      // so no two frames share geometry.
      const double nsPerPx = static_cast<double>(visible) / areaWidth;
      const TimeNs start = t0 + static_cast<TimeNs>(static_cast<double>(span - visible) * f / std::max(1, o.frames - 1) +
                                                    nsPerPx * 7 * f);
      widget.setScale(timeline::TimeScale::fit(start, start + visible, areaWidth));
      const Timing t = render(widget, image);
      wall.push_back(t.wall);
      cpu.push_back(t.cpu);
      build.push_back(widget.lastBuildMs());
      replay.push_back(render(widget, image).cpu);
    }
    const Stats w = stats(wall), c = stats(cpu), r = stats(replay), g = stats(build);
    worstWall = std::max(worstWall, w.max);
    worstCpu = std::max(worstCpu, c.max);
    char label[32];
    std::snprintf(label, sizeof label, "1/%.0f", zoom);
    std::printf("%-9s %12.1f | %10.2f %10.2f  | %10.2f %10.2f  | %9.2f   | %.2f\n", label,
                static_cast<double>(visible) / areaWidth, w.median, w.max, c.median, c.max, r.median, g.median);
  }
  std::printf("\nslowest new frame: %.2f ms wall, %.2f ms CPU (target 16 ms, goal 8 ms)\n", worstWall, worstCpu);
  return 0;
}
