// Training husk's learned models from gold sets: WCXB-layout splits
// (html/NNNN.html.gz beside ground-truth/NNNN.json) and the
// article-extraction-benchmark's layout (ground-truth.json {id:
// {articleBody, url}} beside html/<id>.html.gz). Each page gives its block
// features with the share of each block the gold text covers, grouped by
// domain for cross-validation.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "extract/comments.h"
#include "extract/furniture.h"
#include "extract/teasers.h"
#include "husk/processor.h"
#include "husk/status.h"

namespace husk {

class FeatureExtractor;

// Where a training run stands, for a progress line (husk train draws one on
// a terminal): what it is doing ("analysing pages", "block model, fold 2
// of 5") and how far, `done` of `total` (pages, boosting rounds). Called on
// the thread that called the training function; an empty one is not.
using TrainingProgress = std::function<void(const std::string& doing, std::size_t done, std::size_t total)>;

// A must-keep or must-drop snippet of a snippet set's page (trafilatura's
// evaldata.json): the blocks holding its 3-grams, and the places where it
// occurs whole.
struct TrainingSnippet {
  bool keep = true;
  std::vector<uint32_t> blocks;
  // Where the snippet's words occur whole (TextCoverage::places): it is
  // found when every block of one place is kept, as the set's own score
  // finds it anywhere in the text; `blocks` decides only for a snippet
  // whose words occur nowhere whole.
  std::vector<std::vector<uint32_t>> places;
};

// A page of the gold sets, as the block model sees it. A page of a gold
// text (WCXB layout, the article benchmark) labels every block by the
// share of it the gold covers; a snippet set's page labels only the blocks
// its snippets cover.
struct TrainingPage {
  std::string id;      // "0001"
  std::string source;  // the gold set's name ("wcxb-dev"): its directory, or the directory of its JSON file
  std::string domain;  // the gold URL's host (or the gold's "host"), less "www."
  std::string type;    // the gold page type (collection for "category"; article without one)
  std::string language;  // the gold's "language", when it names one
  uint64_t fingerprint = 0;  // xxh64 of the page's bytes and its gold (text or snippets)
  std::vector<float> x;  // block features, row-major (features.h)
  std::vector<float> coverage;                  // per block: share of its tokens in the gold (3-gram aligned)
  std::vector<std::vector<uint32_t>> tokens;    // per block: its lower-cased \w+ tokens as ids
  std::vector<uint32_t> gold;                   // the gold's tokens as ids
  // A snippet set's page: no gold text; `coverage` is the must-keep
  // snippets' share of each block, `drop_coverage` the must-drop ones'.
  bool snippet_gold = false;
  std::vector<float> drop_coverage;
  std::vector<TrainingSnippet> snippets;
  // The page's structure: each block's element, each element's parent and
  // block range (husk/html.h).
  std::vector<uint32_t> block_element;
  std::vector<uint32_t> parent, first_block, end_block;
  // The elements that may be its comment section (extract/comments.h), so
  // that cross-validation takes the comments out as extraction does.
  std::vector<BlockRange> comment_sections;
  // Per block: whether it is in a comment section where the page's shape
  // is read (comment_blocks, extract/comments.h).
  std::vector<uint8_t> comment_blocks;
  // Per block: its page-furniture class (FurnitureLines::number_of, 0 for
  // none), which extraction takes out whatever the model says.
  std::vector<uint8_t> furniture;
  // Per block: whether it is a link line (is_link_line, extract/furniture.h),
  // which extraction takes out of a page it is sure is an article.
  std::vector<uint8_t> link_line;
  // Per block: whether it is a dateline (is_dateline, extract/furniture.h).
  std::vector<uint8_t> dateline;
  // Per block: whether the title repeats it (title_headlines, extract/features.h).
  std::vector<uint8_t> titled;
  // Per block: whether it ends a sentence (sentence_ends, extract/features.h).
  std::vector<uint8_t> sentences;
  // Its teaser lists (extract/teasers.h), whose leads extraction takes out
  // of a page it is sure is an article.
  Teasers teasers;
  // Per block: its repeat_key (extract/repeats.h), so that cross-validation
  // takes repeated text out as extraction does.
  std::vector<uint64_t> repeat_key;
};

// Where texts fall on a page's blocks: the page's tokens in block order
// form one stream, and a token is covered by a text when a 3-gram holding
// it occurs in that text (unigrams for a text of fewer than three tokens).
// Alignment by 3-grams keeps a common word of a menu from counting as
// content.
struct TextCoverage {
  std::vector<float> share;                  // per block: share of its tokens covered by any of the texts
  std::vector<std::vector<uint32_t>> blocks;  // per text: the blocks holding its covered tokens
  // per text: each place where its token sequence occurs whole, as the
  // blocks that place spans
  std::vector<std::vector<std::vector<uint32_t>>> places;
};
TextCoverage text_coverage(const Blocks& blocks, const std::vector<std::string>& texts);

// The share of each block's tokens that the gold text covers
// (text_coverage of the one text).
std::vector<float> gold_coverage(const Blocks& blocks, std::string_view gold);

// Lower-cased \w+ tokens, as ids shared through `dictionary`.
std::vector<uint32_t> token_ids(std::string_view text, std::unordered_map<std::string, uint32_t>& dictionary);

// The gold sets' names, page counts and hashes (xxh64 over their pages'
// fingerprints, in order): "wcxb-dev 1497 pages xxh64 0123...; ...".
std::string describe_collections(const std::vector<TrainingPage>& pages);

// Every page of the gold sets (a WCXB split's directory or a benchmark's
// ground-truth.json each) through the processor's analysis and the density
// extractor, with features and gold coverage; `jobs` threads; `progress`
// hears of each page analysed.
Result<std::vector<TrainingPage>> collect_training_pages(const std::vector<std::string>& gold_sets,
                                                         const Processor& processor, const FeatureExtractor& features,
                                                         unsigned jobs, const TrainingProgress& progress = {});

// What extraction keeps of a page given its blocks' probabilities and
// words: the blocks at or above the threshold that are not furniture
// (extract/furniture.h) nor, when extraction is sure the page is an
// article (`article`: sure_article, extract/page_type.h), link lines,
// less its comment section
// (extract/comments.h) unless extraction takes the page for a forum
// (taken_for_forum, extract/page_type.h), less the later copies of
// repeated text (extract/repeats.h), as Processor::finish does.
struct KeptBlocks {
  std::vector<uint8_t> keep;
  // The blocks a rule took out for what they are, whatever the model said
  // (furniture, a teaser's lead, the comment section): neither kept nor
  // content to the quality score (text_quality).
  std::vector<uint8_t> ruled_out;
};
// `left_class` is a furniture class left in the text (0: none, kEveryFurniture:
// all), for the measurement of each class; `teasers` false leaves teasers'
// leads in, for the measurement of that rule; `typed_article`: the page is
// typed as an article, sure or not, so it is never emptied (page_threshold,
// extract/model.h).
inline constexpr uint8_t kEveryFurniture = 255;
static_assert(kEveryFurniture > kMaxFurnitureClasses, "a class number would read as every class");
KeptBlocks kept_blocks(const TrainingPage& page, const std::vector<float>& probability, double threshold,
                       const std::vector<double>& words, bool forum, bool article, uint8_t left_class = 0,
                       bool teasers = true, bool typed_article = false);

// The benchmark's word F1 of keeping the given blocks of a page (of a
// gold text).
double kept_f1(const TrainingPage& page, const std::vector<uint8_t>& keep);

// A collection's score of kept blocks, as its own benchmark computes it:
// the mean page F1 for gold texts, the pooled snippet F1 for a snippet
// set (README of traf-snippets-dev).
class CollectionScore {
 public:
  void add(const TrainingPage& page, const std::vector<uint8_t>& keep);
  double f1() const;

