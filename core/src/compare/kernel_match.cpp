// Kernel matching between two runs. Names found in both runs match by
// name. The rest are grouped in three rounds, each over what the rounds
// before left unmatched:
//   fused_ops   an Inductor kernel (triton_*_fused_<ops>_N) and the other
//               run's kernels whose launching operator is in <ops> (kernels
//               only: a fused aten::copy_ replaces copy kernels, never the
//               memcpy from the host that the same operator makes elsewhere)
//   operator    kernels launched by the same operator (innermost cpu_op)
//   annotation  kernels launched under the same user annotation
// Within a round, kernels joined through any shared key form one group
// (connected components), so six eager kernels under aten::cat and
// aten::add and the one triton_poi_fused_add_cat_0 that replaced them end up
// in one group. A group needs a kernel of each run; the rest are "none".
#include <array>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>

#include "compare/compare_detail.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::compare::detail {
namespace {

using analysis::KernelRow;

// A kernel name left unmatched by name, on one side.
struct Node {
  int side = 0;  // 0: A, 1: B
  const KernelRow* row = nullptr;
  const KernelOrigin* origin = nullptr;
  int group = -1;
};

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

const KernelOrigin kNoOrigin;

// The keys a node offers in a keyed round.
using KeysOf = const std::vector<std::string>& (*)(const KernelOrigin&);
const std::vector<std::string>& opsOf(const KernelOrigin& o) { return o.ops; }
const std::vector<std::string>& annotationsOf(const KernelOrigin& o) { return o.annotations; }

// Per component root: the keys that joined it.
using Keys = std::map<std::size_t, std::vector<std::string>>;

class KernelMatcher {
 public:
  KernelMatcher(std::vector<Node> nodes, Comparison& out) : nodes_(std::move(nodes)), out_(out) {}

  void run() {
    fusedRound();
    keyedRound(KernelMatch::Operator, opsOf);
    keyedRound(KernelMatch::Annotation, annotationsOf);
  }
  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  bool open(std::size_t i) const { return nodes_[i].group < 0; }

  void fusedRound() {
    UnionFind uf(nodes_.size());
    std::vector<std::pair<std::size_t, std::string>> matched;  // (node, operator a fused kernel lists)
    for (std::size_t f = 0; f < nodes_.size(); ++f) {
      std::string_view list = fusedOpList(nodes_[f].row->name);
      if (!open(f) || list.empty()) continue;
      for (std::size_t k = 0; k < nodes_.size(); ++k) {
        if (!open(k) || nodes_[k].side == nodes_[f].side || nodes_[k].row->kind != SliceKind::Kernel ||
            !fusedOpList(nodes_[k].row->name).empty())
          continue;
        for (const std::string& op : nodes_[k].origin->ops) {
          if (!fusedListNames(list, op)) continue;
          uf.join(f, k);
          matched.emplace_back(k, op);
        }
      }
    }
    Keys keys;
    for (const auto& [k, op] : matched) keys[uf.find(k)].push_back(op);
    makeGroups(uf, KernelMatch::FusedOps, keys);
  }

  // Joins the open nodes of both sides that offer the same key; a key
  // offered by one side only joins nothing.
  void keyedRound(KernelMatch match, KeysOf keysOf) {
    std::map<std::string, std::array<std::vector<std::size_t>, 2>> byKey;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!open(i)) continue;
      for (const std::string& key : keysOf(*nodes_[i].origin))
        byKey[key][static_cast<std::size_t>(nodes_[i].side)].push_back(i);
    }
    UnionFind uf(nodes_.size());
    std::vector<std::pair<std::size_t, const std::string*>> shared;  // (a node, key)
    for (const auto& [key, sides] : byKey) {
      if (sides[0].empty() || sides[1].empty()) continue;
      for (const auto& nodesOfSide : sides)
        for (std::size_t i : nodesOfSide) uf.join(i, sides[0].front());
      shared.emplace_back(sides[0].front(), &key);
    }
    Keys keys;
    for (const auto& [node, key] : shared) keys[uf.find(node)].push_back(*key);
    makeGroups(uf, match, keys);
  }

  // Every component with an open node of each side becomes a group.
  void makeGroups(UnionFind& uf, KernelMatch match, Keys& keys) {
    std::map<std::size_t, std::array<bool, 2>> sides;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (open(i)) sides[uf.find(i)][nodes_[i].side] = true;
    std::map<std::size_t, int> groupOf;
    for (const auto& [root, has] : sides) {
      if (!has[0] || !has[1]) continue;
      groupOf[root] = static_cast<int>(out_.groups.size());
      KernelGroup g;
      g.matchedBy = match;
      std::vector<std::string>& k = keys[root];
      std::sort(k.begin(), k.end());
      k.erase(std::unique(k.begin(), k.end()), k.end());
      for (const auto& key : k) g.key += (g.key.empty() ? "" : ", ") + key;
      out_.groups.push_back(std::move(g));
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!open(i)) continue;
      auto it = groupOf.find(uf.find(i));
      if (it == groupOf.end()) continue;
      nodes_[i].group = it->second;
      addToGroup(nodes_[i], out_.groups[static_cast<std::size_t>(it->second)]);
    }
  }

  static void addToGroup(const Node& n, KernelGroup& g) {
    const auto calls = static_cast<std::uint64_t>(n.row->calls);
    if (n.side == 0) {
      g.kernelsA.push_back(n.row->name);
      g.countA += calls;
      g.timeA = addSaturating(g.timeA, n.row->total);
    } else {
      g.kernelsB.push_back(n.row->name);
      g.countB += calls;
      g.timeB = addSaturating(g.timeB, n.row->total);
    }
  }

  std::vector<Node> nodes_;
  Comparison& out_;
};

