// Language data of config/languages.toml (compiled in): abbreviations that
// do not end sentences and stop words, all languages together.
#pragma once

#include <string>
#include <vector>

#include "base/string_set.h"

namespace husk {

struct LanguageData {
  std::vector<std::string> abbreviations;     // as written, e.g. "Mr.", "т.е."
  WordSet stopwords;  // case-folded
};

const LanguageData& language_data();

}  // namespace husk