 private:
  double f1_sum_ = 0;
  std::size_t text_pages_ = 0;
  std::size_t tp_ = 0, fn_ = 0, fp_ = 0;
};

// Gradient-boosted trees (XGBoost): row and column sampling of its "hist"
// method as its parameter guide suggests them for tabular data; depth,
// rounds and step per model below. Rounds are what a page pays for at
// extraction time: 150 rounds at step 0.2 score as 300 at 0.1 cross-
// validated by domain on the four development collections (seeds 1-3), and
// 0.001 under them with each collection left out, in 0.97 of the CPU
// (docs/evaluation.md, "The trees' shape").
struct TreeOptions {
  int rounds = 150;
  int max_depth = 6;
  double eta = 0.2;
  double subsample = 0.8;
  double colsample = 0.8;
  int folds = 5;
  // Folds are the gold sets instead of domains: each collection is scored
  // by a model trained on the others (leave one collection out).
  bool by_collection = false;
  unsigned threads = 1;  // 1: the same model on every machine
  uint64_t seed = 1;
  // Written into the model beside its training settings and cross-
  // validated figures: how to make it again (command, data and its hashes).
  std::vector<std::pair<std::string, std::string>> provenance;
  // Hears of each boosting round of each model fitted.
  TrainingProgress progress;
};

// The block model. Each block is labelled content when the gold covers at
// least `label_cover` of it, and weighted by its share of its page's
// tokens, so that every page counts the same, as in the benchmark's mean
// of page F1s.
struct BlockModelOptions : TreeOptions {
  double label_cover = 0.5;
  // A collection's pages weigh this much each (1 when it is not named):
  // a large set of one kind of page can be kept from outweighing the rest.
  std::map<std::string, double> collection_weight;
  std::vector<double> thresholds = {0.3, 0.35, 0.4, 0.45, 0.5, 0.55};
  // Also a second model, fitted to the pages whose gold type is not an
  // article, for the pages the page-type classifier types so
  // (BlockModels::others).
  bool others_model = false;
};

// The block model, and the one for pages typed as other than articles
// (empty unless BlockModelOptions::others_model). A listing's, a shop's or
// a thread's gold keeps the repeated items, specifications and sections
// that a news article's gold leaves out as teasers; one model fitted to
// both rates those blocks by the news pages, which outnumber them. Fitted
// to those pages alone, the second model leaves the articles' model as it
// was (docs/evaluation.md, "A model of its own for pages that are not
// articles").
struct BlockModels {
  std::string model;   // XGBoost UBJSON
  std::string others;  // XGBoost UBJSON, or empty
};

// The page-type classifier: one row per page, seven classes; shallower
// trees and fewer rounds for 1,500 rows than for 400,000.
struct PageTypeOptions : TreeOptions {
  PageTypeOptions() {
    rounds = 80;
    max_depth = 4;
    colsample = 0.6;
  }
};

// Cross-validation grouped by domain (no domain has pages on both sides),
// or by collection. Each collection's figure is its own benchmark's
// (CollectionScore).
struct CrossValidation {
  double threshold = 0.5;                    // the one with the best mean over the collections
  std::map<double, double> f1;               // threshold -> mean of the collections' figures, every page at it
  std::map<double, std::map<std::string, double>> f1_by_source_at;  // threshold -> collection -> figure
  // Each page's type as the page-type classifier says it, trained on the
  // other folds (empty when the gold sets name fewer than two types), and
  // the threshold of the pages it types as anything but an article: the
  // one with the best mean, those pages at it and the others at
  // `threshold` (other_f1: that mean at each).
  std::vector<std::string> typed_as;
  std::vector<float> forum_probability;  // the same classifier's, that the page is a forum
  std::vector<float> article_probability;  // the same classifier's, that the page is an article
  double other_threshold = 0.5;
  std::map<double, double> other_f1;
  // The threshold page `page` is held to (type_threshold, extract/model.h),
  // its type as extraction would have it ("" untyped), whether
  // extraction would take it for a forum (taken_for_forum), whether it
  // would be sure the page is an article (sure_article), and whether it
  // types it as one at all.
  double threshold_of(std::size_t page) const;
  std::string_view type_of(std::size_t page) const;
  bool forum_of(std::size_t page) const;
  bool article_of(std::size_t page) const;
  bool typed_article_of(std::size_t page) const;
  // What extraction keeps of page `page` (kept_blocks) at `threshold`, its
  // facts (forum, sure article, typed article) as this cross-validation
  // types it.
  KeptBlocks kept(std::size_t page, const TrainingPage& t, const std::vector<float>& probability, double threshold,
                  const std::vector<double>& words, uint8_t left_class = 0, bool teasers = true) const;
  // The figures below are the decision's: both thresholds.
  std::map<std::string, double> f1_by_type;  // over the collections that name several types
  std::map<std::string, double> f1_by_source;
  std::map<std::string, double> f1_by_language;  // pages whose gold names its language
  // Spearman's rank correlation of the quality score (text_quality under
  // the out-of-fold probabilities) with the page F1, per collection of gold
  // texts ("all": every such page).
  std::map<std::string, double> quality_spearman;
  // What the out-of-fold extraction keeps that the gold lacks, by class:
  // the words of kept blocks the gold does not cover, as a share of the
  // kept words, per collection of gold texts, by the block's nearest
  // class/id family ancestor within three levels ("comment", "related",
  // "share", ...; "none" without one). The content family
  // names the article's own wrapper and is passed over.
  std::map<std::string, std::map<std::string, double>> leaked_by_class;  // class -> collection -> share
  // The furniture rule by class (TrainingPage::furniture's numbers; the
  // rule as a whole as kEveryFurniture): the blocks the model kept that it
  // takes out, those of them the gold keeps (must-keep snippets on a
  // snippet set), and each collection's figure with the class left in the
  // text.
  struct Furniture {
    std::size_t taken = 0, gold = 0;
    std::map<std::string, double> f1_left;  // collection -> figure with the class in the text
  };
  std::map<uint8_t, Furniture> furniture;
  // The teaser rule (extract/teasers.h) measured the same way: the leads it
  // takes out of what the model kept, and the figures without it.
  Furniture teasers;
  // Each page's blocks' out-of-fold probabilities (the model that never
  // saw its domain), in page order: for analysis outside husk.
  std::vector<std::vector<float>> out_of_fold;
  std::size_t folds = 0;
  bool by_collection = false;  // the folds were the collections
};

// The threshold of the best figure in `f1` (threshold -> mean of the
// collections' figures); figures within kThresholdTie of the best are a tie,
// which the highest of them wins. Of two thresholds that close the higher
// keeps less, and husk's errors are more words kept than lost (precision
// below recall on WCXB dev, AEB and daniel-dev, docs/evaluation.md "How
// far these figures move by chance"). The tie is a tenth of what a seed
// moves the mean (0.002) and twice what chance moved the others' 0.35 and
// 0.40 apart when one daniel-dev page's rows changed (its text read as
// written, "Text encoded twice"): 0.9285 both before, 0.9291 and 0.9290
// after, and the first best took WCXB dev's in-sample figure 0.911 ->
// 0.908 with nothing learned. At seed 1 the articles' 0.45 and 0.50 once
// gave 0.925578 and 0.925567, and which came first moved AEB by 0.002.
inline constexpr double kThresholdTie = 0.0002;
double best_threshold(const std::map<double, double>& f1);

// Folds of the pages, grouped by domain: domains by page count, each to the
// fold with the fewest pages so far.
std::vector<int> domain_folds(const std::vector<TrainingPage>& pages, int folds);

// Folds of the pages, one per gold set (`source`), in name order; `folds`
// is set to their number.
std::vector<int> collection_folds(const std::vector<TrainingPage>& pages, int* folds);

// Cross-validates (when `cv` is given), then trains on every page (and
// the second model on the pages of other types). The models carry the
// feature names and, as attributes, the chosen thresholds and how they
// were trained; returned in XGBoost's UBJSON. In cross-validation each
// page the classifier types as other than an article is scored by the
// second model of its fold, as extraction scores it.
Result<BlockModels> train_block_model(const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                                      const BlockModelOptions& options, CrossValidation* cv);

// Cross-validation of the page-type classifier, grouped by domain.
struct PageTypeValidation {
  std::vector<std::string> types;                  // sorted
  std::vector<std::vector<std::size_t>> confusion;  // [gold][predicted]
  std::map<std::string, double> accuracy_by_source;
  double accuracy = 0;
  std::size_t folds = 0;
};

// Cross-validates (when `cv` is given), then trains on every page; the
// model carries the page feature names and the types, in class order, as
// its "types" attribute.
Result<std::string> train_page_type_model(const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                                          const PageTypeOptions& options, PageTypeValidation* cv);

}  // namespace husk
