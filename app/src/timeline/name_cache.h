// Slice names as QString, converted from the trace's UTF-8 once per name and
// kept for the trace's lifetime; plus a short form for kernel labels.
#pragma once

#include <QString>

#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::app {

class NameCache {
 public:
  void reset(const Trace* trace);
  const QString& name(StringId id);
  // The label form: demangled kernel names lose "void ", namespaces, their
  // argument list and template arguments ("elementwise_kernel<…>").
  const QString& label(StringId id);

 private:
  const Trace* trace_ = nullptr;
  std::vector<QString> names_;
  std::vector<QString> labels_;
  std::vector<bool> haveName_, haveLabel_;
};

// The label form of a name (see NameCache::label).
QString shortenName(const QString& name);

}  // namespace gapscope::app
