#include "eval/tune.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "eval/eval.h"
#include "extract/xpath_page.h"
#include "husk/extract.h"

namespace husk {

namespace {

struct Prepared {
  std::vector<std::unique_ptr<XpathPage>> pages;
};

Result<std::vector<pugi::xpath_query>> compile(const std::vector<std::string>& xpaths) {
  std::vector<pugi::xpath_query> out;
  for (const std::string& x : xpaths) {
    Result<pugi::xpath_query> query = compile_xpath(x);
    if (!query.ok()) return query.status();
    out.push_back(std::move(*query));
  }
  return out;
}

RuleScore score_with(const std::vector<TunePage>& pages, const Prepared& prepared,
                     const std::vector<pugi::xpath_query>& include, const std::vector<pugi::xpath_query>& exclude,
                     const std::vector<std::string>& include_text, const std::vector<std::string>& exclude_text) {
  RuleScore score;
  score.include = include_text;
  score.exclude = exclude_text;
  std::vector<PageScore> per_page;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    Labels e = prepared.pages[p]->select(include, exclude, include_text, exclude_text, pages[p].id);
    for (std::string& w : e.warnings) score.warnings.push_back(pages[p].id + ": " + w);
    double all = 0, kept = 0;
    for (std::size_t b = 0; b < e.keep.size(); ++b) {
      all += pages[p].blocks->blocks[b].features.words;
      if (e.keep[b]) kept += pages[p].blocks->blocks[b].features.words;
    }
    score.page_kept.push_back(all > 0 ? kept / all : 0.0);
    PageScore s;
    s.id = pages[p].id;
    s.match = match_shingles(pages[p].gold, kept_text(*pages[p].blocks, e));
    score.page_f1.push_back(page_f1(s.match));
    score.page_match.push_back(s.match);
    per_page.push_back(std::move(s));
  }
  ExtractScore total = score_pages(std::move(per_page));
  score.precision = total.precision;
  score.recall = total.recall;
  score.f1 = total.f1;
  return score;
}

Prepared prepare(const std::vector<TunePage>& pages) {
  Prepared p;
  for (const TunePage& page : pages) p.pages.push_back(std::make_unique<XpathPage>(*page.blocks, *page.dom));
  return p;
}

// Attribute values usable inside a single-quoted XPath literal.
bool quotable(const char* v) { return v != nullptr && *v != 0 && std::string_view(v).find('\'') == std::string_view::npos; }

// id/class candidates of one page; with `inside`, only nodes inside the
// nodes `inside` selects.
std::set<std::string> candidates(const XpathPage& page, const pugi::xpath_query* inside) {
  std::set<std::string> out;
  std::vector<pugi::xml_node> roots;
  if (inside != nullptr) {
    for (const pugi::xpath_node& n : inside->evaluate_node_set(page.doc())) roots.push_back(n.node());
  } else {
    roots.push_back(page.doc().document_element());
    for (const char* semantic : {"//main", "//article", "//*[@role='main']", "//*[@itemprop='articleBody']"})
      if (!page.doc().select_nodes(semantic).empty()) out.insert(semantic);
  }
  for (const pugi::xml_node& root : roots) {
    for (const pugi::xpath_node& xn : root.select_nodes(".//*[@id or @class]")) {
      pugi::xml_node n = xn.node();
      // Rules select containers: an inline node would stand for the whole
      // block around it.
      if (!page.is_block(n)) continue;
      const char* id = n.attribute("id").value();
      const char* cls = n.attribute("class").value();
      if (quotable(id)) out.insert(std::string("//") + n.name() + "[@id='" + id + "']");
      if (quotable(cls)) out.insert(std::string("//") + n.name() + "[@class='" + cls + "']");
    }
  }
  return out;
}

std::vector<std::string> frequent(const std::vector<std::set<std::string>>& per_page, std::size_t at_least) {
  std::map<std::string, std::size_t> count;
  for (const auto& s : per_page)
    for (const std::string& c : s) ++count[c];
  std::vector<std::string> out;
  for (const auto& [c, n] : count)
    if (n >= at_least) out.push_back(c);
  return out;
}

// Higher F1 first; on a tie the smaller rule set, then the shorter XPaths.
bool better(const RuleScore& a, const RuleScore& b) {
  if (std::abs(a.f1 - b.f1) > 1e-9) return a.f1 > b.f1;
  std::size_t na = a.include.size() + a.exclude.size(), nb = b.include.size() + b.exclude.size();
  if (na != nb) return na < nb;
  std::size_t la = 0, lb = 0;
  for (const auto& x : a.include) la += x.size();
  for (const auto& x : b.include) lb += x.size();
  return la < lb;
}

}  // namespace

