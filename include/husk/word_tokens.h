// Word tokens as Python's `re.findall(r"\w+", text)` sees them: runs of
// letters (Unicode L*), numbers (any character with a Numeric_Type) and
// '_'. Combining marks are not \w there, so they split tokens here too. The
// article-extraction-benchmark score is defined over these tokens.
#pragma once

#include <string_view>
#include <vector>

namespace husk {

std::vector<std::string_view> word_tokens(std::string_view utf8);

// True for a code point Python's \w matches.
bool is_word_char(char32_t c);

}  // namespace husk
