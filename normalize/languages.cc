#include "normalize/languages.h"

#include "base/builtin_config.h"
#include "base/toml_config.h"

namespace husk {

const LanguageData& language_data() {
  static const LanguageData data = [] {
    LanguageData d;
    Result<toml::table> parsed = parse_toml(builtin_languages_toml(), "config/languages.toml");
    // The test suite parses the same file; a broken build-time copy leaves
    // the lists empty rather than stopping every page.
    if (!parsed.ok()) return d;
    const toml::table& root = *parsed;
    auto each = [&](const char* section, auto&& add) {
      if (const toml::table* t = root[section].as_table())
        for (const auto& [lang, list] : *t)
          if (const toml::array* a = list.as_array())
            for (const toml::node& item : *a)
              if (auto s = item.value<std::string>()) add(*s);
    };
    each("abbreviations", [&](const std::string& s) { d.abbreviations.push_back(s); });
    each("stopwords", [&](const std::string& s) { d.stopwords.insert(s); });
    return d;
  }();
  return data;
}

}  // namespace husk
