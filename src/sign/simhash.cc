// simhash (Charikar, "Similarity estimation techniques from rounding
// algorithms", STOC 2002; «彻底弄懂LSH之simHash算法»): every feature's 64-bit hash votes
// +w on the bits it has set and -w on the others; the sign of each sum is
// the bit. Features are the distinct terms weighted by tf*idf, or word
// shingles weighted by their count when simhash_shingle > 1.
#include <array>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

namespace {

uint64_t fold(const std::array<double, 64>& votes) {
  uint64_t bits = 0;
  for (int i = 0; i < 64; ++i)
    if (votes[static_cast<std::size_t>(i)] > 0) bits |= 1ull << i;
  return bits;
}

void vote(std::array<double, 64>& votes, uint64_t h, double w) {
  for (std::size_t i = 0; i < 64; ++i) votes[i] += w * (static_cast<double>((h >> i) & 1) * 2.0 - 1.0);
}

}  // namespace

const Signer kSimhashSigner{"simhash", [](SignContext& c, Signatures& out) {
  if (c.text.terms.empty()) return;
  std::array<double, 64> votes{};
  if (c.options.simhash_shingle <= 1) {
    for (const TermWeight& t : c.weights())
      if (t.weight > 0) vote(votes, t.hash, t.weight);
  } else {
    for (uint64_t h : c.word_shingles(c.options.simhash_shingle)) vote(votes, h, 1.0);
  }
  out.simhash = fold(votes);
}};

// The «Неточная кластеризация» homework report's random-hyperplane simhash: each term adds three
// seeded steps in [-5, 5] to positions of a small dense vector (37
// dimensions), which is projected on 64 random hyperplanes with integer
// coordinates in [-100, 100]. Unlike summed feature hashes, the bits stay
// balanced however skewed the vocabulary is. Terms count by occurrence, as
// in the homework.
const Signer kSimhashHyperplaneSigner{"simhash_hyperplane", [](SignContext& c, Signatures& out) {
  if (c.text.terms.empty()) return;
  const uint32_t dims = std::max<uint32_t>(c.options.hyperplane_dims, 1);
  std::vector<double> dense(dims, 0.0);
  for (const TermWeight& t : c.weights()) {
    for (uint64_t j = 0; j < 3; ++j) {
      uint64_t h = xxh64(t.term, c.options.seed + j);
      dense[h % dims] += (static_cast<double>((h >> 32) % 11) - 5.0) * t.count;
    }
  }
  uint64_t state = c.options.seed ^ 0x68797065ull;  // "hype"
  std::array<double, 64> votes{};
  for (std::size_t bit = 0; bit < 64; ++bit) {
    double dot = 0;
    for (uint32_t d = 0; d < dims; ++d) dot += dense[d] * (static_cast<double>(splitmix64(state) % 201) - 100.0);
    votes[bit] = dot;
  }
  out.simhash_hyperplane = fold(votes);
}};

}  // namespace husk
