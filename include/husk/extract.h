// Extract: label the blocks of a page as content or boilerplate.
//
// An extractor is a pure function of what it sees of a page (PageView); its
// tunables are fixed when it is made. Extractors:
//   density   local, one page alone (boilerpipe-like; extractors/density.cc)
//   fulltext  every visible block (the baseline)
//   xpath     an operator's per-site rule (extractors/xpath.cc)
//   template  the learned template of the page's site (extractors/template.cc)
// Which one labels a page is decided by the cascade of husk::Processor
// (site rule, else stored template, else density; husk/processor.h).
//
// Also here: the tunables of extraction (ExtractConfig, mirrored in
// config/extract.toml), the per-site XPath rules (SiteRules) and the
// cross-page templates (learning them and the store that keeps them).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "husk/html.h"
#include "husk/status.h"

namespace husk {

// ---- Tunables ----

// One struct per stage, every field with its default and where that
// default comes from. config/extract.toml mirrors these defaults (a test
// keeps the two equal) and holds the word lists the density extractor
// matches against, which are data, not code.
struct DensityParams {
  // --- Block weight: w = text_words - link_penalty * link_words - block_cost.
  // A block must carry more words than block_cost to argue for its
  // container. Kohlschütter 2010 (C4.8 tree) splits content from boilerplate
  // at 10-15 words per block, but here the cost is only the zero point of a
  // container's weight, so short lines inside an article (list items,
  // captions) must not sink it. Measured on the article-extraction-
  // benchmark: F1 is flat within 0.01 for costs 4-8 and falls beyond
  // (10: 0.949, 12: 0.930, 15: 0.919); 6 is the middle of that plateau.
  double block_cost = 6.0;
  // What a link word costs, on top of not counting as text: navigation is
  // made of links (boilerpipe's link density is the strongest single
  // feature). Benchmark F1 is flat for 0.5-1.0 (0.9608 both); 0.5 keeps
  // encyclopedia prose with a link every few words positive, so a stub
  // article still outweighs an injected advertisement.
  double link_penalty = 0.5;

  // --- Container choice: the element with the largest weighted subtree.
  // Readability's class weight (+25 / -25 on a typical score of 100) turned
  // into factors.
  double positive_hint_boost = 1.25;  // class/id says article, content, post ...
  double semantic_boost = 1.5;        // <article>, <main>, itemprop=articleBody, role=main
  // class/id says comment, sidebar, related ... Readability subtracts 25
  // from a typical container score of ~50; 0.3-0.5 measured within 0.005.
  double negative_hint_factor = 0.5;

  // --- Pruning inside the container: cut whole subtrees that fail
  // (boilerpipe's assumption that template and content do not interleave
  // inside one subtree). A subtree whose link density exceeds this is
  // navigation (boilerpipe's DensityRulesClassifier uses 0.333 and 0.5; the
  // higher one, because inside an article links are common).
  double cut_link_density = 0.5;
  // Subtrees with fewer words than this are judged by link density only when
  // they hold at least one link word; a lone short line stays.
  uint32_t cut_min_words = 3;
  // A boilerplate-hinted subtree that holds more than this share of the
  // container's text words is the content itself and stays.
  double keep_hinted_share = 0.5;
  // A single block with this link density or more is dropped (a "Read more:"
  // line, a tag list) when it has at most block_link_max_words words.
  double block_link_density = 0.7;
  uint32_t block_link_max_words = 40;

  // --- Siblings of the container (Readability: score above
  // max(10, 0.2 * top score), or a paragraph with link density < 0.25).
  double sibling_ratio = 0.2;
  double sibling_min_weight = 10.0;
  double sibling_max_link_density = 0.25;