Result<RuleScore> score_rule(const std::vector<TunePage>& pages, const std::vector<std::string>& include,
                             const std::vector<std::string>& exclude) {
  auto inc = compile(include);
  if (!inc.ok()) return inc.status();
  auto exc = compile(exclude);
  if (!exc.ok()) return exc.status();
  Prepared prepared = prepare(pages);
  return score_with(pages, prepared, *inc, *exc, include, exclude);
}

namespace {

// Adds excludes to `start` greedily while each raises F1 by 0.002.
RuleScore grow_excludes(const std::vector<TunePage>& pages, const Prepared& prepared, RuleScore best) {
  auto compiled_include = compile(best.include);
  if (!compiled_include.ok()) return best;
  const std::vector<pugi::xpath_query>& include = *compiled_include;
  std::vector<std::set<std::string>> inner;
  for (const auto& p : prepared.pages) inner.push_back(candidates(*p, include.empty() ? nullptr : &include[0]));
  std::vector<std::string> excludes = frequent(inner, pages.size() >= 2 ? 2 : 1);
  std::vector<std::string> chosen;
  for (int round = 0; round < 10; ++round) {
    RuleScore round_best = best;
    std::string pick;
    for (const std::string& c : excludes) {
      if (std::find(chosen.begin(), chosen.end(), c) != chosen.end()) continue;
      if (!best.include.empty() && c == best.include[0]) continue;
      std::vector<std::string> trial = chosen;
      trial.push_back(c);
      auto q = compile(trial);
      if (!q.ok()) continue;
      RuleScore s = score_with(pages, prepared, include, *q, best.include, trial);
      if (s.f1 >= round_best.f1 + 0.002) {
        round_best = std::move(s);
        pick = c;
      }
    }
    if (pick.empty()) break;
    chosen.push_back(pick);
    best = std::move(round_best);
  }
  return best;
}

}  // namespace

RuleScore propose_rule(const std::vector<TunePage>& pages) {
  if (pages.empty()) return RuleScore{};
  Prepared prepared = prepare(pages);
  std::vector<std::set<std::string>> per_page;
  for (const auto& p : prepared.pages) per_page.push_back(candidates(*p, nullptr));
  const auto quorum = static_cast<std::size_t>(std::ceil(0.6 * static_cast<double>(pages.size())));
  // Include candidates, best first; no include at all (the whole page,
  // template cut by excludes) is always among them.
  std::vector<RuleScore> includes{score_with(pages, prepared, {}, {}, {}, {})};
  for (const std::string& c : frequent(per_page, quorum)) {
    auto q = compile({c});
    if (q.ok()) includes.push_back(score_with(pages, prepared, *q, {}, {c}, {}));
  }
  std::stable_sort(includes.begin(), includes.end(), better);
  // The three best includes, and no include, each grown with excludes.
  RuleScore best;
  bool have = false;
  for (std::size_t i = 0; i < includes.size(); ++i) {
    if (i >= 3 && !includes[i].include.empty()) continue;
    RuleScore grown = grow_excludes(pages, prepared, includes[i]);
    if (!have || better(grown, best)) {
      best = std::move(grown);
      have = true;
    }
  }
  best.warnings.clear();
  return best;
}

}  // namespace husk
