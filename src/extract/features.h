// Block features for the learned extractor: one row of numbers per block,
// computed once per page in time linear in its elements and blocks.
//
// A block is described by itself (Kohlschütter 2010's shallow text
// features: words, link and text density, plus punctuation, digits,
// capitals, prices, dates), by its neighbours (boilerpipe's context of the
// previous and next block), by where it sits (its tag, depth, semantic and
// furniture ancestors, the nearest ancestor of each class/id word family
// and how much of the page that ancestor holds, repeated structures, the
// density extractor's verdict) and by the page (its size, link density,
// schema.org types, how much of it lists, tables and code hold). The
// column names and their meaning are listed by feature_names(); README
// documents them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "husk/extract.h"

namespace husk {

// What a page's shape says of it (FeatureExtractor::article_shape): not an
// article's; a story under its headline; or a story dated beside its
// headline, which is news (a service's landing page shows no date there).
// Each says more than the one before it: a dated story is a story.
enum class ArticleShape : uint8_t { kNone, kStory, kDatedStory };

class FeatureExtractor {
 public:
  explicit FeatureExtractor(const ExtractConfig& config);
  ~FeatureExtractor();

  // The column names: the fixed ones, then two per class/id family.
  const std::vector<std::string>& names() const { return names_; }
  std::size_t columns() const { return names_.size(); }

  // Row-major: blocks.blocks.size() rows of columns() values. `density`
  // is the density extractor's labels for the same page. The URL columns
  // read the URL the page declares, so that a page gives the same rows
  // with or without the URL it was fetched from.
  std::vector<float> rows(const Blocks& blocks, const Labels& density) const;

  // One row for the whole page, the page-type classifier's: the page's own
  // columns (page_*, url_*), every other column averaged over the page's
  // blocks weighted by their words (mean_*), and the largest repeated
  // structures (max_*). Computed from rows() alone.
  const std::vector<std::string>& page_names() const { return page_names_; }
  std::vector<float> page_row(const std::vector<float>& rows) const;

  // Each block's words (BlockFeatures::words), read back from rows().
  std::vector<double> block_words(const std::vector<float>& rows) const;

  // Whether the page has an article's shape, read from rows(): a headline
  // (a heading or a line of its own that is the page's title, or mostly
  // the title's words: `titled`, per block, title_headlines below) with
  // prose under it, the most of the page's prose; and whether a dateline
  // stands beside the headline. `aside` (per block, may be empty) marks
  // prose that is not the page's (aside_prose below); `datelines` (per
  // block, may be empty) the blocks is_dateline takes for one
  // (extract/furniture.h); `sentences` (per block) the blocks whose text
  // ends a sentence (sentence_ends below) (extract/page_type.h,
  // settle_type).
  ArticleShape article_shape(const std::vector<float>& rows, const std::vector<uint8_t>& aside,
                             const std::vector<uint8_t>& datelines, const std::vector<uint8_t>& titled,
                             const std::vector<uint8_t>& sentences) const;

 private:
  struct Families;
  std::unique_ptr<Families> families_;
  std::vector<std::string> names_;
  std::vector<std::string> page_names_;
  std::vector<std::size_t> page_columns_, block_columns_, max_columns_;
};

// Per block: 1 where most of its words (kHeadlineTitleShare) are the
// page's title's (its <title>, og:title or first <h1>), read by the pieces
// a separator joins ("Headline-Site"), in the title and in the block's own
// words ("净利1900万-2900万"): the headline the title repeats.
std::vector<uint8_t> title_headlines(const Blocks& blocks);

// Whether a text ends as a sentence does: its last character a sentence's
// end (. ! ? … 。 ！ ？), past the closing quotes and brackets after it
// ("...the end.\"", "…。」"), or past a credit in round brackets after it
// ("...on Monday. (Reuters)", "。（高健）"). The shape's test of prose;
// the block model's ends_sentence column reads the last character alone.
bool ends_sentence(std::string_view text);
// Per block: 1 where its text ends as a sentence does (ends_sentence).
std::vector<uint8_t> sentence_ends(const Blocks& blocks);

// Per block: 1 where its prose is not the page's own, for the shape's
// test: the leads of teaser lists (teaser_leads, extract/teasers.h), other
// stories' prose, and page furniture (per block its class, 0 for none:
// furniture_classes, extract/furniture.h), a site's notices (a legal
// notice of 200 words under every story made the story under half the
// page's prose; docs/evaluation.md, "Legal notices").
std::vector<uint8_t> aside_prose(std::vector<uint8_t> leads, const std::vector<uint8_t>& furniture);

// The shape's paragraph of prose is a sentence of eight words or more
// (FeatureExtractor::article_shape): a shorter block is never the page's
// prose, nor need it be asked whether it is furniture.
inline constexpr uint32_t kProseMinWords = 8;

// What the learned stages read of a page, computed once: the density
// extractor's labels and the block rows.
struct PageFeatures {
  Labels density;
  std::vector<float> rows;
};

PageFeatures compute_page_features(const FeatureExtractor& features, const Extractor& density, const PageView& page);

}  // namespace husk
