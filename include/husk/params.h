// Tunables of the extraction stages: one struct per stage, every field with
// its default and where that default comes from. config/extract.toml mirrors
// these defaults (a test keeps the two equal) and holds the word lists the
// density extractor matches against, which are data, not code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "husk/status.h"

namespace husk {

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

  // --- Pruning inside the container ("cut the whole subtree", seed 003).
  // A subtree whose link density exceeds this is navigation (boilerpipe's
  // DensityRulesClassifier uses 0.333 and 0.5; the higher one, because
  // inside an article links are common).
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

  // --- End-of-article markers ("Related stories", "Comments"): a short block
  // matching the end-marker list ends the article when it comes after this
  // share of the container's words.
  double end_marker_min_share = 0.3;
  uint32_t end_marker_max_words = 6;
};

struct Vocabulary {
  std::vector<std::string> positive_hints;   // class/id substrings of content containers
  std::vector<std::string> negative_hints;   // class/id substrings of boilerplate containers
  std::vector<std::string> negative_tokens;  // class/id words that must match a whole token ("ad", "nav")
  std::vector<std::string> end_markers;      // block texts that end an article, lower case
  std::vector<std::string> boilerplate_lines;  // whole-block texts that are never content, lower case
};

class SiteRules;

struct ExtractConfig {
  DensityParams density;
  Vocabulary vocabulary;
  std::shared_ptr<const SiteRules> sites;  // per-site XPath rules (--sites DIR), may be null
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

// The built-in config/extract.toml text.
const std::string& builtin_extract_toml();

}  // namespace husk
