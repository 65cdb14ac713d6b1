// The density extractor: boilerplate removal from one page alone.
//
// Sergukova's Mail.Ru lecture «Поиск дубликатов» describes boilerpipe
// ("Как работает boilerpipe?"): find the large text fragments, grow to neighbours while
// text weight is high and link weight low, and cut whole subtrees that
// fail, on the assumption that template and content do not interleave
// inside one subtree. husk makes that a maximum-weight subtree search:
//
//   1. weigh      every block: text words - link words - a fixed block cost
//                 (Kohlschütter 2010 features); stock lines weigh negative
//   2. choose     the element whose blocks weigh most, scaled by semantic and
//                 class/id hints (Readability's class weight); page furniture
//                 and boilerplate-hinted subtrees only when nothing else will do
//   3. siblings   join siblings of that element that weigh enough, or that
//                 are prose paragraphs (Readability's sibling rules)
//   4. prune      inside: cut link-dense and boilerplate-hinted subtrees
//   5. filter     drop stock lines and link-only blocks
//   6. end        cut at an end-of-article marker ("Related stories")
//   7. headline   drop the <h1> that repeats the title
//
// Each step is a function of the shared state below; the order is the
// cascade. Subtree totals are prefix sums over blocks (husk/html.h).
#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "extract/registry.h"
#include "extract/vocabulary.h"

namespace husk {

namespace {

struct ElementInfo {
  Hint hint = Hint::kNone;
  bool under_negative = false;  // this element or an ancestor is boilerplate-hinted
  bool under_furniture = false;  // ... by its tag or ARIA role: <footer>, <nav>, role=contentinfo
  bool semantic = false;  // <article>, <main>, itemprop=articleBody, role=main
  uint32_t subtree_end = 0;  // index after the element's last descendant
};

struct State {
  const Blocks& blocks;
  const DensityParams& params;
  const CompiledVocabulary& vocabulary;
  std::vector<ElementInfo> info;
  std::vector<double> weight;       // per block
  std::vector<uint8_t> junk;        // per block: a stock line
  std::vector<double> weight_sum;   // prefix sums, size blocks+1
  std::vector<double> word_sum;
  std::vector<double> link_sum;
  std::vector<uint32_t> roots;      // chosen elements (container and siblings)
  std::vector<uint8_t> keep;

