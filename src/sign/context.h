// What the signers share for one document: the normalised text, options,
// collection statistics, and the per-document tables computed once on
// first use (term weights, shingle hashes, minhash minima).
#pragma once

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "husk/sign.h"

namespace husk {

struct TermWeight {
  std::string_view term;
  uint32_t count = 0;
  double weight = 0;  // tf * idf
};

class SignContext {
 public:
  SignContext(const NormalizedText& text, const SignOptions& options, const CollectionStats* stats)
      : text(text), options(options), stats(stats) {}

  const NormalizedText& text;
  const SignOptions& options;
  const CollectionStats* stats;

  // idf from the collection; without one, 1 for every term but stop words (0).
  double idf(std::string_view term) const;
  // I-Match's lexicon band (see SignOptions); without statistics, every
  // term that is not a stop word.
  bool in_lexicon(std::string_view term) const;
  bool is_stopword(std::string_view term) const;

  // Distinct terms with counts and tf*idf weights, sorted by term.
  const std::vector<TermWeight>& weights();
  double weight_of(std::string_view term);
  // Hashes of the document's word w-shingles (terms joined by spaces); a
  // text shorter than w is one shingle of all its terms.
  std::vector<uint64_t> word_shingles(uint32_t w) const;
  // The minhash minima over options.minhash_* shingles, computed once.
  const std::vector<uint64_t>& minima();
  // The sentence's terms joined by spaces.
  std::string sentence_text(const Sentence& s) const;

 private:
  std::optional<std::vector<TermWeight>> weights_;
  std::unordered_map<std::string_view, double> weight_index_;
  std::optional<std::vector<uint64_t>> minima_;
};

// One signer: its name and what it fills in.
struct Signer {
  const char* name;
  void (*sign)(SignContext& context, Signatures& out);
};

// Defined one per file (src/sign/*.cc).
extern const Signer kMd5Signer, kTfidfSigner, kLongSentSigner, kHeavySentSigner, kLexrandSigner, kImatchSigner,
    kSimhashSigner, kSimhashHyperplaneSigner, kMinhashSigner, kSupershinglesSigner, kSpotsigsSigner;

// Indexes of the top `count` items by score (higher first, ties to the
// lower index), returned in index order.
std::vector<uint32_t> top_in_order(const std::vector<double>& scores, uint32_t count);

}  // namespace husk
