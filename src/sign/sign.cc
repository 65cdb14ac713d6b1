// sign(): runs the chosen signers over one document, and over a collection.
#include "husk/sign.h"


#include "base/ordered_batches.h"
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
  // md5 and imatch hash with OpenSSL, opened on first use.
  const std::vector<std::string>& running = names.empty() ? known : names;
  for (const char* hashing : {"md5", "imatch"})
    if (std::find(running.begin(), running.end(), hashing) != running.end()) return crypto_loaded();
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

std::vector<Signatures> sign_collection(const std::vector<std::string_view>& texts, const SignOptions& options,
                                        unsigned jobs, const CollectionProgress& progress) {
  jobs = OrderedBatches<int, int>::resolve_jobs(jobs);
  auto done = [&](const char* pass, std::size_t k) {
    if (progress) progress(pass, k + 1, texts.size());
  };
  std::vector<NormalizedText> normalized(texts.size());
  OrderedBatches<std::size_t, NormalizedText> normalize_all(
      jobs, [&](const std::size_t& k) { return normalize(texts[k], options.normalize); },
      [&](const std::size_t& k, NormalizedText& n) {
        normalized[k] = std::move(n);
        done("normalising", k);
      });
  for (std::size_t k = 0; k < texts.size(); ++k) normalize_all.push(std::size_t(k), 1);
  normalize_all.finish();
  DfCounter counter;
  for (const NormalizedText& n : normalized)
    if (!n.terms.empty()) counter.add_document(n.terms);
  const CollectionStats stats = counter.finish();
  std::vector<Signatures> out(texts.size());
  OrderedBatches<std::size_t, Signatures> sign_all(
      jobs, [&](const std::size_t& k) { return sign(normalized[k], options, &stats); },
      [&](const std::size_t& k, Signatures& s) {
        out[k] = std::move(s);
        done("signing", k);
      });
  for (std::size_t k = 0; k < texts.size(); ++k) sign_all.push(std::size_t(k), 1);
  sign_all.finish();
  return out;
}

}  // namespace husk
