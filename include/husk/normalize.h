// Normalize: clean text -> terms and sentences, the form every signature is
// computed from (Sergukova, Mail.Ru lecture «Поиск дубликатов»,
// "Подготовка текста": lower case, no white space,
// no punctuation, no pseudo-graphics, a policy for numbers, sentences that
// do not end at initials and abbreviations but always end at a paragraph).
//
// Per paragraph: NFKC, then ICU sentence breaks, less those after an
// abbreviation or an initial (lists per language in config/languages.toml);
// per
// sentence: NFKC_Casefold (full case folding, default-ignorables such as
// ZWJ and soft hyphen removed), dotted and dotless i folded together and
// Greek tonos dropped (so Turkish and Greek upper and lower case agree),
// then ICU word breaks: only letter,
// number, kana and ideograph words become terms, which drops punctuation,
// white space, symbols, emoji and box drawing, and splits Chinese, Japanese
// and Thai into dictionary words. Runs of single letters written apart
// ("с в я щ е н н ы й", "♥L♥O♥V♥E") are joined back into one word. A
// paragraph of printable ASCII and English typography gets the same terms
// and sentences from a path that applies the same rules without ICU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

enum class NumberPolicy : uint8_t {
  kKeep,  // numbers are terms like words
  kDrop,  // numbers are removed
  kMask,  // every number becomes the term "#": dates, clocks and prices stop
          // changing signatures (Sergukova's lecture), their positions stay
};

struct NormalizeOptions {
  // keep by default, measured (README, "Numbers"): on the near-duplicate
  // dev set keeping and masking score the same (F1 0.996: a changed date
  // costs a 5-shingle text a few shingles, not the pair), while masking
  // makes data sheets that differ only in their figures identical (80
  // generated weather reports: F1 0.404 masked, 1.000 kept). mask remains
  // for collections whose near-duplicates differ in many generated
  // figures (Sergukova's lecture: dates, clocks, prices).
  NumberPolicy numbers = NumberPolicy::kKeep;
  // Join runs of single letters separated by spaces or symbols.
  bool join_spaced_letters = true;
  // A run this long is joined unconditionally; a shorter run of at least 3
  // only when the joined word also occurs in the text. Four single-letter
  // words in a row do not occur in running text of the languages husk's
  // abbreviation and stop-word lists cover (a, I, и, в, с, к, о, у, я, w,
  // z, i ...), three do ("и в с").
  uint32_t spaced_letters_min_run = 4;
};

struct Sentence {
  uint32_t first_term = 0;  // terms [first_term, end_term)
  uint32_t end_term = 0;
};

struct NormalizedText {
  std::vector<std::string> terms;
  std::vector<Sentence> sentences;
  // Terms joined by single spaces: what md5 is computed from.
  std::string joined() const;
};

// Thread-safe; ICU iterators are cloned per thread.
NormalizedText normalize(std::string_view text, const NormalizeOptions& options = {});

// "keep", "drop", "mask".
Result<NumberPolicy> parse_number_policy(std::string_view name);
const char* number_policy_name(NumberPolicy policy);

// The options as parse_normalize_options() reads them back:
// "numbers=mask,letters=join,min-run=4".
std::string describe(const NormalizeOptions& options);

// Parses "--normalize" option text over `base`: comma-separated key=value
// pairs, "numbers=keep|drop|mask", "letters=join|keep", "min-run=N".
Result<NormalizeOptions> parse_normalize_options(std::string_view text, const NormalizeOptions& base = {});

// Word tokens as Python's `re.findall(r"\w+", text)` sees them: runs of
// letters (Unicode L*), numbers (any character with a Numeric_Type) and
// '_'. Combining marks are not \w there, so they split tokens here too. The
// extraction benchmarks' scores are defined over these tokens.
std::vector<std::string_view> word_tokens(std::string_view utf8);

// True for a code point Python's \w matches.
bool is_word_char(char32_t c);

}  // namespace husk
