// lexrand: I-Match over randomised lexicons (seed 003, "Lex Rand"; Kołcz,
// Chowdhury, Alspector 2004). The lexicon is the I-Match band of terms;
// copy k keeps a term when a seeded hash of (k, term) falls above the drop
// share, so each copy is a fixed random 70% of the lexicon without ever
// being materialised. The document's lexicon terms that copy k keeps,
// sorted, give the signature (k, CRC32) when they are at least min_share
// of the document's lexicon terms: 0 to K signatures, one equal makes a
// duplicate.
#include <algorithm>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kLexrandSigner{"lexrand", [](SignContext& c, Signatures& out) {
  std::vector<std::string_view> lexicon;
  for (const TermWeight& t : c.weights())  // sorted by term
    if (c.in_lexicon(t.term)) lexicon.push_back(t.term);
  if (lexicon.empty()) return;
  const auto threshold = static_cast<uint64_t>(c.options.lexrand_drop * 1'000'000.0);
  for (uint32_t k = 1; k <= c.options.lexrand_copies; ++k) {
    std::string joined;
    std::size_t kept = 0;
    for (std::string_view term : lexicon) {
      if (xxh64(term, c.options.seed ^ (0x100000001b3ull * k)) % 1'000'000 < threshold) continue;
      if (kept++ > 0) joined.push_back(' ');
      joined += term;
    }
    if (kept > 0 && static_cast<double>(kept) >= c.options.lexrand_min_share * static_cast<double>(lexicon.size()))
      out.lexrand.emplace_back(k, crc32_of(joined));
  }
}};

}  // namespace husk
