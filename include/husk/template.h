// Cross-page template removal (DESIGN.md "Boilerplate, global"): pages of
// one site share a template, so what repeats across them is boilerplate.
//
// Site grouping: pages whose URLs agree up to the last path segment
// (site/a/b/c1.html with site/a/b/c2.html; for pages without a URL, their
// file's directory) form a group; a group smaller than min_group_pages
// joins its parent path's group, up to the host.
//
// Learners, over the group's text blocks, each block signed by CRC32 of its
// tag path without attributes and its text (the seed's "drop attributes,
// merge tags into blocks, CRC32 each block"):
//   infholder  the seed's Infholder: the longest common subsequence of the
//              pages' CRC vectors. Done against a reference page (the one
//              with the median block count): each page is aligned with it
//              by LCS, a reference block aligned in at least `quorum` of
//              the pages is template, and a page's blocks aligned to
//              template blocks are its template. Cost: one LCS per page,
//              linear in the group size.
//   inbreeding style inbreeding: intersect the pages' trees as sets of
//              (tag path, text) blocks weighted by text size; a block found
//              in at least `quorum` of the pages is template. Order-free.
// Content is what is not template.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "husk/extract.h"

namespace husk {

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
};

// The site group of a page: "host/dir/" from its URL, else its id's
// directory; `levels_up` climbs that many path segments.
std::string site_group(std::string_view url, std::string_view id, int levels_up = 0);

// A learned template: the reference page's block signatures and which are
// template, plus the signature set for the order-free learner.
struct TemplateModel {
  TemplateLearner learner = TemplateLearner::kInfholder;
  std::vector<uint32_t> reference;       // block signatures of the reference page
  std::vector<uint8_t> reference_template;
  std::vector<uint32_t> template_set;    // inbreeding: sorted signatures
  std::size_t pages = 0;                 // pages learned from
};

std::vector<uint32_t> block_signatures(const Blocks& blocks);

TemplateModel learn_template(const std::vector<const Blocks*>& pages, const TemplateOptions& options);

// keep[i] = 0 for the page's template blocks.
Extraction apply_template(const TemplateModel& model, const Blocks& blocks);

// A page as the template extractor sees it.
struct TemplatePage {
  std::string_view url;
  std::string_view id;
  const Blocks* blocks;
};

// Groups the pages by site, learns a template per group of at least
// min_group_pages (climbing to the parent path while a group is smaller),
// and labels every page of such a group; pages left in smaller groups get
// no labels (the caller falls back to a one-page extractor).
// `learned`, when given, receives each learned model with its group name.
std::vector<std::optional<Extraction>> template_extract(
    const std::vector<TemplatePage>& pages, const TemplateOptions& options,
    const std::function<void(const std::string& group, const TemplateModel& model)>& learned = {});

// The longest common subsequence alignment of two signature sequences:
// pairs (i, j) of aligned positions, in order. Exposed for its tests.
std::vector<std::pair<uint32_t, uint32_t>> lcs_alignment(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

}  // namespace husk
