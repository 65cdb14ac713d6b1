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
  uint64_t hash = 0;  // xxHash64 of the term, seed 0
  bool stopword = false;
};

class SignContext {
 public:
  SignContext(const NormalizedText& text, const SignOptions& options, const CollectionStats* stats)
      : text(text), options(options), stats(stats) {}

  const NormalizedText& text;
  const SignOptions& options;
  const CollectionStats* stats;

  // idf from the collection; without one, 1 for every term but stop words (0).
  double idf(const TermWeight& term) const;
  // I-Match's lexicon band (see SignOptions); without statistics, every
  // term that is not a stop word.
  bool in_lexicon(const TermWeight& term) const;

  // Distinct terms with counts and tf*idf weights, in order of first
  // occurrence.
  const std::vector<TermWeight>& weights();
  // The distinct terms inside the lexicon band, in the order of their
  // hashes (canonical: the same set always comes in the same order).
  const std::vector<const TermWeight*>& lexicon();
  // The distinct term at a position of the text.
  const TermWeight& term_at(uint32_t position);
  // The tf*idf weight of the term at a position of the text.
  double weight_at(uint32_t position);
  // Hashes of the document's word w-shingles, each a mix of its terms'
  // hashes in order; a text shorter than w is one shingle of all its terms.
  std::vector<uint64_t> word_shingles(uint32_t w);
  // The minhash minima over options.minhash_* shingles, computed once.
  const std::vector<uint64_t>& minima();
  // The distinct minhash shingle hashes in the order of their low 32 bits
  // (then their high ones), computed once.
  const std::vector<uint64_t>& shingle_set();
  // The sentence's terms joined by spaces.
  std::string sentence_text(const Sentence& s) const;

 private:
  const std::vector<uint64_t>& term_hashes();

  std::vector<uint64_t> term_hashes_;  // per position, xxHash64 seed 0
  std::optional<std::vector<TermWeight>> weights_;
  std::vector<uint32_t> slot_;  // per position: index into weights_
  std::optional<std::vector<const TermWeight*>> lexicon_;
  std::optional<std::vector<uint64_t>> minima_;
  std::optional<std::vector<uint64_t>> shingle_set_;
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
