// Sign: normalised text -> near-duplicate signatures: MD5, TF*IDF, Long
// Sent, Heavy Sent and Lex Rand as Sergukova's Mail.Ru lecture «Поиск
// дубликатов» compares them; I-Match, shingling and SpotSigs as surveyed in
// «网页去重-算法篇»; simhash (Charikar 2002) with the random-hyperplane
// variant of the «Неточная кластеризация» homework report.
//
// Every signer is deterministic across runs and machines: hashes are
// xxHash64/CRC32/MD5/SHA-1 of UTF-8 bytes, random choices come from a fixed
// seed, and ties are broken by term or position.
//
// Also here: collection statistics (document frequencies) for the global
// signers, built in one streaming pass with lossy counting (Manku &
// Motwani, "Approximate Frequency Counts over Data Streams", VLDB 2002):
// memory stays bounded by O(1/epsilon * log(epsilon * N)) entries for N
// (document, term) pairs, counts are exact until N reaches 1/epsilon and
// under-count by at most epsilon * N after that; only terms rarer than that
// are forgotten, and for IDF they weigh the most anyway. File format (text,
// UTF-8, one record per line):
//   husk-idf 1                version header
//   documents N               documents counted
//   epsilon E                 the lossy-counting error bound used
//   normalize OPTIONS         how terms were normalised (husk::describe)
//   TERM<TAB>DF               one line per term, sorted by term bytes
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "husk/normalize.h"
#include "husk/status.h"

namespace husk {

// ---- Collection statistics ----

// Looks terms up by std::string_view without building a string.
struct TermHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

struct CollectionStats {
  uint64_t documents = 0;
  std::string normalize;  // the normalisation the terms went through
  std::unordered_map<std::string, uint64_t, TermHash, std::equal_to<>> df;

  // log(N / df) (TF*IDF in Sergukova's lecture); a term the collection
  // never saw counts as seen once.
  double idf(std::string_view term) const;
  // df / N, 0 for unseen terms.
  double df_share(std::string_view term) const;
};

class DfCounter {
 public:
  // epsilon 1e-6: exact below a million (document, term) pairs, about a
  // thousand documents of error on a billion.
  explicit DfCounter(double epsilon = 1e-6);
  // `terms` may repeat; each distinct term counts once for the document.
  void add_document(const std::vector<std::string>& terms);
  CollectionStats finish() const;
  std::size_t entries() const { return counts_.size(); }

 private:
  struct Entry {
    uint64_t count;
    uint64_t delta;
  };
  void prune();
  double epsilon_;
  uint64_t bucket_width_;
  uint64_t items_ = 0;
  uint64_t documents_ = 0;
  std::unordered_map<std::string, Entry> counts_;
};

Status save_collection_stats(const CollectionStats& stats, double epsilon, const std::string& path);
// A bad line is reported with the file, line and field.
Result<CollectionStats> load_collection_stats(const std::string& path);

// ---- Signatures ----

// The signatures of one document. A signer that was not run, or that has
// nothing to sign (no sentence, no lexicon term), leaves its field empty.
// The most super-shingles a signature read from JSON may hold (the signer
// writes supershingle_groups, 6 by default).
constexpr std::size_t kMaxSupershingles = 64;

struct Signatures {
  uint32_t terms = 0;                     // normalised terms (document length)
  std::string md5;                        // 32 hex digits of MD5(terms joined by spaces)
  std::optional<uint32_t> tfidf;          // CRC32
  std::optional<uint32_t> long_sent;      // CRC32
  std::optional<uint32_t> heavy_sent;     // CRC32
  std::vector<std::pair<uint32_t, uint32_t>> lexrand;  // (copy number, CRC32)
  std::string imatch;                     // 40 hex digits of SHA-1
  std::optional<uint64_t> simhash;        // Charikar, 64 bits
  std::optional<uint64_t> simhash_hyperplane;
  std::vector<uint32_t> minhash;          // N minima (32-bit)
  // The bottom-k sketch of the same shingles: the k smallest distinct
  // 32-bit shingle hashes, sorted (all of them when the text has at most
  // k). What minhash verification measures (sketch_jaccard).
  std::vector<uint32_t> shingles;
  std::vector<uint64_t> minhash_bands;    // b band keys
  std::vector<uint64_t> supershingles;    // 6 super-shingles (at most kMaxSupershingles read from JSON)
  std::vector<uint32_t> spotsigs;         // the spot set: sorted distinct 32-bit hashes
};

struct SignOptions {
  NormalizeOptions normalize;
  // Signers to run, by name; empty runs all (signer_names()).
  std::vector<std::string> signers;
  // Seed of every random choice (minhash permutations, hyperplanes,
  // lexrand lexicons).
  uint64_t seed = 0x6875736b2d736967ull;  // "husk-sig"

  // tfidf: the L terms of highest tf*idf (L = 6 as Sergukova's lecture
  // takes from the comparison of Zelenkov & Segalovich).
  uint32_t tfidf_terms = 6;
  // long_sent / heavy_sent: the 2-3 longest / heaviest sentences
  // (Sergukova's lecture).
  uint32_t long_sent_count = 3;
  uint32_t heavy_sent_count = 3;

