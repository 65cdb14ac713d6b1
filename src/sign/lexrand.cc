// lexrand: I-Match over randomised lexicons (Sergukova's lecture, "Lex Rand"; Kołcz,
// Chowdhury, Alspector 2004). The lexicon is the I-Match band of terms;
// copy k keeps a term when SplitMix64 of (term hash, seed + k) falls above
// the drop share, so each copy is a fixed random 70% of the lexicon without ever
// being materialised. The document's lexicon terms that copy k keeps, in
// hash order, give the signature (k, low 32 bits of xxHash64 of their
// hashes) when they are at least min_share of the document's lexicon
// terms: 0 to K signatures, one equal makes a duplicate.
#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

const Signer kLexrandSigner{"lexrand", [](SignContext& c, Signatures& out) {
  const std::vector<const TermWeight*>& lexicon = c.lexicon();  // in hash order
  if (lexicon.empty()) return;
  const auto threshold = static_cast<uint64_t>(c.options.lexrand_drop * 1'000'000.0);
  std::vector<uint64_t> kept;
  for (uint32_t k = 1; k <= c.options.lexrand_copies; ++k) {
    kept.clear();
    for (const TermWeight* term : lexicon) {
      uint64_t mixed = term->hash ^ (c.options.seed + k);
      if (splitmix64(mixed) % 1'000'000 >= threshold) kept.push_back(term->hash);
    }
    if (!kept.empty() && static_cast<double>(kept.size()) >= c.options.lexrand_min_share * static_cast<double>(lexicon.size())) {
      std::string_view bytes(reinterpret_cast<const char*>(kept.data()), kept.size() * sizeof(uint64_t));
      out.lexrand.emplace_back(k, static_cast<uint32_t>(xxh64(bytes, k)));
    }
  }
}};

}  // namespace husk
