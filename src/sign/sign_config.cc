// SignOptions and NormalizeOptions from TOML (config/sign.toml's format).
#include "base/toml_config.h"
#include "husk/sign.h"

namespace husk {

namespace {

constexpr TomlField<SignOptions> kSignFields[] = {
    {"seed", &SignOptions::seed},
    {"tfidf_terms", &SignOptions::tfidf_terms},
    {"long_sent_count", &SignOptions::long_sent_count},
    {"heavy_sent_count", &SignOptions::heavy_sent_count},
    {"lexicon_max_df_share", &SignOptions::lexicon_max_df_share},
    {"lexicon_min_df", &SignOptions::lexicon_min_df},
    {"lexrand_copies", &SignOptions::lexrand_copies},
    {"lexrand_drop", &SignOptions::lexrand_drop},
    {"lexrand_min_share", &SignOptions::lexrand_min_share},
    {"simhash_shingle", &SignOptions::simhash_shingle},
    {"hyperplane_dims", &SignOptions::hyperplane_dims},
    {"minhash_permutations", &SignOptions::minhash_permutations},
    {"minhash_shingle", &SignOptions::minhash_shingle},
    {"minhash_char_shingle", &SignOptions::minhash_char_shingle},
    {"minhash_sketch", &SignOptions::minhash_sketch},
    {"minhash_bands", &SignOptions::minhash_bands},
    {"minhash_rows", &SignOptions::minhash_rows},
    {"supershingle_minima", &SignOptions::supershingle_minima},
    {"supershingle_groups", &SignOptions::supershingle_groups},
    {"spot_chain", &SignOptions::spot_chain},
};

Status invalid(const std::string& at, const std::string& message) {
  return Status(Code::kInvalidArgument, at + ": " + message);
}

Status apply_sign(const toml::table& table, const std::string& source, SignOptions& o) {
  if (Status st = apply_toml_fields(table, source, "sign", kSignFields, o); !st.ok()) return st;
  if (o.minhash_bands * o.minhash_rows > o.minhash_permutations)
    return invalid(source, "minhash_bands x minhash_rows exceeds minhash_permutations");
  if (o.supershingle_minima > o.minhash_permutations || o.supershingle_groups == 0)
    return invalid(source, "supershingle_minima must fit in minhash_permutations, with at least one group");
  return Status();
}

Status apply_normalize(const toml::table& table, const std::string& source, NormalizeOptions& o) {
  for (const auto& [key, node] : table) {
    if (key.str() == "numbers") {
      auto v = node.value<std::string>();
      auto policy = v ? parse_number_policy(*v) : Result<NumberPolicy>(Status(Code::kInvalidArgument, "not a string"));
      if (!policy.ok()) return invalid(toml_where(source, node), "normalize.numbers must be \"keep\", \"drop\" or \"mask\"");
      o.numbers = *policy;
    } else if (key.str() == "join_spaced_letters") {
      if (!node.is_boolean()) return invalid(toml_where(source, node), "normalize.join_spaced_letters must be true or false");
      o.join_spaced_letters = *node.value<bool>();
    } else if (key.str() == "spaced_letters_min_run") {
      auto v = node.value<int64_t>();
      if (!v || *v < 3) return invalid(toml_where(source, node), "normalize.spaced_letters_min_run must be at least 3");
      o.spaced_letters_min_run = static_cast<uint32_t>(*v);
    } else {
      return invalid(toml_where(source, node), "unknown key normalize." + std::string(key.str()));
    }
  }
  return Status();
}

}  // namespace

std::vector<std::pair<std::string, double>> describe(const SignOptions& options) {
  std::vector<std::pair<std::string, double>> out;
  out.emplace_back("normalize.numbers", static_cast<double>(options.normalize.numbers));
  out.emplace_back("normalize.join_spaced_letters", options.normalize.join_spaced_letters ? 1.0 : 0.0);
  out.emplace_back("normalize.spaced_letters_min_run", options.normalize.spaced_letters_min_run);
  for (auto& field : describe_toml_fields(kSignFields, options, "sign.")) out.push_back(std::move(field));
  return out;
}

Result<SignOptions> parse_sign_config(const std::string& text, const std::string& source) {
  Result<toml::table> parsed = parse_toml(text, source);
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = *parsed;
  SignOptions options;
  for (const auto& [key, node] : root) {
    const toml::table* table = node.as_table();
    Status st = table == nullptr ? invalid(toml_where(source, node), "expected a [section]")
                : key.str() == "sign"      ? apply_sign(*table, source, options)
                : key.str() == "normalize" ? apply_normalize(*table, source, options.normalize)
                                           : invalid(toml_where(source, node), "unknown section " + std::string(key.str()));
    if (!st.ok()) return st;
  }
  return options;
}

Result<SignOptions> load_sign_config(const std::string& path) {
  Result<std::string> text = read_config_file(path);
  if (!text.ok()) return text.status();
  return parse_sign_config(*text, path);
}

}  // namespace husk
