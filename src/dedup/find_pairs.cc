// find_pairs(): the candidate search and verification of every signer (see
// husk/dedup.h), each a map (page -> bucket keys) and a reduce (bucket ->
// verified pairs).
#include <algorithm>
#include <bit>
#include <cmath>
#include <unordered_map>
#include <span>
#include <unordered_set>

#include "dedup/search.h"
#include "husk/metadata.h"
#include "sign/hashing.h"

namespace husk {

namespace {

// A bucket key of one page, the intermediate record of the map step.
struct Keyed {
  uint64_t key;
  uint32_t page;
  bool operator<(const Keyed& o) const { return key != o.key ? key < o.key : page < o.page; }
};

// The reduce step of the exact-match signers: pages sharing a key are
// duplicates of each other, so a bucket becomes a star of pairs around its
// first page (the same connected components as all its pairs, in linear
// size; the greedy clusterings find the same groups too).
void join_stars(std::vector<Keyed>& keyed, std::vector<Pair>& out, DedupStats* stats) {
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t i = 0; i < keyed.size();) {
    std::size_t j = i + 1;
    while (j < keyed.size() && keyed[j].key == keyed[i].key) ++j;
    for (std::size_t t = i + 1; t < j; ++t) {
      if (keyed[t].page == keyed[i].page) continue;
      out.push_back({keyed[i].page, keyed[t].page, 1.0f});
      if (stats) ++stats->candidates;
    }
    i = j;
  }
}

uint64_t string_key(const std::string& s) { return xxh64(s, 0); }

std::vector<Keyed> exact_keys(const std::vector<DedupPage>& pages, const std::string& method) {
  std::vector<Keyed> keyed;
  for (uint32_t i = 0; i < pages.size(); ++i) {
    const Signatures& s = pages[i].sig;
    if (method == "md5" && !s.md5.empty()) keyed.push_back({string_key(s.md5), i});
    if (method == "imatch" && !s.imatch.empty()) keyed.push_back({string_key(s.imatch), i});
    if (method == "tfidf" && s.tfidf) keyed.push_back({*s.tfidf, i});
    if (method == "long_sent" && s.long_sent) keyed.push_back({*s.long_sent, i});
    if (method == "heavy_sent" && s.heavy_sent) keyed.push_back({*s.heavy_sent, i});
    // lexrand: one key per (copy, hash); one shared makes a duplicate.
    if (method == "lexrand")
      for (const auto& [copy, hash] : s.lexrand) keyed.push_back({(static_cast<uint64_t>(copy) << 32) | hash, i});
    // supershingles: two shared of six make a duplicate, so each page is
    // keyed by each of its 15 pairs of (position, super-shingle).
    if (method == "supershingles")
      for (std::size_t a = 0; a < s.supershingles.size(); ++a)
        for (std::size_t b = a + 1; b < s.supershingles.size(); ++b) {
          uint64_t mixed = s.supershingles[a] ^ (s.supershingles[b] * 0x9E3779B97F4A7C15ull) ^ (a << 8 | b);
          keyed.push_back({splitmix64(mixed), i});
        }
  }
  return keyed;
}

// The values two sorted, distinct sequences share.
std::size_t common_values(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  std::size_t shared = 0;
  for (std::size_t x = 0, y = 0; x < a.size() && y < b.size();) {
    if (a[x] == b[y]) {
      ++shared;
      ++x;
      ++y;
    } else if (a[x] < b[y]) {
      ++x;
    } else {
      ++y;
    }
  }
  return shared;
}

bool comparable(const DedupPage& a, const DedupPage& b, const DedupOptions& o) {
  return comparable_pages(a.language, a.sig.terms, b.language, b.sig.terms, o);
}

void minhash_pairs(const std::vector<DedupPage>& pages, const DedupOptions& o, std::vector<Pair>& out,
                   DedupStats* stats) {
  uint32_t n = 0;
  static const std::vector<uint32_t> kNoBands;
  std::vector<const std::vector<uint32_t>*> minhashes, sketches;
  std::vector<Keyed> whole;  // pages of few shingles, by their whole sketch
  for (uint32_t i = 0; i < pages.size(); ++i) {
    const DedupPage& p = pages[i];
    n = std::max<uint32_t>(n, static_cast<uint32_t>(p.sig.minhash.size()));
    const bool few = few_shingles(p.sig, o);
    if (few) whole.push_back({whole_sketch_key(p.sig), i});
    minhashes.push_back(few ? &kNoBands : &p.sig.minhash);
    sketches.push_back(&p.sig.shingles);
  }
  if (n == 0) return;
  auto [bands, rows] = lsh_bands_for(o.threshold, n);
  if (stats) stats->distance_histogram.assign(21, 0);
  std::vector<Pair> candidates = lsh_candidates(minhashes, sketches, bands, rows);
  join_stars(whole, candidates, nullptr);  // pairs a < b, as the bands' are
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (const Pair& c : candidates) {
    const DedupPage& a = pages[c.a];
    const DedupPage& b = pages[c.b];
    if (!comparable(a, b, o)) continue;
    double j = minhash_similarity(a.sig, b.sig, o.sketch);
    if (stats) {
      ++stats->candidates;
      ++stats->distance_histogram[static_cast<std::size_t>(std::lround(j * 20))];
    }
    if (near_duplicate(j, distinct_shingles(a.sig), distinct_shingles(b.sig), o)) out.push_back({c.a, c.b, static_cast<float>(j)});
  }
}

// Containment (text reuse): candidates share at least kSharedForCandidate
// sketch values. A text A inside a longer B shares its hashes that fall
// among B's k smallest: about k |A∩B| / |B| of them, so pairs up to a
// size ratio of k / 4 (64 for k = 256) meet with high probability. Values
// held by more than max(1000, 1%) of the pages separate nothing and are
// skipped, as spotsigs skips its common spots.
void containment_pairs(const std::vector<DedupPage>& pages, const DedupOptions& o, std::vector<Pair>& out,
                       DedupStats* stats) {
  constexpr uint32_t kSharedForCandidate = 2;
  std::unordered_map<uint32_t, std::vector<uint32_t>> postings;
  for (uint32_t i = 0; i < pages.size(); ++i)
    for (uint32_t v : pages[i].sig.shingles) postings[v].push_back(i);
  const std::size_t max_df = std::max<std::size_t>(1000, pages.size() / 100);
  std::unordered_map<uint32_t, uint32_t> shared;
  if (stats) stats->distance_histogram.assign(21, 0);
  for (uint32_t i = 0; i < pages.size(); ++i) {
    shared.clear();
    for (uint32_t v : pages[i].sig.shingles) {
      const std::vector<uint32_t>& with = postings[v];
      if (with.size() > max_df) continue;
      for (uint32_t j : with)
        if (j > i) ++shared[j];
    }
    for (const auto& [j, n] : shared) {
      const DedupPage& a = pages[i];
      const DedupPage& b = pages[j];
      if (n < std::min<std::size_t>(kSharedForCandidate, std::min(a.sig.shingles.size(), b.sig.shingles.size())))
        continue;
      if (!comparable(a, b, o)) continue;
      const double a_in_b = sketch_containment(a.sig.shingles, b.sig.shingles, o.sketch);
      const double b_in_a = sketch_containment(b.sig.shingles, a.sig.shingles, o.sketch);
      const bool a_smaller = a_in_b >= b_in_a;
      const double c = std::max(a_in_b, b_in_a);
      if (stats) {
        ++stats->candidates;
        ++stats->distance_histogram[static_cast<std::size_t>(std::lround(c * 20))];
      }
      // The contained text must carry enough to be told from a stock phrase.
      if ((a_smaller ? a : b).sig.shingles.size() < o.min_shingles || c < o.threshold) continue;
      out.push_back({i, j, static_cast<float>(c), static_cast<uint8_t>(a_smaller ? 1 : 2)});
    }
  }
}

// SpotSigs (Theobald et al. 2008): an inverted index from spot to pages;
// pages are visited by growing spot-set size, and a pair is only counted
// when the smaller set is at least `threshold` of the larger (Jaccard can
// not exceed that ratio). Spots in more than max(1000, 1%) of the pages
// are skipped as candidates' sources: they separate nothing.
void spotsig_pairs(const std::vector<DedupPage>& pages, const DedupOptions& o, std::vector<Pair>& out,
                   DedupStats* stats) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < pages.size(); ++i)
    if (!pages[i].sig.spotsigs.empty()) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return pages[a].sig.spotsigs.size() < pages[b].sig.spotsigs.size();
  });
  std::unordered_map<uint32_t, uint32_t> df;
  for (uint32_t i : order)
    for (uint32_t spot : pages[i].sig.spotsigs) ++df[spot];
  const uint32_t max_df = std::max<uint32_t>(1000, static_cast<uint32_t>(pages.size() / 100));
  std::unordered_map<uint32_t, std::vector<uint32_t>> postings;
  std::unordered_map<uint32_t, uint32_t> overlap;
  if (stats) stats->distance_histogram.assign(21, 0);
  for (uint32_t i : order) {
    const auto& spots = pages[i].sig.spotsigs;
    const double size = static_cast<double>(spots.size());
    overlap.clear();
    for (uint32_t spot : spots) {
      if (df[spot] > max_df) continue;
      for (uint32_t j : postings[spot])
        if (static_cast<double>(pages[j].sig.spotsigs.size()) >= o.threshold * size) ++overlap[j];
    }
    for (const auto& [j, common] : overlap) {
      if (!comparable(pages[i], pages[j], o)) continue;
      // Exact Jaccard of the sorted spot sets.
      const auto& a = pages[i].sig.spotsigs;
      const auto& b = pages[j].sig.spotsigs;
      const std::size_t shared = common_values(a, b);
      double jac = static_cast<double>(shared) / static_cast<double>(a.size() + b.size() - shared);
      if (stats) {
        ++stats->candidates;
        ++stats->distance_histogram[static_cast<std::size_t>(std::lround(jac * 20))];
      }
      if (jac >= o.threshold) out.push_back({std::min(i, j), std::max(i, j), static_cast<float>(jac)});
    }
    for (uint32_t spot : spots)
      if (df[spot] <= max_df) postings[spot].push_back(i);
  }
}

}  // namespace

