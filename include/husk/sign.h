// Sign: normalised text -> near-duplicate signatures (seed 003's MD5,
// TF*IDF, Long Sent, Heavy Sent and Lex Rand; seed 004's I-Match, shingling
// and SpotSigs; seeds 000-002's simhash).
//
// Every signer is deterministic across runs and machines: hashes are
// xxHash64/CRC32/MD5/SHA-1 of UTF-8 bytes, random choices come from a fixed
// seed, and ties are broken by term or position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "husk/extract.h"
#include "husk/idf.h"
#include "husk/normalize.h"
#include "husk/status.h"

namespace husk {

struct SignOptions {
  NormalizeOptions normalize;
  // Signers to run, by name; empty runs all (signer_names()).
  std::vector<std::string> signers;
  // Seed of every random choice (minhash permutations, hyperplanes,
  // lexrand lexicons).
  uint64_t seed = 0x6875736b2d736967ull;  // "husk-sig"

  // tfidf: the L terms of highest tf*idf (seed 003; L = 6 as the lecture's
  // comparison of Zelenkov & Segalovich uses).
  uint32_t tfidf_terms = 6;
  // long_sent / heavy_sent: the 2-3 longest / heaviest sentences (seed 003).
  uint32_t long_sent_count = 3;
  uint32_t heavy_sent_count = 3;

  // Lexicon band for lexrand and imatch (I-Match, Chowdhury et al. 2002:
  // drop the most and least frequent terms). A term is in the lexicon when
  // it occurs in at most lexicon_max_df_share of the documents (not a
  // function word) and in at least lexicon_min_df of them (not a typo).
  double lexicon_max_df_share = 0.2;
  uint64_t lexicon_min_df = 2;
  // lexrand: K copies of the lexicon, each 30% smaller (seed 003; Kołcz,
  // Chowdhury, Alspector 2004 "Improved robustness of signature-based
  // near-replica detection via lexicon randomization"). A copy signs the
  // document when the document keeps at least min_share of its lexicon
  // terms in it (0.6: the expected share is 0.7).
  uint32_t lexrand_copies = 10;
  double lexrand_drop = 0.30;
  double lexrand_min_share = 0.6;

  // simhash (Charikar 2002): 64 bits over features weighted by tf*idf.
  // Features are terms (simhash_shingle = 1) or word w-shingles.
  uint32_t simhash_shingle = 1;
  // Random-hyperplane variant of the homework seed (000): terms scattered
  // into a 37-dimensional vector (3 positions each, steps in [-5, 5]),
  // projected on 64 random hyperplanes with coordinates in [-100, 100].
  uint32_t hyperplane_dims = 37;

  // minhash (Broder 1997): N permutations over word w-shingles (or
  // character k-shingles when minhash_char_shingle > 0).
  uint32_t minhash_permutations = 128;
  uint32_t minhash_shingle = 5;
  uint32_t minhash_char_shingle = 0;
  // LSH bands b x r = 128 for a Jaccard threshold of 0.8: (1/b)^(1/r) =
  // 0.71, so P(candidate) = 1-(1-s^r)^b is 0.95 at s = 0.8, 0.998 at 0.9,
  // 0.47 at 0.7 and 0.06 at 0.5.
  uint32_t minhash_bands = 16;
  uint32_t minhash_rows = 8;

  // supershingles (Broder 1997, 2000): 84 minima in 6 groups of 14; two
  // equal super-shingles make a duplicate. The 84 are the first 84 of the
  // minhash permutations.
  uint32_t supershingle_minima = 84;
  uint32_t supershingle_groups = 6;

  // spotsigs (Theobald, Siddharth, Paepcke, SIGIR 2008): a spot is a stop
  // word (config/languages.toml) followed by the next `spot_chain` terms that
  // are not stop words.
  uint32_t spot_chain = 2;
};

// The signatures of one document. A signer that was not run, or that has
// nothing to sign (no sentence, no lexicon term), leaves its field empty.
struct Signatures {
  uint32_t terms = 0;                     // normalised terms (document length)
  std::string md5;                        // 32 hex digits of MD5(terms joined by spaces)
  std::optional<uint32_t> tfidf;          // CRC32
  std::optional<uint32_t> long_sent;      // CRC32
  std::optional<uint32_t> heavy_sent;     // CRC32
  std::vector<std::pair<uint32_t, uint32_t>> lexrand;  // (copy number, CRC32)
  std::string imatch;                     // 40 hex digits of SHA-1
  std::optional<uint64_t> simhash;        // Charikar, 64 bits
  std::optional<uint64_t> simhash_hyperplane;
  std::vector<uint32_t> minhash;          // N minima (32-bit)
  std::vector<uint64_t> minhash_bands;    // b band keys
  std::vector<uint64_t> supershingles;    // 6 super-shingles
  std::vector<uint32_t> spotsigs;         // the spot set: sorted distinct 32-bit hashes
};

std::vector<std::string> signer_names();

// Fails only on an unknown signer name.
Status check_signers(const std::vector<std::string>& names);

// stats may be null: global signers then weigh every term 1, stop words 0
// (and lexrand/imatch keep every non-stop-word term in the lexicon).
Signatures sign(const NormalizedText& text, const SignOptions& options, const CollectionStats* stats);
Signatures sign(const CleanText& text, const SignOptions& options, const CollectionStats* stats);

// Every NormalizeOptions and SignOptions field as (section.name, value) in
// config/sign.toml order; numbers as numbers, the number policy as 0/1/2.
std::vector<std::pair<std::string, double>> describe(const SignOptions& options);

// Parses a TOML configuration (the format of config/sign.toml) over the
// defaults; a bad key or value is reported with the file name and line.
Result<SignOptions> parse_sign_config(const std::string& toml_text, const std::string& source_name);
Result<SignOptions> load_sign_config(const std::string& path);

// The "sig" object of `husk sign`, as JSON text: one field per signer that
// produced something, hashes as lower-case hex (fixed width), multi-valued
// ones as arrays, lexrand as "K:HEX" strings.
std::string signatures_json(const Signatures& sig);
// The inverse: a "sig" object's JSON text back to Signatures.
Result<Signatures> parse_signatures(std::string_view json_text);

}  // namespace husk