  double range(const std::vector<double>& prefix, const Element& e) const {
    return prefix[e.end_block] - prefix[e.first_block];
  }
  double weight_of(uint32_t e) const { return range(weight_sum, blocks.elements[e]); }
  double words_of(uint32_t e) const { return range(word_sum, blocks.elements[e]); }
  double links_of(uint32_t e) const { return range(link_sum, blocks.elements[e]); }
  double link_density_of(uint32_t e) const {
    double w = words_of(e);
    return w > 0 ? links_of(e) / w : 0.0;
  }
};

// Tags whose whole subtree is page furniture (HTML sectioning semantics).
// <dialog> is not in the parser's tag list: it arrives as an unknown tag
// and is not recognised here.
bool is_boilerplate_tag(Tag tag) {
  return tag == Tag::kNav || tag == Tag::kAside || tag == Tag::kFooter || tag == Tag::kHeader || tag == Tag::kForm ||
         tag == Tag::kMenu;
}

bool is_semantic_tag(Tag tag) { return tag == Tag::kArticle || tag == Tag::kMain; }

void describe_elements(State& s) {
  const auto& elements = s.blocks.elements;
  s.info.resize(elements.size());
  // Elements are in pre-order: a descendant follows its ancestor, and the
  // subtree ends at the first later element that is not deeper.
  std::vector<uint32_t> open;
  std::unordered_map<std::string_view, Hint> hint_of;
  for (uint32_t i = 0; i < elements.size(); ++i) {
    while (!open.empty() && elements[open.back()].depth >= elements[i].depth) {
      s.info[open.back()].subtree_end = i;
      open.pop_back();
    }
    open.push_back(i);
    const Element& e = elements[i];
    const Tag tag = e.tag;
    ElementInfo& info = s.info[i];
    info.semantic = is_semantic_tag(tag) || (e.flags & (kElemArticleBody | kElemMainRole));
    // <body>'s classes describe the page's state ("main-menu-pinned",
    // "has-sidebar"), not a region of it: they say nothing.
    if (e.parent == Element::kNone) {
      info.hint = Hint::kNone;
    } else {
      // A page repeats its class values: each is matched once.
      auto [cached, inserted] = hint_of.try_emplace(e.hints, Hint::kNone);
      if (inserted) cached->second = s.vocabulary.classify_hints(e.hints);
      info.hint = cached->second;
    }
    if (is_boilerplate_tag(tag) || (e.flags & kElemNavRole)) info.hint = Hint::kNegative;
    if (info.semantic && info.hint == Hint::kNegative && !is_boilerplate_tag(tag) && !(e.flags & kElemNavRole))
      info.hint = Hint::kPositive;  // <article class="post-sidebar-layout"> is still the article
    info.under_negative = info.hint == Hint::kNegative ||
                          (e.parent != Element::kNone && s.info[e.parent].under_negative);
    info.under_furniture = is_boilerplate_tag(tag) || (e.flags & kElemNavRole) ||
                           (e.parent != Element::kNone && s.info[e.parent].under_furniture);
  }
  for (uint32_t e : open) s.info[e].subtree_end = static_cast<uint32_t>(elements.size());
}

// Step 1.
void weigh(State& s) {
  const auto& blocks = s.blocks.blocks;
  const DensityParams& p = s.params;
  s.weight.resize(blocks.size());
  s.junk.assign(blocks.size(), 0);
  s.weight_sum.assign(blocks.size() + 1, 0.0);
  s.word_sum.assign(blocks.size() + 1, 0.0);
  s.link_sum.assign(blocks.size() + 1, 0.0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const BlockFeatures& f = blocks[i].features;
    double text_words = static_cast<double>(f.words) - f.link_words;
    double w = text_words - p.link_penalty * f.link_words - p.block_cost;
    if (f.words <= 8 && s.vocabulary.is_boilerplate_line(blocks[i].text)) {
      s.junk[i] = 1;
      w = -(static_cast<double>(f.words) + p.block_cost);
    }
    s.weight[i] = w;
    s.weight_sum[i + 1] = s.weight_sum[i] + w;
    s.word_sum[i + 1] = s.word_sum[i] + f.words;
    s.link_sum[i + 1] = s.link_sum[i] + f.link_words;
  }
}

// A candidate inside a comment section or a sidebar is discounted however
// content-like its own class is ("comment > div.content").
double hint_factor(const State& s, uint32_t e) {
  const ElementInfo& info = s.info[e];
  if (info.under_negative) return s.params.negative_hint_factor;
  if (info.semantic) return s.params.semantic_boost;
  if (info.hint == Hint::kPositive) return s.params.positive_hint_boost;
  return 1.0;
}

// The best candidate container of a pool: the largest weight times the
// hint factor; on a tie the deeper element (later in pre-order), which is
// tighter. `with_cost` false weighs blocks without the block cost.
std::optional<uint32_t> best_candidate(const State& s, bool clean_only, bool with_cost) {
  double best = 0;
  std::optional<uint32_t> best_element;
  for (uint32_t e = 0; e < s.blocks.elements.size(); ++e) {
    const ElementInfo& info = s.info[e];
    if (clean_only && info.under_furniture) continue;
    const Element& el = s.blocks.elements[e];
    double w = s.weight_of(e);
    if (!with_cost) w += s.params.block_cost * (el.end_block - el.first_block);
    if (w <= 0) continue;
    double score = w * hint_factor(s, e);
    if (score >= best) {
      best = score;
      best_element = e;
    }
  }
  return best_element;
}

// Step 2: the container, by the first gate that finds a candidate.
//   a. elements outside page furniture (<footer>, <nav>, <aside>,
//      <header>, <form>, their ARIA roles): a short article must not lose
//      to the licence text in the footer (boilerplate class/id words only
//      discount, as they mislabel real containers too often to exclude);
//   b. the same elements weighed without the block cost: a stub of a few
//      link-rich sentences still beats the furniture;
//   c. any element;
//   d. <body>.
void choose(State& s) {
  std::optional<uint32_t> root = best_candidate(s, true, true);
  if (!root) root = best_candidate(s, true, false);
  if (!root) root = best_candidate(s, false, true);
  s.roots.push_back(root.value_or(0));
}

// Readability's paragraph siblings: a one-block sibling that reads as prose
// joins even when it weighs little: 80 characters or more with link density
// below sibling_max_link_density, or a shorter one without links that ends a
// sentence.
bool is_paragraph_sibling(const State& s, uint32_t e) {
  const Element& el = s.blocks.elements[e];
  if (el.end_block != el.first_block + 1) return false;
  const Block& b = s.blocks.blocks[el.first_block];
  if (b.features.heading != 0 || s.junk[el.first_block]) return false;
  if (b.features.chars >= 80) return b.features.link_density < s.params.sibling_max_link_density;
  if (b.features.link_words > 0 || b.text.empty()) return false;
  std::string_view t = b.text;
  for (std::string_view end : {".", "!", "?", "\u3002", "\uFF01", "\uFF1F"})
    if (t.size() >= end.size() && t.substr(t.size() - end.size()) == end) return true;
  return false;
}

// Step 3.
void add_siblings(State& s) {
  uint32_t root = s.roots.front();
  uint32_t parent = s.blocks.elements[root].parent;
  if (parent == Element::kNone) return;
  const DensityParams& p = s.params;
  double bar = std::max(p.sibling_min_weight, p.sibling_ratio * s.weight_of(root));
  // When the winner is a single paragraph, the article is the run of
  // paragraphs around it: a sibling of the same tag that weighs anything
  // and is not navigation joins (encyclopedia paragraphs carry a link every
  // few words, above Readability's 0.25).
  const Element& r = s.blocks.elements[root];
  const bool paragraph_root = r.end_block == r.first_block + 1 && r.tag == Tag::kP;
  for (uint32_t c = parent + 1; c < s.info[parent].subtree_end; c = s.info[c].subtree_end) {
    if (c == root || s.info[c].hint == Hint::kNegative) continue;
    bool heavy = s.weight_of(c) >= bar && s.link_density_of(c) < p.sibling_max_link_density;
    bool fellow = paragraph_root && s.blocks.elements[c].tag == r.tag && s.weight_of(c) > 0 &&
                  s.link_density_of(c) <= p.cut_link_density;
    if (heavy || fellow || is_paragraph_sibling(s, c)) s.roots.push_back(c);
  }
  std::sort(s.roots.begin(), s.roots.end());
}

// Step 4: keep the blocks of the roots, less the subtrees that fail.
void prune(State& s) {
  const DensityParams& p = s.params;
  s.keep.assign(s.blocks.blocks.size(), 0);
  for (uint32_t root : s.roots) {
    const Element& r = s.blocks.elements[root];
    double root_text = s.words_of(root) - s.links_of(root);
    for (uint32_t b = r.first_block; b < r.end_block; ++b) s.keep[b] = 1;
    for (uint32_t e = root + 1; e < s.info[root].subtree_end;) {
      double words = s.words_of(e);
      double text = words - s.links_of(e);
      bool hinted_out = s.info[e].hint == Hint::kNegative && text <= p.keep_hinted_share * root_text;
      bool link_dense = words >= p.cut_min_words && s.links_of(e) > 0 && s.link_density_of(e) > p.cut_link_density;
      if (hinted_out || link_dense) {
        const Element& cut = s.blocks.elements[e];
        for (uint32_t b = cut.first_block; b < cut.end_block; ++b) s.keep[b] = 0;
        e = s.info[e].subtree_end;  // skip the whole subtree
      } else {
        ++e;  // descend
      }
    }
  }
}

// Step 5.
void filter_blocks(State& s) {
  const DensityParams& p = s.params;
  for (std::size_t i = 0; i < s.keep.size(); ++i) {
    if (!s.keep[i]) continue;
    const BlockFeatures& f = s.blocks.blocks[i].features;
    if (s.junk[i] || (f.link_density >= p.block_link_density && f.words <= p.block_link_max_words)) s.keep[i] = 0;
  }
}

// Step 6.
void cut_at_end_marker(State& s) {
  const DensityParams& p = s.params;
  double total = 0;
  for (std::size_t i = 0; i < s.keep.size(); ++i)
    if (s.keep[i]) total += s.blocks.blocks[i].features.words;
  double seen = 0;
  for (std::size_t i = 0; i < s.keep.size(); ++i) {
    if (!s.keep[i]) continue;
    const Block& b = s.blocks.blocks[i];
    if (b.features.words <= p.end_marker_max_words && seen >= p.end_marker_min_share * total &&
        s.vocabulary.is_end_marker(b.text)) {
      std::fill(s.keep.begin() + static_cast<std::ptrdiff_t>(i), s.keep.end(), 0);
      return;
    }
    seen += b.features.words;
  }
}

// Step 7.
void drop_headline(State& s) {
  for (std::size_t i = 0; i < s.keep.size(); ++i) {
    if (!s.keep[i]) continue;
    const Block& b = s.blocks.blocks[i];
    if (b.features.heading == 1 && (b.text == s.blocks.first_h1 || b.text == s.blocks.og_title)) s.keep[i] = 0;
  }
}

class DensityExtractor final : public Extractor {
 public:
  explicit DensityExtractor(const ExtractConfig& config) : params_(config.density), vocabulary_(config.vocabulary) {}

  std::string_view name() const override { return "density"; }

  Labels extract(const PageView& page) const override {
    const Blocks& blocks = page.blocks;
    Labels out;
    if (blocks.blocks.empty()) return out;
    State s{blocks, params_, vocabulary_, {}, {}, {}, {}, {}, {}, {}, {}};
    describe_elements(s);
    using Step = void (*)(State&);
    static constexpr Step kCascade[] = {weigh, choose, add_siblings, prune, filter_blocks, cut_at_end_marker,
                                        drop_headline};
    for (Step step : kCascade) step(s);
    out.keep = std::move(s.keep);
    return out;
  }

 private:
  DensityParams params_;
  CompiledVocabulary vocabulary_;
};

}  // namespace

std::unique_ptr<Extractor> make_density_extractor(const ExtractConfig& config) {
  return std::make_unique<DensityExtractor>(config);
}

}  // namespace husk
