// Clustering of verified pairs (the «Неточная кластеризация» homework report's
// greedy centre and max-degree methods) and the choice of a main page.
#include <algorithm>
#include <numeric>
#include <set>

#include "husk/dedup.h"

namespace husk {

namespace {

struct UnionFind {
  std::vector<uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  // The smaller index becomes the root, so roots are deterministic.
  void unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

std::vector<std::vector<uint32_t>> adjacency(std::size_t n, const std::vector<Pair>& pairs) {
  std::vector<std::vector<uint32_t>> adj(n);
  for (const Pair& p : pairs) {
    adj[p.a].push_back(p.b);
    adj[p.b].push_back(p.a);
  }
  for (auto& a : adj) std::sort(a.begin(), a.end());
  return adj;
}

std::vector<std::vector<uint32_t>> components(std::size_t n, const std::vector<Pair>& pairs) {
  UnionFind uf(n);
  for (const Pair& p : pairs) uf.unite(p.a, p.b);
  std::vector<std::vector<uint32_t>> groups(n);
  for (uint32_t i = 0; i < n; ++i) groups[uf.find(i)].push_back(i);
  return groups;
}

// The homework's greedy centre method: the first page not yet taken is a
// centre and takes every page within the threshold that is not taken yet.
std::vector<std::vector<uint32_t>> centres(std::size_t n, const std::vector<Pair>& pairs) {
  auto adj = adjacency(n, pairs);
  std::vector<uint8_t> taken(n, 0);
  std::vector<std::vector<uint32_t>> groups;
  for (uint32_t c = 0; c < n; ++c) {
    if (taken[c]) continue;
    taken[c] = 1;
    std::vector<uint32_t> group{c};
    for (uint32_t v : adj[c])
      if (!taken[v]) {
        taken[v] = 1;
        group.push_back(v);
      }
    groups.push_back(std::move(group));
  }
  return groups;
}

// The homework's max-degree method: repeatedly the page with the most
// untaken neighbours (ties: the first) takes them; neighbours' degrees drop
// as pages are taken.
std::vector<std::vector<uint32_t>> max_degree(std::size_t n, const std::vector<Pair>& pairs) {
  auto adj = adjacency(n, pairs);
  std::vector<uint32_t> degree(n);
  std::set<std::pair<int64_t, uint32_t>> queue;  // (-degree, page)
  for (uint32_t i = 0; i < n; ++i) {
    degree[i] = static_cast<uint32_t>(adj[i].size());
    queue.insert({-static_cast<int64_t>(degree[i]), i});
  }
  std::vector<uint8_t> taken(n, 0);
  std::vector<std::vector<uint32_t>> groups;
  auto take = [&](uint32_t v) {
    taken[v] = 1;
    queue.erase({-static_cast<int64_t>(degree[v]), v});
    for (uint32_t w : adj[v]) {
      if (taken[w]) continue;
      queue.erase({-static_cast<int64_t>(degree[w]), w});
      --degree[w];
      queue.insert({-static_cast<int64_t>(degree[w]), w});
    }
  };
  while (!queue.empty()) {
    uint32_t c = queue.begin()->second;
    std::vector<uint32_t> group{c};
    for (uint32_t v : adj[c])
      if (!taken[v]) group.push_back(v);
    for (uint32_t v : group) take(v);
    groups.push_back(std::move(group));
  }
  return groups;
}

uint32_t main_of(const Cluster& cluster, const std::vector<DedupPage>& pages, MainPage policy) {
  // The centre every member was verified against (the first page of a
  // component, which has no centre).
  if (policy == MainPage::kFirst) return cluster.main;
  const std::vector<uint32_t>& members = cluster.members;
  uint32_t best = members.front();
  for (uint32_t m : members) {
    switch (policy) {
      case MainPage::kFirst:
        break;
      case MainPage::kRank:
        if (pages[m].rank > pages[best].rank || (pages[m].rank == pages[best].rank && m < best)) best = m;
        break;
      case MainPage::kLeastBoilerplate:
        if (pages[m].boilerplate < pages[best].boilerplate ||
            (pages[m].boilerplate == pages[best].boilerplate && m < best))
          best = m;
        break;
    }
  }
  return best;
}

}  // namespace

std::vector<Cluster> cluster_pairs(std::size_t pages, const std::vector<Pair>& pairs, ClusterMethod method,
                                   bool singletons) {
  std::vector<std::vector<uint32_t>> groups;
  switch (method) {
    case ClusterMethod::kComponents: groups = components(pages, pairs); break;
    case ClusterMethod::kCentre: groups = centres(pages, pairs); break;
    case ClusterMethod::kDegree: groups = max_degree(pages, pairs); break;
  }
  std::vector<Cluster> out;
  for (auto& g : groups) {
    if (g.empty() || (g.size() < 2 && !singletons)) continue;
    Cluster c;
    c.main = g.front();  // the centre of the greedy methods; a component's first page
    std::sort(g.begin(), g.end());
    c.members = std::move(g);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const Cluster& a, const Cluster& b) { return a.members[0] < b.members[0]; });
  return out;
}

std::vector<Cluster> cluster_pages(const std::vector<DedupPage>& pages, const std::vector<Pair>& pairs,
                                   const DedupOptions& options, bool singletons) {
  std::vector<Cluster> out = cluster_pairs(pages.size(), pairs, options.cluster, singletons);
  for (Cluster& c : out) c.main = main_of(c, pages, options.main);
  return out;
}

Result<ClusterMethod> cluster_method_named(const std::string& name) {
  if (name == "components") return ClusterMethod::kComponents;
  if (name == "centre" || name == "center") return ClusterMethod::kCentre;
  if (name == "degree") return ClusterMethod::kDegree;
  return Status(Code::kInvalidArgument, "cluster must be components, centre or degree, not \"" + name + "\"");
}

std::string cluster_method_name(ClusterMethod method) {
  switch (method) {
    case ClusterMethod::kComponents: return "components";
    case ClusterMethod::kCentre: return "centre";
    case ClusterMethod::kDegree: return "degree";
  }
  return "components";
}

Result<MainPage> main_page_named(const std::string& name) {
  if (name == "first") return MainPage::kFirst;
  if (name == "rank") return MainPage::kRank;
  if (name == "boilerplate") return MainPage::kLeastBoilerplate;
  return Status(Code::kInvalidArgument, "main must be first, rank or boilerplate, not \"" + name + "\"");
}

}  // namespace husk
