// supershingles (Broder, "Identifying and filtering near-duplicate
// documents", CPM 2000): the first 84 minhash minima in 6 groups of 14,
// each group hashed; two documents sharing two super-shingles are
// near-duplicates.
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

std::vector<uint64_t> hash_groups(const std::vector<uint32_t>& values, uint32_t groups, uint32_t rows, uint64_t seed);

const Signer kSupershinglesSigner{"supershingles", [](SignContext& c, Signatures& out) {
  const std::vector<uint64_t>& minima = c.minima();
  const uint32_t n = c.options.supershingle_minima;
  const uint32_t groups = c.options.supershingle_groups;
  if (minima.size() < n || groups == 0) return;
  std::vector<uint32_t> first(minima.begin(), minima.begin() + n);
  out.supershingles = hash_groups(first, groups, n / groups, c.options.seed ^ 0x7375706572ull);  // "super"
}};

}  // namespace husk