double estimated_jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::size_t n = std::min(a.size(), b.size());
  if (n == 0) return 0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < n; ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(n);
}

bool comparable_pages(const std::string& language_a, uint32_t terms_a, const std::string& language_b,
                      uint32_t terms_b, const DedupOptions& o) {
  if (o.within_language && !language_a.empty() && !language_b.empty() && !same_language(language_a, language_b))
    return false;
  if (o.length_window <= 0) return true;
  double la = terms_a, lb = terms_b;
  return std::abs(la - lb) <= o.length_window * std::max(la, lb);
}

double sketch_jaccard(std::span<const uint32_t> a, std::span<const uint32_t> b, uint32_t k) {
  if (a.empty() || b.empty()) return 0;
  uint32_t tau = UINT32_MAX;
  if (a.size() >= k) tau = std::min(tau, a.back());
  if (b.size() >= k) tau = std::min(tau, b.back());
  std::size_t both = 0, either = 0;
  for (std::size_t x = 0, y = 0; (x < a.size() && a[x] <= tau) || (y < b.size() && b[y] <= tau);) {
    bool ax = x < a.size() && a[x] <= tau, by = y < b.size() && b[y] <= tau;
    ++either;
    if (ax && by && a[x] == b[y]) {
      ++both;
      ++x;
      ++y;
    } else if (ax && (!by || a[x] < b[y])) {
      ++x;
    } else {
      ++y;
    }
  }
  return either ? static_cast<double>(both) / static_cast<double>(either) : 0;
}

