// tfidf: the L terms with the highest tf*idf, sorted, CRC32 of their
// concatenation (seed 003, "TF*IDF"). Ties go to the smaller term.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kTfidfSigner{"tfidf", [](SignContext& c, Signatures& out) {
  std::vector<TermWeight> terms = c.weights();  // sorted by term
  std::stable_sort(terms.begin(), terms.end(), [](const TermWeight& a, const TermWeight& b) { return a.weight > b.weight; });
  std::vector<std::string_view> top;
  for (const TermWeight& t : terms) {
    if (top.size() == c.options.tfidf_terms || t.weight <= 0) break;
    top.push_back(t.term);
  }
  if (top.empty()) return;
  std::sort(top.begin(), top.end());
  std::string joined;
  for (std::string_view t : top) {
    if (!joined.empty()) joined.push_back(' ');
    joined += t;
  }
  out.tfidf = crc32_of(joined);
}};

}  // namespace husk