  // --- End-of-article markers ("Related stories", "Comments"): a short block on the
  // list ends the article when it comes after this share of the container's words.
  double end_marker_min_share = 0.3;
  uint32_t end_marker_max_words = 6;
};

struct Vocabulary {
  std::vector<std::string> positive_hints;     // class/id substrings of content containers
  std::vector<std::string> negative_hints;     // class/id substrings of boilerplate containers
  std::vector<std::string> negative_tokens;    // class/id words that must match a whole token ("ad", "nav")
  std::vector<std::string> end_markers;        // block texts that end an article, lower case
  std::vector<std::string> boilerplate_lines;  // whole-block texts that are never content, lower case
  std::vector<std::string> comment_headings;   // short block texts that open a comment section, lower case
};

// A family of class/id words ("comment", "navigation", ...): the learned
// extractor's features look for each family on a block's ancestors.
struct HintFamily {
  std::string name;
  std::vector<std::string> substrings;  // match anywhere in a class or id value
  std::vector<std::string> tokens;      // match a whole word of it (split at space, '-', '_')
};

// Named presets of the learned extractor (trafilatura's favor_precision
// and favor_recall): its block threshold moved up or down. Measured on the
// dev sets in docs/evaluation.md ("Presets").
enum class ExtractPreset : uint8_t { kBalanced, kPrecision, kRecall };

// A class of page furniture ("credit", "paywall", ...): short blocks that
// are about the page, not its text (src/extract/furniture.h). Each pattern
// is RE2, matched case-insensitively anywhere in the block's text:
// `patterns` in a line of at most kFurnitureMaxWords words ([furniture]),
// `any_length` in a block of any length ([furniture_any_length]).
struct FurnitureClass {
  std::string name;
  std::vector<std::string> patterns;
  std::vector<std::string> any_length;
};

struct ExtractConfig {
  DensityParams density;
  Vocabulary vocabulary;
  std::vector<HintFamily> families;  // in name order
  std::vector<FurnitureClass> furniture;  // in name order
  // The learned extractor's block model: a file written by husk train
  // extract, or empty for the model compiled into husk.
  std::string block_model;
  ExtractPreset preset = ExtractPreset::kBalanced;
};

// The built-in configuration: DensityParams defaults and the vocabulary of
// config/extract.toml, which is compiled into the binary.
const ExtractConfig& default_extract_config();

// Parses a TOML configuration (the format of config/extract.toml) over the
// defaults; keys it does not set keep their default. A bad key or value is
// reported with the file name and line.
Result<ExtractConfig> load_extract_config(const std::string& path);
Result<ExtractConfig> parse_extract_config(const std::string& toml_text, const std::string& source_name);

// Every DensityParams field as (config name, value), in declaration order.
std::vector<std::pair<std::string, double>> describe(const DensityParams& params);

// ---- Per-site XPath rules ----

// config/sites/*.toml, or any directory given with --sites: what is content
// on a site and what is template inside it, an operator's exact tool.
//
//   [[rule]]
//   host = "docs.python.org"          # the page URL's host, or
//   match = "python3.11/html/"        # an RE2 pattern over the URL, or over
//                                     # the file path when it has no URL
//   include = ["//div[@role='main']"] # content: blocks inside these nodes
//   exclude = ["//div[@class='headerlink']"]  # template inside the content
//
// A rule applies when every matcher it gives matches. Rules are compiled at
// load: a bad XPath is reported with file, line and the offset the XPath
// parser gives, a bad pattern with file and line.
struct SiteRule {
  std::string file;
  int line = 0;
  std::string host;
  std::string match;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

class SiteRules {
 public:
  // Every *.toml file of dir, in name order.
  static Result<std::shared_ptr<const SiteRules>> load_dir(const std::string& dir);
  // One TOML text (tests, husk tune's proposals).
  static Result<std::shared_ptr<const SiteRules>> parse(const std::string& text, const std::string& source);

  ~SiteRules();
  const std::vector<SiteRule>& rules() const { return rules_; }
  // The first rule for a page, or null.
  const SiteRule* find(std::string_view url, std::string_view id) const;

  // The rule's XPaths, compiled (for husk's own extractors).
  struct Compiled;
  const Compiled& compiled(const SiteRule& rule) const;

