// ExtractConfig from TOML (config/extract.toml's format), over the built-in
// defaults.
#include <algorithm>

#include "base/toml_config.h"
#include "base/builtin_config.h"
#include "extract/furniture.h"
#include "husk/extract.h"

namespace husk {

namespace {

constexpr TomlField<DensityParams> kDensityFields[] = {
    {"block_cost", &DensityParams::block_cost},
    {"link_penalty", &DensityParams::link_penalty},
    {"positive_hint_boost", &DensityParams::positive_hint_boost},
    {"semantic_boost", &DensityParams::semantic_boost},
    {"negative_hint_factor", &DensityParams::negative_hint_factor},
    {"cut_link_density", &DensityParams::cut_link_density},
    {"cut_min_words", &DensityParams::cut_min_words},
    {"keep_hinted_share", &DensityParams::keep_hinted_share},
    {"block_link_density", &DensityParams::block_link_density},
    {"block_link_max_words", &DensityParams::block_link_max_words},
    {"sibling_ratio", &DensityParams::sibling_ratio},
    {"sibling_min_weight", &DensityParams::sibling_min_weight},
    {"sibling_max_link_density", &DensityParams::sibling_max_link_density},
    {"end_marker_min_share", &DensityParams::end_marker_min_share},
    {"end_marker_max_words", &DensityParams::end_marker_max_words},
};

struct ListField {
  const char* name;
  std::vector<std::string> Vocabulary::*member;
};

constexpr ListField kVocabularyFields[] = {
    {"positive_hints", &Vocabulary::positive_hints},
    {"negative_hints", &Vocabulary::negative_hints},
    {"negative_tokens", &Vocabulary::negative_tokens},
    {"end_markers", &Vocabulary::end_markers},
    {"boilerplate_lines", &Vocabulary::boilerplate_lines},
    {"comment_headings", &Vocabulary::comment_headings},
};

Status apply_vocabulary(const toml::table& table, const std::string& source, Vocabulary& vocabulary) {
  for (const auto& [key, node] : table) {
    const ListField* field = nullptr;
    for (const ListField& f : kVocabularyFields)
      if (key.str() == f.name) field = &f;
    if (field == nullptr)
      return Status(Code::kInvalidArgument, toml_where(source, node) + ": unknown key vocabulary." + std::string(key.str()));
    const toml::array* array = node.as_array();
    if (array == nullptr)
      return Status(Code::kInvalidArgument,
                    toml_where(source, node) + ": vocabulary." + field->name + " must be a list of strings");
    std::vector<std::string> words;
    for (const toml::node& item : *array) {
      std::optional<std::string> s = item.value<std::string>();
      if (!s)
        return Status(Code::kInvalidArgument,
                      toml_where(source, item) + ": vocabulary." + field->name + " holds a non-string");
      words.push_back(*s);
    }
    vocabulary.*(field->member) = std::move(words);
  }
  return Status();
}

Status apply_families(const toml::table& table, const std::string& source, std::vector<HintFamily>& families) {
  for (const auto& [name, node] : table) {
    const toml::table* family = node.as_table();
    if (family == nullptr)
      return Status(Code::kInvalidArgument, toml_where(source, node) + ": families." + std::string(name.str()) +
                                                " must be a table of substrings and tokens");
    HintFamily f;
    f.name = std::string(name.str());
    for (const auto& [key, list] : *family) {
      std::vector<std::string>* out = key.str() == "substrings" ? &f.substrings : key.str() == "tokens" ? &f.tokens : nullptr;
      const toml::array* array = list.as_array();
      if (out == nullptr || array == nullptr)
        return Status(Code::kInvalidArgument, toml_where(source, list) + ": families." + f.name +
                                                  " takes substrings = [...] and tokens = [...]");
      for (const toml::node& item : *array) {
        std::optional<std::string> s = item.value<std::string>();
        if (!s || s->empty())
          return Status(Code::kInvalidArgument, toml_where(source, item) + ": families." + f.name + " holds a non-string");
        out->push_back(*s);
      }
    }
    // A family given again replaces the built-in one.
    std::erase_if(families, [&](const HintFamily& old) { return old.name == f.name; });
    families.push_back(std::move(f));
  }
  std::sort(families.begin(), families.end(), [](const HintFamily& a, const HintFamily& b) { return a.name < b.name; });
  return Status();
}

// [furniture] and [furniture_any_length]: each key a class, its value a
// list of RE2 patterns (FurnitureClass::patterns and ::any_length). A
// pattern RE2 cannot compile is an error here, with its place in the file,
// so that extraction never meets one.
Status apply_furniture(const toml::table& table, const std::string& source, std::string_view section,
                       std::vector<std::string> FurnitureClass::*field, std::vector<FurnitureClass>& classes) {
  for (const auto& [key, node] : table) {
    // Clang 14 (make fuzz) cannot capture a structured binding in a
    // lambda, which C++20 allows: the lambda below reads a named copy.
    const std::string name(key.str());
    const std::string where = std::string(section) + "." + name;
    std::vector<std::string> patterns;
    const toml::array* array = node.as_array();
    if (array == nullptr)
      return Status(Code::kInvalidArgument, toml_where(source, node) + ": " + where + " must be a list of patterns");
    for (const toml::node& item : *array) {
      std::optional<std::string> s = item.value<std::string>();
      if (!s || s->empty())
        return Status(Code::kInvalidArgument, toml_where(source, item) + ": " + where + " holds a non-string");
      patterns.push_back(*s);
    }
    // The class compiles as extraction will use it; only when it does not
    // is each pattern compiled alone, to name the one at fault.
    if (!patterns.empty()) {
      std::shared_ptr<const RE2> together = furniture_alternation(patterns);
      if (!together->ok()) {
        for (std::size_t i = 0; i < patterns.size(); ++i) {
          RE2 alone(patterns[i], furniture_pattern_options());
          if (!alone.ok())
            return Status(Code::kInvalidArgument,
                          toml_where(source, *array->get(i)) + ": " + where + ": " + alone.error());
        }
        return Status(Code::kInvalidArgument,
                      toml_where(source, node) + ": " + where + ": its patterns together: " + together->error());
      }
    }
    // A class's list given again replaces the built-in one; its other list stays.
    auto at =
        std::find_if(classes.begin(), classes.end(), [&](const FurnitureClass& c) { return c.name == name; });
    if (at == classes.end()) {
      classes.push_back(FurnitureClass{name, {}, {}});
      at = classes.end() - 1;
    }
    (*at).*field = std::move(patterns);
  }
  std::sort(classes.begin(), classes.end(),
            [](const FurnitureClass& a, const FurnitureClass& b) { return a.name < b.name; });
  return Status();
}

Result<ExtractConfig> parse_over(const std::string& text, const std::string& source, ExtractConfig config) {
  Result<toml::table> parsed = parse_toml(text, source);
  if (!parsed.ok()) return parsed.status();
  for (const auto& [key, node] : *parsed) {
    const toml::table* table = node.as_table();
    Status st;
    if (key.str() == "density" && table != nullptr) {
      st = apply_toml_fields(*table, source, "density", kDensityFields, config.density);
    } else if (key.str() == "vocabulary" && table != nullptr) {
      st = apply_vocabulary(*table, source, config.vocabulary);
    } else if (key.str() == "families" && table != nullptr) {
      st = apply_families(*table, source, config.families);
    } else if (key.str() == "furniture" && table != nullptr) {
      st = apply_furniture(*table, source, "furniture", &FurnitureClass::patterns, config.furniture);
    } else if (key.str() == "furniture_any_length" && table != nullptr) {
      st = apply_furniture(*table, source, "furniture_any_length", &FurnitureClass::any_length, config.furniture);
    } else {
      st = Status(Code::kInvalidArgument, toml_where(source, node) + ": unknown section " + std::string(key.str()));
    }
    if (!st.ok()) return st;
  }
  return config;
}

}  // namespace

std::vector<std::pair<std::string, double>> describe(const DensityParams& params) {
  return describe_toml_fields(kDensityFields, params, "");
}

const ExtractConfig& default_extract_config() {
  static const ExtractConfig config = [] {
    Result<ExtractConfig> parsed = parse_over(builtin_extract_toml(), "config/extract.toml", ExtractConfig{});
    // The built-in file is checked by the test suite; a broken build-time
    // copy leaves the struct defaults and empty word lists.
    return parsed.ok() ? *parsed : ExtractConfig{};
  }();
  return config;
}

Result<ExtractConfig> parse_extract_config(const std::string& toml_text, const std::string& source_name) {
  return parse_over(toml_text, source_name, default_extract_config());
}

Result<ExtractConfig> load_extract_config(const std::string& path) {
  Result<std::string> text = read_config_file(path);
  if (!text.ok()) return text.status();
  return parse_extract_config(*text, path);
}

}  // namespace husk
