// Evaluation of near-duplicate clusters against a gold standard (DESIGN.md
// "Evaluation"; seed 003's comparison of Zelenkov & Segalovich).
//
// Gold is either labelled pairs, one JSON object a line, as
//   {"a": {"id": A}, "b": {"id": B}, "label": 1|0, "variant": ...}   or
//   {"id_a": A, "id_b": B, "label": 1|0}
// or a gold clustering, one {"members": [ID, ...]} a line. A pair is
// predicted a duplicate when both pages share a predicted cluster.
// - pairwise precision / recall / F1: over the judged pairs (pair gold), or
//   over all pairs inside gold and predicted clusters (clustering gold);
// - for a clustering, the lecture's URL-level scores: recall = share of the
//   gold duplicate pages found in some cluster, precision = share of the
//   pages found that are gold duplicates.
// Page ids are compared as gold_key() spells them (file names without
// directory and .html/.htm/.gz).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "husk/status.h"

namespace husk {

struct DedupScore {
  std::size_t tp = 0, fp = 0, fn = 0, tn = 0;
  double precision = 0, recall = 0, f1 = 0;
  bool clustering_gold = false;
  double url_precision = 0, url_recall = 0, url_f1 = 0;
  // Pair gold with a "variant" field: per variant, pairs judged and pairs
  // predicted duplicate.
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_variant;
};

struct GoldDedup {
  struct LabelledPair {
    std::string a, b, variant;
    bool duplicate = false;
  };
  std::vector<LabelledPair> pairs;
  std::vector<std::vector<std::string>> clusters;  // when the gold is a clustering
};

Result<GoldDedup> load_gold_dedup(const std::string& path);
// Predicted clusters from `husk dedup` output.
Result<std::vector<std::vector<std::string>>> load_clusters(const std::string& path);

DedupScore score_dedup(const GoldDedup& gold, const std::vector<std::vector<std::string>>& clusters);

}  // namespace husk
