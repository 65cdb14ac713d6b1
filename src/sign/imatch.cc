// imatch: I-Match (Chowdhury, Frieder, Grossman, McCabe 2002; seed 004):
// the document's distinct terms inside the lexicon band (neither too
// frequent nor too rare in the collection), sorted, SHA-1.
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kImatchSigner{"imatch", [](SignContext& c, Signatures& out) {
  std::string joined;
  for (const TermWeight& t : c.weights()) {  // sorted by term
    if (!c.in_lexicon(t.term)) continue;
    if (!joined.empty()) joined.push_back(' ');
    joined += t.term;
  }
  if (!joined.empty()) out.imatch = sha1_hex(joined);
}};

}  // namespace husk
