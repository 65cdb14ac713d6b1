// The template extractor: Infholder and style inbreeding (husk/extract.h,
// "Cross-page templates").
#include "extractors/template.h"

#include <zlib.h>

#include <algorithm>
#include <numeric>
#include <span>
#include <unordered_map>

#include "base/url.h"
#include "extract/registry.h"

namespace husk {

std::string site_group(std::string_view url, std::string_view id, int levels_up) {
  // Pages with a URL group by host and directory; files by their path,
  // whose first segment stands where the host would.
  UrlParts parts = split_url(url.empty() ? id : url);
  std::string_view path = parts.path;
  std::string prefix = parts.host;
  if (prefix.empty()) {
    std::size_t first = path.find('/');
    if (first == std::string_view::npos) return std::string(path) + "/";
    prefix = std::string(path.substr(0, first));
    path.remove_prefix(first);
  }
  std::size_t cut = path.rfind('/');
  if (cut == std::string_view::npos) return prefix + "/";
  for (int i = 0; i < levels_up && cut > 0; ++i) cut = path.rfind('/', cut - 1);
  return prefix + std::string(path.substr(0, cut + 1));
}

std::vector<uint32_t> block_signatures(const Blocks& blocks) {
  std::vector<uint32_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) {
    // Tag names only: the seed's "drop all attributes".
    std::string path;
    for (uint32_t e = b.element; e != Element::kNone && e < blocks.elements.size(); e = blocks.elements[e].parent) {
      path += tag_name(blocks.elements[e].tag);
      path.push_back('<');
    }
    uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(path.data()), static_cast<uInt>(path.size()));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(b.text.data()), static_cast<uInt>(b.text.size()));
    out.push_back(static_cast<uint32_t>(crc));
  }
  return out;
}

