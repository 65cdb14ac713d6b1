// spotsigs (Theobald, Siddharth, Paepcke, "SpotSigs: robust and efficient
// near duplicate detection in large web collections", SIGIR 2008; seed
// 004): every stop word starts a spot made of it and the next `spot_chain`
// terms that are not stop words ("the:economy:grew"). Function words sit in
// running prose and rarely in navigation, so spots sample the article, not
// the template. The signature is the set of spot hashes, each a chain of
// SplitMix64 over the terms' hashes.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kSpotsigsSigner{"spotsigs", [](SignContext& c, Signatures& out) {
  const auto n = static_cast<uint32_t>(c.text.terms.size());
  for (uint32_t i = 0; i < n; ++i) {
    const TermWeight& antecedent = c.term_at(i);
    if (!antecedent.stopword) continue;
    uint64_t spot = antecedent.hash ^ c.options.seed;
    uint32_t chained = 0;
    for (uint32_t j = i + 1; j < n && chained < c.options.spot_chain; ++j) {
      const TermWeight& t = c.term_at(j);
      if (t.stopword) continue;
      uint64_t mixed = spot ^ t.hash;
      spot = splitmix64(mixed);
      ++chained;
    }
    if (chained == c.options.spot_chain) out.spotsigs.push_back(static_cast<uint32_t>(spot));
  }
  std::sort(out.spotsigs.begin(), out.spotsigs.end());
  out.spotsigs.erase(std::unique(out.spotsigs.begin(), out.spotsigs.end()), out.spotsigs.end());
}};

}  // namespace husk
