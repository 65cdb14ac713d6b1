// Page furniture: short blocks that speak about the page rather than
// being its text — photo credits and copyright notices, reading times,
// "updated on" lines, prompts to comment, to subscribe or to log in. The
// block model keeps some of them beside the article they sit in (they share
// its container and its look), and the gold texts of the development
// collections leave most of them out; so whatever a stage kept, a block of
// at most kFurnitureMaxWords words that a class of config/extract.toml's
// [furniture] matches leaves the text (Processor::finish, and the learned
// model's cross-validation, src/eval/train.cc). Each class and its
// measurement: docs/evaluation.md, "Furniture".
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/extract.h"
#include "husk/html.h"

namespace husk {

// A furniture line is a line or two; a longer block holding one of its
// phrases is a paragraph that mentions it (on the development collections,
// the kept blocks of 31 to 50 words the classes match are the gold's text
// about as often as not: manual pages, reviews naming a subscription).
// A class's any-length patterns ([furniture_any_length]) match at any
// length: the copyright sign standing as a sign, which no story's paragraph
// holds and a site's legal notice of 200 words does (docs/evaluation.md,
// "Legal notices").
inline constexpr uint32_t kFurnitureMaxWords = 30;

// A block's class is a number of one byte (0 for none); the last value is
// left free for the cross-validation's "every class" (src/eval/train.h).
inline constexpr uint8_t kMaxFurnitureClasses = 254;

// How every furniture pattern is compiled: UTF-8, case-insensitive, and
// quiet (a bad pattern is reported by the configuration, not on stderr).
RE2::Options furniture_pattern_options();

// A class's patterns as one alternation, compiled once per process: the
// configuration compiles it to check the patterns (config.cc) and every
// FurnitureLines made from that configuration matches with the same
// program. Check ok() before use.
std::shared_ptr<const RE2> furniture_alternation(const std::vector<std::string>& patterns);

class FurnitureLines {
 public:
  FurnitureLines() = default;
  explicit FurnitureLines(const std::vector<FurnitureClass>& classes);

  // The class a block's text belongs to, or "" (a longer block only by an
  // any-length pattern).
  std::string_view class_of(std::string_view text, uint32_t words) const { return name(number_of(text, words)); }
  // The same as a number: 0 for none, k for the k-th class in name order.
  uint8_t number_of(std::string_view text, uint32_t words) const;
  std::string_view name(uint8_t number) const;
  std::size_t size() const { return classes_.size(); }

 private:
  struct Compiled {
    std::string name;
    std::shared_ptr<const RE2> pattern;     // furniture_alternation of the class's patterns, or null
    std::shared_ptr<const RE2> any_length;  // the same of its any-length patterns, or null
  };
  std::vector<Compiled> classes_;
};

// Per block: its class number (FurnitureLines::number_of), 0 where it is
// not furniture; a block of fewer than `min_words` words is given 0
// unread (a caller that asks only of longer blocks spares the patterns
// the menus' and links' short lines).
std::vector<uint8_t> furniture_classes(const Blocks& blocks, const FurnitureLines& lines, uint32_t min_words = 0);

// Takes the furniture out of what a stage kept and returns it: one entry per
// block, the class number (FurnitureLines::number_of) where a kept block
// was furniture, else 0.
std::vector<uint8_t> take_out_furniture(const Blocks& blocks, const FurnitureLines& lines, std::vector<uint8_t>& keep);

// Link lines: on a page extraction is sure is an article (sure_article,
// extract/page_type.h), a block more than kLinkLineDensity of whose words
// are link text is a menu, a related headline, a tag list or a "read more"
// line, not the article's prose, whatever the learned model or density
// made of it (Processor::finish leaves a site rule's, a stored template's
// and fulltext's text alone). Link density
// is boilerplate's strongest shallow cue (Kohlschütter, Fankhauser and
// Nejdl 2010, "Boilerplate Detection using Shallow Text Features");
// Readability drops candidates past a density of a half. The block model
// reads it too, but is fitted to listings and shops as well, whose gold
// keeps their links, and keeps some such blocks on articles.
// docs/evaluation.md, "Link lines".
//
// A list of other stories often writes each headline's date or time beside
// its link ("Farewell to the admiral 10/4", "[ 11:02 10/4 ] Story",
// "Story (01/17 00:06)"), which lowers the line's density under the bar
// (four link words of five: 0.80); the stamp's words are left out of the
// count. A link of kMinStampedHeadlineWords or more words is a headline; a
// one-word link beside a date ("Tuesday 10/4") is a sentence's word. On
// daniel-dev left out (the models trained on the other three collections)
// 0.8927 -> 0.8947, the other collections and the cross-validated figures
// unchanged (docs/evaluation.md, "Link lines").
// So are the marks of a line of up to kMaxMarkedLineWords (a headline's
// line, extract/teasers.cc): its words with no letter or digit, the
// dashes, arrows and bars between a related story's link and its source,
// date or section ("– Headline — Agency, 13.10.2011", "Society →
// Headline"). With daniel-dev left out, 0.9148 -> 0.9159 at seed 1 (20
// pages gain, none lose; Russian 0.846 -> 0.852) and 0.0011-0.0021 at
// every threshold at seed 2; cross-validated by domain WCXB dev loses
// 0.0001 (a library catalogue's "Hardware -- Canada -- Catalogs" lines,
// its gold's; docs/evaluation.md, "Link lines").
inline constexpr float kLinkLineDensity = 0.8f;
inline constexpr uint32_t kMinStampedHeadlineWords = 2;
inline constexpr uint32_t kMaxMarkedLineWords = 40;
bool is_link_line(const Block& block);

// A dateline: a short line (a date with the byline and the source beside
// it runs to 15 words), under half of it links, that dates something: by
// a year (1900-2099) or by a numeric date or time at its edge ("06.01.12
// 08:49", "Published 28 November 11 (14:41)"), numbers only, so it reads
// the same in every language. A news story carries one beside its
// headline; a service's landing page does not (extract/page_type.h,
// settle_type; docs/evaluation.md, "Dated stories").
inline constexpr uint32_t kDatelineMaxWords = 15;
// A linked date is another story's (a teaser's), not this page's: half of
// the line at most, the bar a teaser's lead is held to (extract/teasers.cc).
inline constexpr float kDatelineMaxLinkDensity = 0.5f;
bool is_dateline(const Block& block);
// Per block: 1 where it is a dateline.
std::vector<uint8_t> datelines(const Blocks& blocks);
// The words of a block's text as segmentation counts those of a spaced
// script: runs of characters between its single spaces.
uint32_t spaced_words(std::string_view text);
// The name husk explain gives the rule.
inline constexpr std::string_view kLinkLineClass = "link_line";
// Takes the link lines out of what a stage kept; one entry per block, 1
// where a kept block was one.
std::vector<uint8_t> take_out_link_lines(const Blocks& blocks, std::vector<uint8_t>& keep);

}  // namespace husk