namespace {

// row[j] = LCS(a, b[0, j)) for every j (one row of the classic table,
// computed in two rows of space).
void lcs_prefix_row(std::span<const uint32_t> a, std::span<const uint32_t> b, std::vector<uint32_t>& row) {
  row.assign(b.size() + 1, 0);
  for (uint32_t x : a) {
    uint32_t diagonal = 0;  // the previous row's value at j
    for (std::size_t j = 0; j < b.size(); ++j) {
      const uint32_t above = row[j + 1];
      row[j + 1] = x == b[j] ? diagonal + 1 : std::max(above, row[j]);
      diagonal = above;
    }
  }
}

// row[j] = LCS(a, b[j, m)) for every j.
void lcs_suffix_row(std::span<const uint32_t> a, std::span<const uint32_t> b, std::vector<uint32_t>& row) {
  const std::size_t m = b.size();
  row.assign(m + 1, 0);
  for (std::size_t i = a.size(); i-- > 0;) {
    uint32_t diagonal = 0;  // the previous row's value at j + 1
    for (std::size_t j = m; j-- > 0;) {
      const uint32_t below = row[j];
      row[j] = a[i] == b[j] ? diagonal + 1 : std::max(below, row[j + 1]);
      diagonal = below;
    }
  }
}

// Hirschberg, "A linear space algorithm for computing maximal common
// subsequences" (CACM 1975): split a in half, find where an optimal
// alignment crosses the middle from a forward and a backward row, recurse
// on both sides. O(n m) time, O(n + m) space.
void hirschberg(std::span<const uint32_t> a, std::span<const uint32_t> b, uint32_t a0, uint32_t b0,
                std::vector<std::pair<uint32_t, uint32_t>>& out, std::vector<uint32_t>& forward,
                std::vector<uint32_t>& backward) {
  // Equal ends align with each other in some longest alignment.
  while (!a.empty() && !b.empty() && a.front() == b.front()) {
    out.emplace_back(a0++, b0++);
    a = a.subspan(1);
    b = b.subspan(1);
  }
  std::size_t tail = 0;
  while (tail < a.size() && tail < b.size() && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  const std::size_t n = a.size() - tail, m = b.size() - tail;
  if (n > 0 && m > 0) {
    if (n == 1) {
      for (std::size_t j = 0; j < m; ++j)
        if (b[j] == a[0]) {
          out.emplace_back(a0, b0 + static_cast<uint32_t>(j));
          break;
        }
    } else {
      const std::size_t mid = n / 2;
      lcs_prefix_row(a.subspan(0, mid), b.subspan(0, m), forward);
      lcs_suffix_row(a.subspan(mid, n - mid), b.subspan(0, m), backward);
      std::size_t cut = 0;
      for (std::size_t j = 1; j <= m; ++j)
        if (forward[j] + backward[j] > forward[cut] + backward[cut]) cut = j;
      hirschberg(a.subspan(0, mid), b.subspan(0, cut), a0, b0, out, forward, backward);
      hirschberg(a.subspan(mid, n - mid), b.subspan(cut, m - cut), a0 + static_cast<uint32_t>(mid),
                 b0 + static_cast<uint32_t>(cut), out, forward, backward);
    }
  }
  for (std::size_t t = tail; t > 0; --t)
    out.emplace_back(a0 + static_cast<uint32_t>(a.size() - t), b0 + static_cast<uint32_t>(b.size() - t));
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> lcs_alignment(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  std::vector<uint32_t> forward, backward;
  hirschberg(a, b, 0, 0, out, forward, backward);
  return out;
}

TemplateModel learn_template(const std::vector<const Blocks*>& pages, const TemplateOptions& options) {
  TemplateModel model;
  model.learner = options.learner;
  model.pages = pages.size();
  if (pages.empty()) return model;
  std::vector<std::vector<uint32_t>> sigs;
  for (const Blocks* p : pages) sigs.push_back(block_signatures(*p));
  const double needed = options.quorum * static_cast<double>(pages.size());
  if (options.learner == TemplateLearner::kInbreeding) {
    // Each (path, text) block counts once per page, weighted by nothing but
    // presence: text size decides nothing here because a template block
    // and a content block of equal text cannot be told apart by size.
    std::unordered_map<uint32_t, std::size_t> df;
    for (auto& s : sigs) {
      std::vector<uint32_t> distinct = s;
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      for (uint32_t v : distinct) ++df[v];
    }
    for (const auto& [v, n] : df)
      if (static_cast<double>(n) >= needed) model.template_set.push_back(v);
    std::sort(model.template_set.begin(), model.template_set.end());
    return model;
  }
  // Infholder against the median-length reference.
  std::vector<std::size_t> order(pages.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return sigs[x].size() < sigs[y].size(); });
  const std::size_t ref = order[order.size() / 2];
  model.reference = sigs[ref];
  std::vector<std::size_t> matched(model.reference.size(), 0);
  for (std::size_t p = 0; p < sigs.size(); ++p) {
    if (p == ref) {
      for (std::size_t& m : matched) ++m;
      continue;
    }
    for (const auto& [i, j] : lcs_alignment(model.reference, sigs[p])) ++matched[i];
  }
  model.reference_template.resize(model.reference.size());
  for (std::size_t i = 0; i < matched.size(); ++i)
    model.reference_template[i] = static_cast<double>(matched[i]) >= needed ? 1 : 0;
  return model;
}

Labels apply_template(const TemplateModel& model, const Blocks& blocks, const TemplateOptions& options) {
  Labels out;
  std::vector<uint32_t> sigs = block_signatures(blocks);
  out.keep.assign(sigs.size(), 1);
  const double cells = static_cast<double>(model.reference.size()) * static_cast<double>(sigs.size());
  if (model.learner == TemplateLearner::kInbreeding) {
    for (std::size_t i = 0; i < sigs.size(); ++i)
      if (std::binary_search(model.template_set.begin(), model.template_set.end(), sigs[i])) out.keep[i] = 0;
  } else if (cells > static_cast<double>(options.max_alignment_cells)) {
    // Past the budget the order-free reading decides: a block is template
    // when its signature is one of the reference's template blocks.
    std::vector<uint32_t> furniture;
    for (std::size_t i = 0; i < model.reference.size(); ++i)
      if (model.reference_template[i]) furniture.push_back(model.reference[i]);
    std::sort(furniture.begin(), furniture.end());
    for (std::size_t i = 0; i < sigs.size(); ++i)
      if (std::binary_search(furniture.begin(), furniture.end(), sigs[i])) out.keep[i] = 0;
    out.warnings.push_back("the page has " + std::to_string(sigs.size()) + " blocks: aligning them with the template's " +
                           std::to_string(model.reference.size()) +
                           " is past the alignment budget; template blocks matched without their order");
  } else {
    for (const auto& [i, j] : lcs_alignment(model.reference, sigs))
      if (model.reference_template[i]) out.keep[j] = 0;
  }
  // A short template block between two kept blocks of prose is a label of
  // the content, not furniture: section headings every page has ("NAME",
  // "SYNOPSIS", "Summary") and field names ("Status:", "Module:"). Removing
  // it also glues its neighbours' words into shingles no reader sees.
  // "Prose" = more words outside links than in them. Measured on the Debian
  // documentation sites (README): git 0.968 -> 0.993, Apache manual en
  // 0.931 -> 0.963, ja 0.923 -> 0.929, Python 0.975 either way, PostgreSQL
  // 0.970 -> 0.968 (its footer's "Home" sits between two page titles); the
  // same at 4 and at 8 words.
  constexpr uint32_t kLabelMaxWords = 4;
  const std::vector<uint8_t> learned_keep = out.keep;
  auto prose = [&](std::size_t k) { return learned_keep[k] && blocks.blocks[k].features.link_density < 0.5f; };
  for (std::size_t i = 1; i + 1 < sigs.size(); ++i)
    if (!learned_keep[i] && blocks.blocks[i].features.words <= kLabelMaxWords && prose(i - 1) && prose(i + 1))
      out.keep[i] = 1;
  // A block made only of links into the page itself is a table of contents
  // entry (or "back to top"): it repeats the page's own headings, and its
  // text changes from page to page, so no template learner can see it.
  // Measured on the Debian documentation sites (README), before the label
  // rule above existed: Python F1 0.958 -> 0.975, Apache manual 0.928 ->
  // 0.931, PostgreSQL and git unchanged.
  for (std::size_t i = 0; i < sigs.size(); ++i) {
    const BlockFeatures& f = blocks.blocks[i].features;
    if (f.words > 0 && f.local_link_words >= f.words) out.keep[i] = 0;
  }
  return out;
}

std::vector<std::pair<std::string, TemplateModel>> learn_templates(const std::vector<TemplatePage>& pages,
                                                                   const TemplateOptions& options) {
  constexpr int kMaxLevels = 8;
  // Page counts per group key at each level of the path.
  std::vector<std::unordered_map<std::string, std::size_t>> counts(kMaxLevels + 1);
  std::vector<std::vector<std::string>> keys(pages.size());
  for (std::size_t p = 0; p < pages.size(); ++p)
    for (int level = 0; level <= kMaxLevels; ++level) {
      keys[p].push_back(site_group(pages[p].url, pages[p].id, level));
      ++counts[static_cast<std::size_t>(level)][keys[p].back()];
    }
  std::unordered_map<std::string, std::vector<std::size_t>> groups;
  std::vector<std::string> group_names;
  for (std::size_t p = 0; p < pages.size(); ++p)
    for (int level = 0; level <= kMaxLevels; ++level) {
      const std::string& key = keys[p][static_cast<std::size_t>(level)];
      if (counts[static_cast<std::size_t>(level)][key] < options.min_group_pages) continue;
      auto [it, inserted] = groups.try_emplace(key);
      if (inserted) group_names.push_back(key);
      it->second.push_back(p);
      break;
    }
  std::vector<std::pair<std::string, TemplateModel>> out;
  for (const std::string& name : group_names) {
    const std::vector<std::size_t>& members = groups[name];
    if (members.size() < options.min_group_pages) continue;
    std::vector<const Blocks*> blocks;
    for (std::size_t p : members) blocks.push_back(pages[p].blocks);
    out.emplace_back(name, learn_template(blocks, options));
  }
  return out;
}

Labels combine_evidence(const Blocks& blocks, Labels site, const Labels& page) {
  uint64_t page_words = 0, site_words = 0, shared_words = 0;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const bool by_page = i < page.keep.size() && page.keep[i], by_site = i < site.keep.size() && site.keep[i];
    const uint32_t w = blocks.blocks[i].features.words;
    page_words += by_page ? w : 0;
    site_words += by_site ? w : 0;
    shared_words += by_page && by_site ? w : 0;
  }
  const auto agree = [&](uint64_t of) {
    return static_cast<double>(shared_words) >= kTemplateAgreement * static_cast<double>(of);
  };
  if (page_words == 0 || agree(page_words) || agree(site_words)) return site;
  Labels out = page;
  out.warnings.push_back("the site's template leaves out most of what the page alone shows as content; the page's own "
                         "evidence used");
  return out;
}

namespace {

class TemplateExtractor final : public Extractor {
 public:
  explicit TemplateExtractor(std::unique_ptr<Extractor> page) : page_(std::move(page)) {}
  std::string_view name() const override { return "template"; }
  // The cascade hands over a page only with its site's template.
  Labels extract(const PageView& page) const override {
    if (page.site_template == nullptr) return Labels{};
    Labels site = apply_template(*page.site_template, page.blocks, TemplateOptions{});
    std::vector<std::string> warnings = std::move(site.warnings);
    Labels out = combine_evidence(page.blocks, std::move(site), page_->extract(page));
    out.warnings.insert(out.warnings.begin(), warnings.begin(), warnings.end());
    return out;
  }

 private:
  std::unique_ptr<Extractor> page_;
};

}  // namespace

std::unique_ptr<Extractor> make_template_extractor(std::unique_ptr<Extractor> page_evidence) {
  return std::make_unique<TemplateExtractor>(std::move(page_evidence));
}

}  // namespace husk