std::unordered_map<std::string, const KernelRow*> rowsByName(const analysis::KernelTable& t) {
  std::unordered_map<std::string, const KernelRow*> rows;
  for (const KernelRow& r : t.rows) rows.emplace(r.name, &r);
  return rows;
}

KernelDelta deltaOf(const KernelRow* a, const KernelRow* b) {
  KernelDelta d;
  const KernelRow* any = a ? a : b;
  d.name = any->name;
  d.kind = any->kind;
  if (a) {
    d.countA = static_cast<std::uint64_t>(a->calls);
    d.timeA = a->total;
  }
  if (b) {
    d.countB = static_cast<std::uint64_t>(b->calls);
    d.timeB = b->total;
  }
  return d;
}

// Nodes for the names of `side` that the other side lacks.
void addUnmatched(const KernelSide& side, int sideIndex,
                  const std::unordered_map<std::string, const KernelRow*>& other, KernelOrigins& origins,
                  std::vector<Node>& nodes) {
  std::unordered_set<std::string> names;
  for (const KernelRow& r : side.table->rows)
    if (!other.count(r.name)) names.insert(r.name);
  origins = kernelOrigins(*side.trace, names, side.stepName);
  for (const KernelRow& r : side.table->rows) {
    if (!names.count(r.name)) continue;
    auto it = origins.find(r.name);
    nodes.push_back({sideIndex, &r, it == origins.end() ? &kNoOrigin : &it->second, -1});
  }
}

}  // namespace

void matchKernels(const KernelSide& a, const KernelSide& b, Comparison& out) {
  const auto rowsA = rowsByName(*a.table);
  const auto rowsB = rowsByName(*b.table);
  for (const KernelRow& r : a.table->rows) {
    auto it = rowsB.find(r.name);
    if (it == rowsB.end()) continue;
    KernelDelta d = deltaOf(&r, it->second);
    d.matchedBy = KernelMatch::Name;
    out.kernels.push_back(std::move(d));
  }
  KernelOrigins originsA;
  KernelOrigins originsB;
  std::vector<Node> nodes;
  addUnmatched(a, 0, rowsB, originsA, nodes);
  addUnmatched(b, 1, rowsA, originsB, nodes);
  KernelMatcher matcher(std::move(nodes), out);
  matcher.run();
  for (const Node& n : matcher.nodes()) {
    KernelDelta d = n.side == 0 ? deltaOf(n.row, nullptr) : deltaOf(nullptr, n.row);
    d.group = n.group;
    d.matchedBy = n.group < 0 ? KernelMatch::None : out.groups[static_cast<std::size_t>(n.group)].matchedBy;
    out.kernels.push_back(std::move(d));
  }
  auto change = [&](TimeNs ta, TimeNs tb) { return std::abs(out.changePerStep(ta, tb)); };
  std::stable_sort(out.kernels.begin(), out.kernels.end(), [&](const KernelDelta& x, const KernelDelta& y) {
    const double cx = change(x.timeA, x.timeB);
    const double cy = change(y.timeA, y.timeB);
    return cx != cy ? cx > cy : x.name < y.name;
  });
  // Groups by their change too; the rows keep pointing at them.
  std::vector<std::size_t> order(out.groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return change(out.groups[x].timeA, out.groups[x].timeB) > change(out.groups[y].timeA, out.groups[y].timeB);
  });
  std::vector<int> newIndex(order.size());
  std::vector<KernelGroup> sorted;
  sorted.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    newIndex[order[i]] = static_cast<int>(i);
    sorted.push_back(std::move(out.groups[order[i]]));
  }
  out.groups = std::move(sorted);
  for (KernelDelta& d : out.kernels)
    if (d.group >= 0) d.group = newIndex[static_cast<std::size_t>(d.group)];
}

}  // namespace gapscope::compare::detail
