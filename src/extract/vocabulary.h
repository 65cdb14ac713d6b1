// The density extractor's word lists, compiled once: class/id hint
// matching (RE2 over the lower-cased class and id values) and whole-block
// phrase lists.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>

#include "base/string_set.h"
#include "husk/extract.h"

namespace husk {

enum class Hint : int8_t { kNegative = -1, kNone = 0, kPositive = 1 };

class CompiledVocabulary {
 public:
  explicit CompiledVocabulary(const Vocabulary& vocabulary);

  // Negative wins over positive: "article-comments" is a comment section.
  Hint classify_hints(std::string_view hints) const;
  // The whole block is a stock line ("Advertisement", "Share").
  bool is_boilerplate_line(std::string_view text) const;
  // The block opens a related/comments/share section.
  bool is_end_marker(std::string_view text) const;

 private:
  std::shared_ptr<const RE2> positive_;  // shared by every copy of the same list
  std::shared_ptr<const RE2> negative_;
  StringSet negative_tokens_;  // looked up by string_view: a token is not copied
  StringSet boilerplate_lines_;
  std::vector<std::string> end_markers_;
};

// `pattern` compiled with `options` once per process and shared (RE2 is
// safe to match from several threads): the hint lists and furniture
// classes of one configuration are held by several stages, and compiling
// them again for each cost a start 6% of its CPU (the furniture classes)
// and 3% (the hint lists). Check ok() before use.
std::shared_ptr<const RE2> compiled_once(const std::string& pattern, const RE2::Options& options);

// Lower case (full Unicode) with leading and trailing non-alphanumerics
// removed: the form phrase lists are compared in.
std::string phrase_key(std::string_view text);

}  // namespace husk