 private:
  SiteRules() = default;
  Status add(std::string_view text, const std::string& source);
  std::vector<SiteRule> rules_;
  std::vector<std::unique_ptr<Compiled>> compiled_;
};

// ---- Cross-page templates ----

// Pages of one site share a template, so what repeats across them is
// boilerplate (Infholder; style inbreeding — Sergukova, Mail.Ru lecture
// «Поиск дубликатов», "Global-based" boilerplate removal).
//
// Site grouping: pages whose URLs agree up to the last path segment
// (site/a/b/c1.html with site/a/b/c2.html; for pages without a URL, their
// file's directory) form a group; a group smaller than min_group_pages
// joins its parent path's group, up to the host.
//
// Learners, over the group's text blocks, each block signed by CRC32 of its
// tag path without attributes and its text ("drop attributes, merge tags
// into blocks, CRC32 each block"):
//   infholder  the longest common subsequence of the pages' CRC vectors,
//              done against a reference page (the one with the median
//              block count): each page is aligned with it by LCS, a
//              reference block aligned in at least `quorum` of the pages is
//              template. Cost: one LCS per page, linear in the group size.
//   inbreeding style inbreeding: the pages' trees as sets of (tag path,
//              text) blocks; a block found in at least `quorum` of the
//              pages is template. Order-free.
// Content is what is not template.
enum class TemplateLearner { kInfholder, kInbreeding };

struct TemplateOptions {
  TemplateLearner learner = TemplateLearner::kInfholder;
  // A block is template when at least this share of the group's pages has
  // it (Infholder's LCS over all pages is quorum 1.0; 0.5 survives pages
  // that drop a menu item or add a banner).
  double quorum = 0.5;
  // Groups smaller than this learn no template: with fewer pages, text
  // that repeats by chance ("Note", "Parameters") looks like template.
  std::size_t min_group_pages = 5;
  // The most cells (reference blocks x page blocks) the alignment of a
  // page with its template may visit; past it the page's blocks are
  // matched without order. Alignment memory is linear; this bounds its
  // time: 2^28 cells take about a second here (3,200 x 80,000 blocks),
  // far beyond any page of the documentation sites (under 10^7).
  std::size_t max_alignment_cells = std::size_t(1) << 28;
};

// A learned template: the reference page's block signatures and which are
// template, plus the signature set for the order-free learner.
struct TemplateModel {
  TemplateLearner learner = TemplateLearner::kInfholder;
  std::vector<uint32_t> reference;  // block signatures of the reference page
  std::vector<uint8_t> reference_template;
  std::vector<uint32_t> template_set;  // inbreeding: sorted signatures
  std::size_t pages = 0;               // pages learned from
};

// The site group of a page: "host/dir/" from its URL, else its id's
// directory; `levels_up` climbs that many path segments.
std::string site_group(std::string_view url, std::string_view id, int levels_up = 0);

// A page as the template learner sees it.
struct TemplatePage {
  std::string_view url;
  std::string_view id;
  const Blocks* blocks;
};

// The learning step: groups the pages by site (climbing to the parent path
// while a group is smaller than min_group_pages) and learns a model per
// group; returns (group, model) in the order the groups first appear.
std::vector<std::pair<std::string, TemplateModel>> learn_templates(const std::vector<TemplatePage>& pages,
                                                                   const TemplateOptions& options);

// Learned templates by site group: in memory, and with open() also in an
// LMDB environment (one key per group) that later runs and the service
// read. A refresh replaces the old model. LMDB commits are durable: a
// killed run loses nothing it committed. Thread-safe.
class TemplateStore {
 public:
  static std::shared_ptr<TemplateStore> in_memory();
  static Result<std::shared_ptr<TemplateStore>> open(const std::string& dir);
  ~TemplateStore();

  Status put(const std::string& group, const TemplateModel& model);
  std::shared_ptr<const TemplateModel> get(const std::string& group) const;
  // The model of the most specific stored group of a page, climbing its
  // path as site_group() does; null when none.
  std::shared_ptr<const TemplateModel> find(std::string_view url, std::string_view id) const;

  struct Impl;

