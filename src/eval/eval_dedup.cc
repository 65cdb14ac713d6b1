#include "eval/eval.h"

#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "ingest/lines.h"

namespace husk {

namespace {

double f1_of(double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0.0; }

// A page reference: "ID" or {"id": "ID", ...}, as gold_key() spells it.
Result<std::string> id_of(const nlohmann::json& v, const Line& line, const std::string& field) {
  if (v.is_string()) return gold_key(v.get<std::string>());
  if (v.is_object()) {
    auto id = v.find("id");
    if (id != v.end() && id->is_string()) return gold_key(id->get<std::string>());
  }
  return Status(Code::kInvalidArgument, line.source + ": " + field + " must be a page id (a string, or {\"id\": string})");
}

Result<std::vector<std::string>> members_of(const nlohmann::json& j, const Line& line) {
  std::vector<std::string> members;
  for (const auto& m : j["members"]) {
    Result<std::string> id = id_of(m, line, "\"members\"");
    if (!id.ok()) return id.status();
    members.push_back(std::move(*id));
  }
  return members;
}

}  // namespace

Result<GoldDedup> load_gold_dedup(const std::string& path) {
  GoldDedup gold;
  Status st = for_each_json_object(path, [&](const nlohmann::json& j, const Line& line) -> Status {
    if (j.contains("members") && j["members"].is_array()) {
      Result<std::vector<std::string>> members = members_of(j, line);
      if (!members.ok()) return members.status();
      gold.clusters.push_back(std::move(*members));
      return Status();
    }
    const char* a_field = j.contains("a") ? "a" : "id_a";
    const char* b_field = j.contains("b") ? "b" : "id_b";
    if (!j.contains(a_field) || !j.contains(b_field) || !j.contains("label"))
      return Status(Code::kCorrupt,
                    line.source + ": expected {\"a\",\"b\",\"label\"}, {\"id_a\",\"id_b\",\"label\"} or {\"members\"}");
    Result<std::string> a = id_of(j[a_field], line, std::string("\"") + a_field + "\"");
    if (!a.ok()) return a.status();
    Result<std::string> b = id_of(j[b_field], line, std::string("\"") + b_field + "\"");
    if (!b.ok()) return b.status();
    GoldDedup::LabelledPair p;
    p.a = std::move(*a);
    p.b = std::move(*b);
    const nlohmann::json& label = j["label"];
    if (!label.is_boolean() && !label.is_number())
      return Status(Code::kInvalidArgument, line.source + ": \"label\" must be 0, 1, true or false");
    p.duplicate = label.is_boolean() ? label.get<bool>() : label.get<double>() > 0;
    if (auto variant = j.find("variant"); variant != j.end() && !variant->is_null()) {
      if (!variant->is_string()) return Status(Code::kInvalidArgument, line.source + ": \"variant\" must be a string");
      p.variant = variant->get<std::string>();
    }
    gold.pairs.push_back(std::move(p));
    return Status();
  });
  if (!st.ok()) return st;
  if (gold.pairs.empty() && gold.clusters.empty()) return Status(Code::kCorrupt, path + ": no gold pairs or clusters");
  if (!gold.pairs.empty() && !gold.clusters.empty())
    return Status(Code::kCorrupt, path + ": mixes labelled pairs and clusters");
  return gold;
}

Result<std::vector<std::vector<std::string>>> load_clusters(const std::string& path) {
  std::vector<std::vector<std::string>> clusters;
  Status st = for_each_json_object(path, [&](const nlohmann::json& j, const Line& line) -> Status {
    if (!j.contains("members") || !j["members"].is_array())
      return Status(Code::kCorrupt, line.source + ": a cluster line needs \"members\"");
    Result<std::vector<std::string>> members = members_of(j, line);
    if (!members.ok()) return members.status();
    clusters.push_back(std::move(*members));
    return Status();
  });
  if (!st.ok()) return st;
  return clusters;
}

DedupScore score_dedup(const GoldDedup& gold, const std::vector<std::vector<std::string>>& clusters) {
  std::unordered_map<std::string, std::size_t> predicted;  // page -> cluster
  for (std::size_t c = 0; c < clusters.size(); ++c)
    if (clusters[c].size() >= 2)
      for (const std::string& id : clusters[c]) predicted[gold_key(id)] = c;
  auto together = [&](const std::string& a, const std::string& b) {
    auto x = predicted.find(a), y = predicted.find(b);
    return x != predicted.end() && y != predicted.end() && x->second == y->second;
  };
  DedupScore s;
  if (gold.clusters.empty()) {
    for (const auto& p : gold.pairs) {
      bool dup = together(p.a, p.b);
      if (p.duplicate) {
        (dup ? s.tp : s.fn)++;
      } else {
        (dup ? s.fp : s.tn)++;
      }
      if (!p.variant.empty()) {
        auto& v = s.by_variant[p.variant];
        ++v.first;
        v.second += dup;
      }
    }
  } else {
    s.clustering_gold = true;
    std::unordered_map<std::string, std::size_t> truth;
    std::set<std::string> gold_dups;
    for (std::size_t c = 0; c < gold.clusters.size(); ++c)
      if (gold.clusters[c].size() >= 2)
        for (const std::string& id : gold.clusters[c]) {
          truth[id] = c;
          gold_dups.insert(id);
        }
    auto same_gold = [&](const std::string& a, const std::string& b) {
      auto x = truth.find(a), y = truth.find(b);
      return x != truth.end() && y != truth.end() && x->second == y->second;
    };
    // Pairs inside gold clusters (tp/fn), pairs inside predicted clusters
    // that the gold splits (fp).
    for (const auto& g : gold.clusters)
      for (std::size_t i = 0; i < g.size(); ++i)
        for (std::size_t j = i + 1; j < g.size(); ++j) (together(g[i], g[j]) ? s.tp : s.fn)++;
    for (const auto& c : clusters)
      for (std::size_t i = 0; i < c.size(); ++i)
        for (std::size_t j = i + 1; j < c.size(); ++j)
          if (!same_gold(gold_key(c[i]), gold_key(c[j]))) ++s.fp;
    std::size_t found = predicted.size(), found_right = 0;
    for (const auto& [id, c] : predicted) found_right += gold_dups.count(id);
    s.url_precision = found ? static_cast<double>(found_right) / found : 0.0;
    s.url_recall = gold_dups.empty() ? 0.0 : static_cast<double>(found_right) / gold_dups.size();
    s.url_f1 = f1_of(s.url_precision, s.url_recall);
  }
  s.precision = s.tp + s.fp ? static_cast<double>(s.tp) / (s.tp + s.fp) : 0.0;
  s.recall = s.tp + s.fn ? static_cast<double>(s.tp) / (s.tp + s.fn) : 0.0;
  s.f1 = f1_of(s.precision, s.recall);
  return s;
}

}  // namespace husk
