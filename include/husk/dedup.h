// Dedup: signatures -> near-duplicate pairs -> clusters (Sergukova's
// Mail.Ru lecture «Поиск дубликатов»; the clusterings of the «Неточная
// кластеризация» homework report).
//
// Never all pairs. Candidate generation is a map (page -> bucket keys) and
// a reduce (bucket -> verified pairs), then clustering merges pair lists;
// the same steps can run sharded and give the same clusters:
//   simhash       Manku, Jain, Das Sarma, "Detecting near-duplicates for
//                 web crawling" (WWW 2007): permuted tables keyed on blocks
//                 of the fingerprint (pigeonhole), a bucket over (1+mu) x
//                 the average re-split on the bits it has not fixed
//                 («Simhash算法优化»)
//   minhash       LSH bands (Sergukova's lecture), banding chosen for the threshold,
//                 verified by the estimated Jaccard similarity
//   supershingles buckets per super-shingle, two shared make a pair
//   spotsigs      inverted index over spots with SpotSigs' length-ratio
//                 bound, verified by the spot sets' Jaccard similarity
//   md5, tfidf, long_sent, heavy_sent, imatch, lexrand
//                 hash joins on the signature value(s)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "husk/sign.h"
#include "husk/status.h"

namespace husk {

struct DedupPage {
  std::string id;
  std::string url;
  std::string title;
  double rank = 0;         // "rank" field of the record, larger = more popular
  double boilerplate = 0;  // share of the page's visible words extraction removed
  std::string language;    // primary language subtag ("en"), empty when unknown
  Signatures sig;
};

// The containment measure's default threshold. Reuse found in the wild
// copies part of a text and revises it: a quotation or a paragraph inside
// a longer text, a lightly or heavily revised copy share 10-40% of the
// smaller text's shingles. On the constructed set of such reuse
// (tests/bench/dedup_dev_cases.py, "revised"; docs/cli.md, "Containment")
// F1 is 0.938 at 0.1 and 0.493 at 0.5, with precision 0.961 and 0.947
// (connected components, the default clustering).
inline constexpr double kContainmentThreshold = 0.1;

// A verified near-duplicate pair: page indexes a < b and the signer's own
// measure (Hamming distance, or estimated Jaccard similarity).
struct Pair {
  uint32_t a = 0;
  uint32_t b = 0;
  float score = 0;
  // With the containment measure: 1 when a is contained in b, 2 when b is
  // contained in a (the score is that containment); 0 otherwise.
  uint8_t contained = 0;
  bool operator==(const Pair& o) const { return a == o.a && b == o.b; }
  bool operator<(const Pair& o) const { return a != o.a ? a < o.a : b < o.b; }
};

enum class ClusterMethod { kComponents, kCentre, kDegree };
enum class MainPage { kFirst, kRank, kLeastBoilerplate };

struct DedupOptions {
  // minhash by default: on the near-duplicate dev set it scores the best
  // pairwise F1 (0.999 at 0.5) with or without collection statistics,
  // where simhash falls to 0.976 when signed without an IDF file.
  std::string method = "minhash";
  // simhash: Hamming distance <= k. 6 of 64 bits: cosine >= cos(6 pi / 64)
  // = 0.96; on the dev set F1 is flat from k = 6 to 12 and no "same
  // template, other article" pair comes closer than 22.
  uint32_t k = 6;
  // minhash / spotsigs: Jaccard similarity >= threshold. 0.5 on word
  // 5-shingles (text-dedup and datasketch use 0.5-0.8). With the
  // containment measure the smallest containment, kContainmentThreshold
  // unless a caller names one.
  double threshold = 0.5;
  // minhash: "jaccard" (near-duplicates: |A∩B| / |A∪B|) or "containment"
  // (text reuse: |A∩B| / |A| for the smaller text A, Broder 1997), both
  // on the shingle sketches.
  std::string measure = "jaccard";
  // minhash: the bottom-k sketch size the pages were signed with
  // (SignOptions::minhash_sketch); a sketch this long stands for a larger set.
  uint32_t sketch = 256;
  // Connected components of the verified pairs (the union-find over LSH
  // pairs of Broder 1997 and of the MinHash pipelines of datatrove and
  // text-dedup): a cluster does not depend on the order pages arrive in,
  // so the index, which sees one page at a time and merges the clusters a
  // new page joins, reaches the same clusters as husk dedup on the same
  // pages in any order. Measured on the near-duplicate dev set: components
  // F1 0.995, degree 0.995, centre in input order 0.983 (a variant read
  // before its original becomes the centre and loses the other variants);
  // on the 2,941 distinct pages of the four extraction collections the
  // three give the same 35 clusters. Degree (max-degree stars) and centre
  // stay as options: they do not chain through intermediate pages, but a
  // page's cluster then depends on what arrived before it.
  ClusterMethod cluster = ClusterMethod::kComponents;
  MainPage main = MainPage::kFirst;
  // Pairs whose term counts differ by more than this share of the longer
  // are not compared (Sergukova's lecture: length windows of +-20%); 0 turns it off.
  double length_window = 0;
  // Pages in different languages are not compared (Sergukova's lecture:
  // group by language first; a translation is not a near-duplicate). A
  // page of unknown language is compared with all.
  bool within_language = true;
  // minhash: a page whose sketch holds fewer distinct shingles than this
  // is a near-duplicate only of a page with the same shingles (similarity
  // 1): a few words, or a row of masked numbers repeated, resemble many
  // unrelated pages. 8 shingles = a text of 12 distinct words in order.
  uint32_t min_shingles = 8;
  // Bucket re-split threshold (1 + mu) x the average bucket («Simhash算法优化»: mu 2).
  double mu = 2.0;
};

// The threshold a measure takes unless the caller names one: Jaccard's
// DedupOptions::threshold, or kContainmentThreshold for containment. husk
// dedup, the service, the hook and Python all default through it.
inline double default_threshold(std::string_view measure) {
  return measure == "containment" ? kContainmentThreshold : DedupOptions{}.threshold;
}

struct DedupStats {
  uint64_t candidates = 0;  // pairs compared
  uint64_t pairs = 0;       // pairs verified
  std::vector<uint64_t> distance_histogram;  // simhash: candidates per Hamming distance 0-64
};

std::vector<std::string> dedup_methods();

// Verified pairs, sorted and unique. Fails on an unknown method and on two
// pages with one id.
Result<std::vector<Pair>> find_pairs(const std::vector<DedupPage>& pages, const DedupOptions& options,
                                     DedupStats* stats = nullptr);

struct Cluster {
  uint32_t main = 0;
  std::vector<uint32_t> members;  // sorted, main included
};

// Clusters of two or more of `pages` pages (all of them with `singletons`)
// from the pairs alone, ordered by their first member, whose main page is
// the centre every member was verified against (centre, degree) or the
// first member (components, which have no centre).
std::vector<Cluster> cluster_pairs(std::size_t pages, const std::vector<Pair>& pairs, ClusterMethod method,
                                   bool singletons = false);

// The clustering and main-page choices by name, as the CLI and the Python
// module take them: "components" | "centre" (or "center") | "degree";
// "first" | "rank" | "boilerplate".
Result<ClusterMethod> cluster_method_named(const std::string& name);
// The name cluster_method_named takes for `method`.
std::string cluster_method_name(ClusterMethod method);
Result<MainPage> main_page_named(const std::string& name);

// The same, with the main page chosen by options.main (MainPage::kFirst:
// the centre, or a component's first page).
std::vector<Cluster> cluster_pages(const std::vector<DedupPage>& pages, const std::vector<Pair>& pairs,
                                   const DedupOptions& options, bool singletons = false);

// The simhash candidate search alone: every pair (a < b) within Hamming
// distance k, sorted.
std::vector<Pair> simhash_table_pairs(const std::vector<uint64_t>& fingerprints, uint32_t k, double mu = 2.0,
                                      DedupStats* stats = nullptr);

// LSH banding for a Jaccard threshold over n minima: the most rows r (the
// fewest false candidates) whose S-curve 1 - (1 - t^r)^b still gives a pair
// at exactly t a 0.99 chance; b = n / r. Returns (b, r).
std::pair<uint32_t, uint32_t> lsh_bands_for(double threshold, uint32_t minima);

// ---- Segment-level dedup ----

// Paragraphs seen on earlier pages of a run, left out of later texts
// (CCNet's paragraph dedup, Wenzek et al. 2020; trafilatura's
// --deduplicate): a site's notices, bylines and newsletter prompts, a
// syndicated story's paragraphs. A paragraph is a blank-line separated
// part of a clean text, compared by the hash of its words (white space
// collapsed). Not thread-safe: a run filters its pages in their order, so
// that the same pages give the same texts whatever the threads.
// How many earlier texts held a paragraph (by its hash): what
// SeenParagraphs keeps in memory for a run and the index in LMDB across
// runs.
class ParagraphCounts {
 public:
  virtual ~ParagraphCounts() = default;
  virtual uint32_t texts_holding(uint64_t paragraph) = 0;
  // One more text holds it (a count may decline to grow: a bound).
  virtual void count_one_more(uint64_t paragraph) = 0;
};

// The one decision of segment-level dedup: `text` without the paragraphs
// that `repeats` earlier texts held; each other distinct paragraph counted
// once more. A paragraph the text repeats goes or stays with its first.
// Returns how many paragraphs it dropped.
std::size_t drop_seen_paragraphs(std::string& text, uint32_t repeats, ParagraphCounts& counts);
// The warning of a record whose text lost `dropped` such paragraphs
// (husk extract's records and the service's answers alike).
std::string seen_paragraphs_warning(std::size_t dropped);
// The distinct paragraph hashes of a text, as drop_seen_paragraphs counts
// them (to take a text that leaves out of the counts).
std::vector<uint64_t> paragraph_hashes(std::string_view text);

class SeenParagraphs : private ParagraphCounts {
 public:
  // A paragraph is dropped once `repeats` earlier texts held it (1: the
  // first page keeps it, every later one loses it). At most `capacity`
  // distinct paragraphs are remembered; beyond it new ones are no longer
  // counted (and never dropped), those already counted still are.
  explicit SeenParagraphs(uint32_t repeats, std::size_t capacity = std::size_t(1) << 24);
  // `text` without its paragraphs seen often enough already; counts each
  // of its paragraphs once. Returns how many paragraphs it dropped.
  std::size_t filter(std::string& text);
  std::size_t remembered() const { return seen_.size(); }

