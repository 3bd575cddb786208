// Helper threads for building a timeline frame. A zoomed-out frame of a big
// trace spends most of its time in the level of detail of a few rows of
// millions of slices each (computeRowRects); rows are independent, so they
// are shared among the GUI thread and these helpers. A pool of their own:
// the global QThreadPool runs loads and analyses that may take it for
// seconds, and a frame must not queue behind them.
#pragma once

#include <cstddef>
#include <functional>

namespace gapscope::app {

// Calls fn(0) ... fn(n - 1), each once, on this thread and the frame
// helpers; returns when all have returned. `fn` must be safe to call
// concurrently for different indices.
void forEachConcurrently(std::size_t n, const std::function<void(std::size_t)>& fn);

}  // namespace gapscope::app
