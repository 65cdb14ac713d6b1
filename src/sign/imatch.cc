// imatch: I-Match (Chowdhury, Frieder, Grossman, McCabe 2002; «网页去重-算法篇»):
// the document's distinct terms inside the lexicon band (neither too
// frequent nor too rare in the collection), sorted, SHA-1.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kImatchSigner{"imatch", [](SignContext& c, Signatures& out) {
  std::vector<std::string_view> terms;
  for (const TermWeight* t : c.lexicon()) terms.push_back(t->term);
  std::sort(terms.begin(), terms.end());
  std::string joined;
  for (std::string_view t : terms) {
    if (!joined.empty()) joined.push_back(' ');
    joined += t;
  }
  if (!joined.empty()) out.imatch = sha1_hex(joined);
}};

}  // namespace husk