double minhash_similarity(const Signatures& a, const Signatures& b, uint32_t k) {
  if (!a.shingles.empty() && !b.shingles.empty()) return sketch_jaccard(a.shingles, b.shingles, k);
  return estimated_jaccard(a.minhash, b.minhash);
}

double sketch_containment(std::span<const uint32_t> a, std::span<const uint32_t> b, uint32_t k) {
  if (a.empty() || b.empty()) return 0;
  if (a.size() < k && b.size() < k) return static_cast<double>(common_values(a, b)) / static_cast<double>(a.size());
  auto size_of = [k](std::span<const uint32_t> s) {
    if (s.size() < k) return static_cast<double>(s.size());
    return static_cast<double>(k - 1) * 4294967296.0 / (static_cast<double>(s[k - 1]) + 1.0);
  };
  const double j = sketch_jaccard(a, b, k), na = size_of(a), nb = size_of(b);
  return std::min(1.0, j * (na + nb) / (1.0 + j) / na);
}

bool few_shingles(const Signatures& s, const DedupOptions& o) {
  return !s.shingles.empty() && s.shingles.size() < o.min_shingles;
}

uint64_t whole_sketch_key(const Signatures& s) {
  // Seeded apart from the band keys (seeds 0 .. bands - 1).
  return xxh64(std::string_view(reinterpret_cast<const char*>(s.shingles.data()), s.shingles.size() * sizeof(uint32_t)),
               0x5348494e474c45ull);
}

bool near_duplicate(double similarity, std::size_t shingles_a, std::size_t shingles_b, const DedupOptions& o) {
  if (std::min(shingles_a, shingles_b) < o.min_shingles) return similarity >= 1.0;
  return similarity >= o.threshold;
}

uint64_t band_key(const std::vector<uint32_t>& minhash, uint32_t band, uint32_t rows) {
  std::string_view bytes(reinterpret_cast<const char*>(minhash.data() + band * rows), rows * sizeof(uint32_t));
  return xxh64(bytes, band);
}

std::pair<uint32_t, uint32_t> lsh_bands_for(double t, uint32_t n) {
  for (uint32_t r = std::min<uint32_t>(n, 16); r >= 1; --r) {
    uint32_t b = n / r;
    if (1.0 - std::pow(1.0 - std::pow(t, r), b) >= 0.99) return {b, r};
  }
  return {n, 1};
}

