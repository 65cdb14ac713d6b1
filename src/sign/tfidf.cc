// tfidf: the L terms with the highest tf*idf, sorted, CRC32 of their
// concatenation (Sergukova's lecture, "TF*IDF"). Ties go to the smaller term.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kTfidfSigner{"tfidf", [](SignContext& c, Signatures& out) {
  std::vector<const TermWeight*> terms;
  for (const TermWeight& t : c.weights())
    if (t.weight > 0) terms.push_back(&t);
  auto heavier = [](const TermWeight* a, const TermWeight* b) {
    return a->weight != b->weight ? a->weight > b->weight : a->term < b->term;
  };
  std::size_t n = std::min<std::size_t>(c.options.tfidf_terms, terms.size());
  std::partial_sort(terms.begin(), terms.begin() + static_cast<std::ptrdiff_t>(n), terms.end(), heavier);
  std::vector<std::string_view> top;
  for (std::size_t i = 0; i < n; ++i) top.push_back(terms[i]->term);
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
