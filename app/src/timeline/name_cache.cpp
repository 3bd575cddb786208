#include "timeline/name_cache.h"

namespace gapscope::app {

void NameCache::reset(const Trace* trace) {
  trace_ = trace;
  const std::size_t n = trace ? trace->strings.size() : 0;
  names_.assign(n, QString());
  labels_.assign(n, QString());
  haveName_.assign(n, false);
  haveLabel_.assign(n, false);
}

const QString& NameCache::name(StringId id) {
  static const QString kNone;
  if (!trace_ || id >= names_.size()) return kNone;
  if (!haveName_[id]) {
    const std::string_view v = trace_->str(id);
    names_[id] = QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
    haveName_[id] = true;
  }
  return names_[id];
}

const QString& NameCache::label(StringId id) {
  static const QString kNone;
  if (!trace_ || id >= labels_.size()) return kNone;
  if (!haveLabel_[id]) {
    labels_[id] = shortenName(name(id));
    haveLabel_[id] = true;
  }
  return labels_[id];
}

QString shortenName(const QString& name) {
  QString s = name;
  if (s.startsWith(QLatin1String("void "))) s.remove(0, 5);
  s.remove(QStringLiteral("(anonymous namespace)::"));
  // Keep the outermost template brackets, drop what is inside them and the
  // argument list: names of templated kernels run to hundreds of characters.
  QString out;
  out.reserve(s.size());
  int depth = 0;
  qsizetype lastScope = -1;  // where the last top-level "::" ends in `out`
  for (qsizetype i = 0; i < s.size(); ++i) {
    const QChar c = s[i];
    if (c == QLatin1Char('(') && depth == 0 && i > 0) break;
    if (c == QLatin1Char('<')) {
      if (depth == 0) out += QStringLiteral("<…>");
      ++depth;
      continue;
    }
    if (c == QLatin1Char('>') && depth > 0) {
      --depth;
      continue;
    }
    if (depth > 0) continue;
    out += c;
    if (c == QLatin1Char(':') && out.endsWith(QLatin1String("::"))) lastScope = out.size();
  }
  // The function's own name says the most in a narrow slice; namespaces go.
  if (lastScope > 0 && lastScope < out.size()) out = out.mid(lastScope);
  out = out.trimmed();
  return out.isEmpty() ? name : out;
}

}  // namespace gapscope::app