// The map step keys each page by (band, hash of the band's rows); the
// reduce step pairs the pages of each key. A heavy bucket (kHeavyBucket) is
// reduced by pair_heavy_bucket (the clusterings that verify members
// against a centre need every copy to meet what its text meets, not only
// components).
std::vector<Pair> lsh_candidates(const std::vector<const std::vector<uint32_t>*>& minhashes,
                                 const std::vector<const std::vector<uint32_t>*>& sketches, uint32_t bands,
                                 uint32_t rows) {
  std::vector<Keyed> keyed;
  std::vector<Pair> candidates;
  auto whole = [&](uint32_t page) {
    const auto& m = sketches[page]->empty() ? *minhashes[page] : *sketches[page];
    return xxh64(std::string_view(reinterpret_cast<const char*>(m.data()), m.size() * sizeof(uint32_t)), 0);
  };
  auto add = [&](uint32_t a, uint32_t b) {
    if (a != b) candidates.push_back({std::min(a, b), std::max(a, b), 0});
  };
  for (uint32_t band = 0; band < bands; ++band) {
    keyed.clear();
    for (uint32_t i = 0; i < minhashes.size(); ++i) {
      const auto& m = *minhashes[i];
      if (m.size() < (band + 1) * rows) continue;
      keyed.push_back({band_key(m, band, rows), i});
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < keyed.size();) {
      std::size_t j = i + 1;
      while (j < keyed.size() && keyed[j].key == keyed[i].key) ++j;
      if (j - i >= kHeavyBucket) {
        std::vector<std::pair<uint64_t, uint32_t>> bucket;
        for (std::size_t x = i; x < j; ++x) bucket.emplace_back(whole(keyed[x].page), keyed[x].page);
        pair_heavy_bucket(bucket, add);
      } else {
        for (std::size_t x = i; x < j; ++x)
          for (std::size_t y = x + 1; y < j; ++y) add(keyed[x].page, keyed[y].page);
      }
      i = j;
    }
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  return candidates;
}

Status id_given_twice(const std::string& id) {
  return Status(Code::kInvalidArgument, "the id \"" + id + "\" is given twice: every page needs an id of its own");
}

std::vector<std::string> dedup_methods() {
  return {"simhash", "simhash_hyperplane", "minhash", "supershingles", "spotsigs", "md5",
          "tfidf",   "long_sent",          "heavy_sent", "imatch",      "lexrand"};
}

Result<std::vector<Pair>> find_pairs(const std::vector<DedupPage>& pages, const DedupOptions& o, DedupStats* stats) {
  std::vector<Pair> out;
  // A cluster names its pages by id: two pages under one id would make a
  // cluster name one page twice.
  std::unordered_set<std::string_view> ids;
  for (const DedupPage& p : pages)
    if (!ids.insert(p.id).second)
      return id_given_twice(p.id);
  const std::string& m = o.method;
  if (m == "simhash" || m == "simhash_hyperplane") {
    // Pages without the fingerprint are left out of the search.
    std::vector<uint64_t> fp;
    std::vector<uint32_t> index;
    for (uint32_t i = 0; i < pages.size(); ++i) {
      const auto& v = m == "simhash" ? pages[i].sig.simhash : pages[i].sig.simhash_hyperplane;
      if (!v) continue;
      fp.push_back(*v);
      index.push_back(i);
    }
    for (const Pair& p : simhash_table_pairs(fp, o.k, o.mu, stats)) {
      Pair q{index[p.a], index[p.b], p.score};
      if (comparable(pages[q.a], pages[q.b], o)) out.push_back(q);
    }
  } else if (m == "minhash" && o.measure == "containment") {
    containment_pairs(pages, o, out, stats);
  } else if (m == "minhash") {
    if (o.measure != "jaccard")
      return Status(Code::kInvalidArgument, "unknown measure \"" + o.measure + "\" (known: jaccard, containment)");
    minhash_pairs(pages, o, out, stats);
  } else if (m == "spotsigs") {
    spotsig_pairs(pages, o, out, stats);
  } else {
    std::vector<std::string> known = dedup_methods();
    if (std::find(known.begin(), known.end(), m) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return Status(Code::kInvalidArgument, "unknown method \"" + m + "\" (known: " + list + ")");
    }
    std::vector<Keyed> keyed = exact_keys(pages, m);
    std::vector<Pair> stars;
    join_stars(keyed, stars, stats);
    for (const Pair& p : stars)
      if (comparable(pages[p.a], pages[p.b], o))
        out.push_back({std::min(p.a, p.b), std::max(p.a, p.b), p.score});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (stats) stats->pairs = out.size();
  return out;
}

}  // namespace husk
