// spotsigs (Theobald, Siddharth, Paepcke, "SpotSigs: robust and efficient
// near duplicate detection in large web collections", SIGIR 2008; seed
// 004): every stop word starts a spot made of it and the next `spot_chain`
// terms that are not stop words ("the:economy:grew"). Function words sit in
// running prose and rarely in navigation, so spots sample the article, not
// the template. The signature is the set of spot hashes.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kSpotsigsSigner{"spotsigs", [](SignContext& c, Signatures& out) {
  const auto& terms = c.text.terms;
  std::vector<uint8_t> stop(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) stop[i] = c.is_stopword(terms[i]);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!stop[i]) continue;
    std::string spot = terms[i];
    uint32_t chained = 0;
    for (std::size_t j = i + 1; j < terms.size() && chained < c.options.spot_chain; ++j) {
      if (stop[j]) continue;
      spot.push_back(':');
      spot += terms[j];
      ++chained;
    }
    if (chained == c.options.spot_chain) out.spotsigs.push_back(static_cast<uint32_t>(xxh64(spot, c.options.seed)));
  }
  std::sort(out.spotsigs.begin(), out.spotsigs.end());
  out.spotsigs.erase(std::unique(out.spotsigs.begin(), out.spotsigs.end()), out.spotsigs.end());
}};

}  // namespace husk