 private:
  uint32_t texts_holding(uint64_t paragraph) override;
  void count_one_more(uint64_t paragraph) override;

  uint32_t repeats_;
  std::size_t capacity_;
  std::unordered_map<uint64_t, uint32_t> seen_;  // paragraph hash -> texts that held it
};

// ---- Per-host boilerplate ----

// Lines that recur across many documents of one host are the host's frame
// (navigation, footers, notices, the labels of a data form), not its
// documents' content; two pages of one site that share their frame around
// different items are not near-duplicates. HostLines counts, per host (the
// host of each record's URL), in how many documents each line occurs, and
// strips from a text the lines that occur in at least
//   max(min_documents, share x the host's documents)
// of its host's documents. The share keeps the lines of a story that a
// host repeats in several copies: those are what near-duplicates share.
// Lines are compared with white space collapsed; numbers are kept, so that
// pages that differ only in their figures (data sheets, prices) keep them
// (a frame line with a date that changes stays too). Texts without a host
// are left as they are, and so is a
// text all of whose lines would go (a page that is all frame, or the copies
// of one story that fill a host: what near-duplicates share).
//
// Counts live in a count-min sketch with conservative update (Cormode and
// Muthukrishnan 2005; Estan and Varghese 2002): fixed memory whatever the
// corpus, an estimate that can only be too high (so a host's document
// count, and with it the threshold, errs high: lines are kept rather than
// stripped), exact while the distinct lines are few beside its width.
struct HostLineOptions {
  uint32_t min_documents = 10;  // 0: no line is frame (off)
  double share = 0.5;
};

// The keys one document adds to its host's counts: its host's document
// key, then one per distinct line; empty without a host. Thread-safe.
std::vector<uint64_t> host_line_keys(std::string_view url, std::string_view text);
// `text` without its host's frame lines, by the counts `count` gives for
// the keys host_line_keys makes, into `kept`; returns how many lines went
// (0 when none went or none would be left: `kept` is then empty). HostLines
// counts in memory for a run; the index (IndexOptions::host_lines) keeps
// exact counts in LMDB across runs.
std::size_t strip_host_lines(std::string_view url, std::string_view text, std::string& kept,
                             const HostLineOptions& options, const std::function<uint32_t(uint64_t)>& count);

class HostLines {
 public:
  // 4 rows of 2^width_log2 counters (4 bytes each): 64 MiB at 22, taken
  // when the first document with a host is counted (a corpus without URLs
  // costs nothing).
  explicit HostLines(uint32_t width_log2 = 22);
  // Counts one document's keys (host_line_keys). Not thread-safe.
  void count(const std::vector<uint64_t>& keys);
  // `text` without its host's frame lines, into `kept`; returns how many
  // lines went (0 when none went or none would be left: `kept` is then
  // empty and the text is used as it is). Thread-safe once counting is over.
  std::size_t strip(std::string_view url, std::string_view text, std::string& kept,
                    const HostLineOptions& options) const;
  // The counters, for summing the counts of several ranks element-wise
  // (taken here if nothing was counted yet).
  std::vector<uint32_t>& counters();

 private:
  uint32_t estimate(uint64_t key) const;
  uint32_t width_log2_;
  std::vector<uint32_t> counters_;  // row-major, 4 rows
};

}  // namespace husk
