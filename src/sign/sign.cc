// sign(): runs the chosen signers over one document, and spells the result
// as the "sig" JSON object.
#include "husk/sign.h"

#include <nlohmann/json.hpp>

#include "sign/context.h"
#include "sign/hashing.h"

namespace husk {

namespace {

const std::vector<const Signer*>& all_signers() {
  static const std::vector<const Signer*> signers = {
      &kMd5Signer,     &kTfidfSigner,   &kLongSentSigner, &kHeavySentSigner,         &kLexrandSigner,
      &kImatchSigner,  &kSimhashSigner, &kSimhashHyperplaneSigner, &kMinhashSigner, &kSupershinglesSigner,
      &kSpotsigsSigner};
  return signers;
}

}  // namespace

std::vector<std::string> signer_names() {
  std::vector<std::string> names;
  for (const Signer* s : all_signers()) names.emplace_back(s->name);
  return names;
}

Status check_signers(const std::vector<std::string>& names) {
  std::vector<std::string> known = signer_names();
  for (const std::string& n : names) {
    if (std::find(known.begin(), known.end(), n) != known.end()) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status(Code::kInvalidArgument, "unknown signer \"" + n + "\" (known: " + list + ")");
  }
  return Status();
}

Signatures sign(const NormalizedText& text, const SignOptions& options, const CollectionStats* stats) {
  Signatures out;
  out.terms = static_cast<uint32_t>(text.terms.size());
  if (text.terms.empty()) return out;
  SignContext context(text, options, stats);
  for (const Signer* s : all_signers()) {
    if (!options.signers.empty() &&
        std::find(options.signers.begin(), options.signers.end(), s->name) == options.signers.end())
      continue;
    s->sign(context, out);
  }
  return out;
}

Signatures sign(const CleanText& text, const SignOptions& options, const CollectionStats* stats) {
  return sign(normalize(text.text(), options.normalize), options, stats);
}

std::string signatures_json(const Signatures& sig) {
  nlohmann::ordered_json j;
  j["terms"] = sig.terms;
  auto hex_list = [](const auto& values, auto spell) {
    nlohmann::json a = nlohmann::json::array();
    for (auto v : values) a.push_back(spell(v));
    return a;
  };
  if (!sig.md5.empty()) j["md5"] = sig.md5;
  if (sig.tfidf) j["tfidf"] = hex32(*sig.tfidf);
  if (sig.long_sent) j["long_sent"] = hex32(*sig.long_sent);
  if (sig.heavy_sent) j["heavy_sent"] = hex32(*sig.heavy_sent);
  if (!sig.lexrand.empty())
    j["lexrand"] = hex_list(sig.lexrand, [](const std::pair<uint32_t, uint32_t>& p) {
      return std::to_string(p.first) + ":" + hex32(p.second);
    });
  if (!sig.imatch.empty()) j["imatch"] = sig.imatch;
  if (sig.simhash) j["simhash"] = hex64(*sig.simhash);
  if (sig.simhash_hyperplane) j["simhash_hyperplane"] = hex64(*sig.simhash_hyperplane);
  if (!sig.minhash.empty()) j["minhash"] = hex_list(sig.minhash, hex32);
  if (!sig.minhash_bands.empty()) j["minhash_bands"] = hex_list(sig.minhash_bands, hex64);
  if (!sig.supershingles.empty()) j["supershingles"] = hex_list(sig.supershingles, hex64);
  if (!sig.spotsigs.empty()) j["spotsigs"] = hex_list(sig.spotsigs, hex32);
  return j.dump();
}

}  // namespace husk
