// Tuning per-site XPath rules against a few labelled pages (husk tune).
//
// Scoring is the article-extraction-benchmark's (eval/eval.h) over the
// labelled pages. Proposals: every element with an id or a class on the
// labelled pages gives a candidate XPath (//tag[@id='x'], //tag[@class='y'],
// plus //main, //article, //*[@role='main'], //*[@itemprop='articleBody']);
// candidates found on at least 60% of the pages are tried as the include
// rule, beside no include at all (the whole page), and the best (F1, then
// the shorter XPath) is kept; then exclude
// candidates from inside the included region (found on at least two pages,
// or on the only one) are added greedily while each raises F1 by at least
// 0.002, ten at most: the smallest rule set whose text best matches the gold.
#pragma once

#include <string>
#include <vector>

#include "eval/eval.h"
#include "husk/html.h"
#include "husk/status.h"

namespace husk {

struct TunePage {
  std::string id;
  std::string gold;  // the page's gold text
  const Blocks* blocks = nullptr;
  const Dom* dom = nullptr;
};

struct RuleScore {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  double precision = 0, recall = 0, f1 = 0;
  std::vector<double> page_f1;     // per page, in input order
  std::vector<ShingleMatch> page_match;  // per page: the shingles the F1 counts
  std::vector<double> page_kept;   // per page: share of its visible words the rule keeps
  std::vector<std::string> warnings;
};

// The score of a rule on the labelled pages; a bad XPath is an error.
Result<RuleScore> score_rule(const std::vector<TunePage>& pages, const std::vector<std::string>& include,
                             const std::vector<std::string>& exclude);

RuleScore propose_rule(const std::vector<TunePage>& pages);

}  // namespace husk