 private:
  explicit TemplateStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// ---- Extractors ----

// Labels of a page's blocks.
struct Labels {
  std::vector<uint8_t> keep;  // one entry per block: 1 = content
  // The block model's probability that each block is content, when it ran
  // (the learned extractor's own, or the cascade's for the quality score).
  std::vector<float> probability;
  // The probability a block needed to be kept on this page, when the block
  // model decided it (the page's threshold, docs/architecture.md); 0 else.
  double threshold = 0;
  std::vector<std::string> warnings;
  std::string extractor;  // the extractor that labelled the page
};

struct PageFeatures;

// A page's time budget (ProcessorOptions::page_timeout_ms), counted in the
// CPU time of the thread working on the page (CLOCK_THREAD_CPUTIME_ID), so
// that whether a page runs out depends on the page, not on --jobs or the
// machine's load. Stages check it between steps and in their long loops;
// the default never passes. A page that moves to another thread
// (analyze() on one, finish() on another) carries what it spent: pause()
// where it leaves a thread, resume() where it goes on.
struct Deadline {
  static Deadline after(std::chrono::milliseconds budget);
  bool passed() const;
  void pause();
  void resume();

  int64_t budget_ns = -1;  // none
  int64_t spent_ns = 0;    // spent before the current thread took the page
  int64_t since_ns = 0;    // the current thread's CPU clock when it took the page
};

// What an extractor sees of a page.
struct PageView {
  const Blocks& blocks;
  const Dom* dom = nullptr;  // the parsed tree, for extractors that query it (xpath)
  std::string_view url;
  std::string_view id;  // the page's id, or for files the path it was read from
  // Found for this page by the cascade:
  const SiteRules* sites = nullptr;
  const SiteRule* rule = nullptr;                // the site rule that matches the page
  const TemplateModel* site_template = nullptr;  // the stored template of its site
  // The block features, when the processor computed them already (for the
  // page type); the learned extractor computes them itself otherwise.
  const PageFeatures* features = nullptr;
  // The page's type, when the processor classified it ("article",
  // "listing", ...): the learned extractor holds an article's blocks to
  // the model's threshold and other pages' to the model's threshold for
  // those (type_threshold, src/extract/model.h).
  std::string_view page_type = {};
  // The same classifier's probability that the page is an article (1 when
  // it was not classified): the learned extractor's second block model
  // scores only pages it gives little chance of being one.
  float article_probability = 1.0f;
  Deadline deadline = {};  // the page's; an extractor may stop early when it passes
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  virtual std::string_view name() const = 0;
  virtual Labels extract(const PageView& page) const = 0;
};

// Names of the extractors and of "auto" (the cascade), for --help and errors.
std::vector<std::string> extractor_names();

// One extractor by name: density, fulltext, xpath (needs PageView::rule),
// template (needs PageView::site_template).
Result<std::unique_ptr<Extractor>> make_extractor(std::string_view name, const ExtractConfig& config);

// How likely the kept blocks are the page's content, in [0, 1]: the mean
// of the F1 they would score if each block were content with the block
// model's probability (2·E[kept content words] / (kept words + E[content
// words])), less the words the model was unsure of (probability between
// 0.2 and 0.8) for each kept word, and the precision they would score
// (E[kept content words] / kept words). 0 when no probability is known or
// nothing is kept.
// Blocks marked in `ruled_out` (furniture, a teaser's lead or the comment
// section, a rule took out after the model) count neither as kept nor as
// content, whatever the model said.
double text_quality(const Blocks& blocks, const Labels& labels, const std::vector<uint8_t>& ruled_out = {});
// The same over blocks given by their word counts.
double text_quality(const std::vector<float>& probability, const std::vector<uint8_t>& keep,
                    const std::vector<double>& words, const std::vector<uint8_t>& ruled_out = {});
// Marks in `into` the blocks `more` marks (what two rules took out
// together), growing it as needed.
void rule_out(std::vector<uint8_t>& into, const std::vector<uint8_t>& more);
// Each block's words (BlockFeatures::words), as the quality score and the
// comment rule weigh blocks.
std::vector<double> word_counts(const Blocks& blocks);

// The kept blocks' text, one paragraph per block, separated by blank lines.
std::string kept_text(const Blocks& blocks, const Labels& labels);

}  // namespace husk