  // Lexicon band for lexrand and imatch (I-Match, Chowdhury et al. 2002:
  // drop the most and least frequent terms). A term is in the lexicon when
  // it occurs in at most lexicon_max_df_share of the documents (not a
  // function word) and in at least lexicon_min_df of them (not a typo).
  double lexicon_max_df_share = 0.2;
  uint64_t lexicon_min_df = 2;
  // lexrand: K copies of the lexicon, each 30% smaller (Sergukova's lecture; Kołcz,
  // Chowdhury, Alspector 2004 "Improved robustness of signature-based
  // near-replica detection via lexicon randomization"). A copy signs the
  // document when the document keeps at least min_share of its lexicon
  // terms in it (0.6: the expected share is 0.7).
  uint32_t lexrand_copies = 10;
  double lexrand_drop = 0.30;
  double lexrand_min_share = 0.6;

  // simhash (Charikar 2002): 64 bits over features weighted by tf*idf.
  // Features are terms (simhash_shingle = 1) or word w-shingles.
  uint32_t simhash_shingle = 1;
  // Random-hyperplane variant of the «Неточная кластеризация» homework
  // report: terms scattered
  // into a 37-dimensional vector (3 positions each, steps in [-5, 5]),
  // projected on 64 random hyperplanes with coordinates in [-100, 100].
  uint32_t hyperplane_dims = 37;

  // minhash (Broder 1997): N permutations over word w-shingles (or
  // character k-shingles when minhash_char_shingle > 0).
  uint32_t minhash_permutations = 128;
  uint32_t minhash_shingle = 5;
  uint32_t minhash_char_shingle = 0;
  // Bottom-k sketch size (Broder 1997's "min_s"; Cohen & Kaplan, "Summarizing
  // data using bottom-k sketches", PODC 2007). 256 holds every shingle of a
  // text up to 260 words, so near-duplicates of such texts are verified on
  // their exact (hashed) Jaccard similarity; longer texts get an estimate
  // with a standard error of about sqrt(J(1-J)/256) <= 0.031.
  uint32_t minhash_sketch = 256;
  // LSH bands b x r = 128 for a Jaccard threshold of 0.8: (1/b)^(1/r) =
  // 0.71, so P(candidate) = 1-(1-s^r)^b is 0.95 at s = 0.8, 0.998 at 0.9,
  // 0.47 at 0.7 and 0.06 at 0.5.
  uint32_t minhash_bands = 16;
  uint32_t minhash_rows = 8;

  // supershingles (Broder 1997, 2000): 84 minima in 6 groups of 14; two
  // equal super-shingles make a duplicate. The 84 are the first 84 of the
  // minhash permutations.
  uint32_t supershingle_minima = 84;
  uint32_t supershingle_groups = 6;

  // spotsigs (Theobald, Siddharth, Paepcke, SIGIR 2008): a spot is a stop
  // word (config/languages.toml) followed by the next `spot_chain` terms that
  // are not stop words.
  uint32_t spot_chain = 2;
};

std::vector<std::string> signer_names();

// Fails on an unknown signer name, and when md5 or imatch (or every signer)
// is asked for and OpenSSL's libcrypto, which they hash with, cannot be
// opened.
Status check_signers(const std::vector<std::string>& names);

// stats may be null: global signers then weigh every term 1, stop words 0
// (and lexrand/imatch keep every non-stop-word term in the lexicon).
Signatures sign(const NormalizedText& text, const SignOptions& options, const CollectionStats* stats);

// A collection signed on its own: every text normalised, the collection
// statistics (IDF) built from those texts, then every text signed with
// them, on `jobs` threads (0: one per core). What husk dedup does with
// texts that come without signatures. `progress`, when given, hears each
// pass's texts done of all ("normalising", then "signing"), on the calling
// thread, text by text.
using CollectionProgress = std::function<void(const char* pass, std::size_t done, std::size_t total)>;
std::vector<Signatures> sign_collection(const std::vector<std::string_view>& texts, const SignOptions& options,
                                        unsigned jobs = 0, const CollectionProgress& progress = {});

// Every NormalizeOptions and SignOptions field as (section.name, value) in
// config/sign.toml order; numbers as numbers, the number policy as 0/1/2.
std::vector<std::pair<std::string, double>> describe(const SignOptions& options);

// Parses a TOML configuration (the format of config/sign.toml) over the
// defaults; a bad key or value is reported with the file name and line.
Result<SignOptions> parse_sign_config(const std::string& toml_text, const std::string& source_name);
Result<SignOptions> load_sign_config(const std::string& path);

// The "sig" object of `husk sign`, as JSON text: one field per signer that
// produced something, hashes as lower-case hex (fixed width), multi-valued
// ones as arrays, lexrand as "K:HEX" strings.
std::string signatures_json(const Signatures& sig);
// The inverse: a "sig" object's JSON text back to Signatures.
Result<Signatures> parse_signatures(std::string_view json_text);

}  // namespace husk
