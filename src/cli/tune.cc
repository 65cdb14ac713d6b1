// husk tune: score a site's XPath rules on labelled pages, list the pages
// where they match nothing or everything, propose better rules.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <re2/re2.h>

#include "base/url.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "eval/eval.h"
#include "eval/tune.h"

namespace husk::cli {

namespace {

struct TuneArgs {
  std::string site;
  std::string gold;
  std::vector<std::string> inputs;
  std::string sites;
  std::string write;
  unsigned jobs = 0;
};

// What a proposed rule matches the site's pages by: the --site host, and,
// when the pages have URLs, the path their URLs share. Never a local path:
// a rule is matched against the URLs pages are fetched from.
std::string matcher_toml(const std::string& site, const std::vector<Document>& pages) {
  std::string out = "host = " + nlohmann::json(site).dump() + "\n";
  std::string common;
  bool first = true;
  for (const Document& a : pages) {
    if (a.result.url.empty() || url_host(a.result.url) != site) return out;
    const std::string url = a.result.url.substr(0, a.result.url.find_first_of("?#"));
    const std::size_t path = url.find('/', url.find("://") + 3);
    const std::string dir = path == std::string::npos ? "/" : url.substr(path, url.rfind('/') - path + 1);
    if (first) {
      common = dir;
      first = false;
    } else {
      std::size_t n = 0;
      while (n < common.size() && n < dir.size() && common[n] == dir[n]) ++n;
      common.resize(common.rfind('/', n == 0 ? 0 : n - 1) + 1);
    }
  }
  if (common.size() > 1) out += "match = " + nlohmann::json("^https?://[^/]+" + RE2::QuoteMeta(common)).dump() + "\n";
  return out;
}

std::string rule_toml(const std::string& matcher, const RuleScore& score) {
  std::string out = "# proposed by husk tune: precision " + std::to_string(score.precision).substr(0, 6) + ", recall " +
                    std::to_string(score.recall).substr(0, 6) + ", F1 " + std::to_string(score.f1).substr(0, 6) +
                    " on the labelled pages\n[[rule]]\n" + matcher;
  auto list = [](const std::vector<std::string>& xs) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : xs) a.push_back(x);
    return a.dump();
  };
  if (!score.include.empty()) out += "include = " + list(score.include) + "\n";
  if (!score.exclude.empty()) out += "exclude = " + list(score.exclude) + "\n";
  return out;
}

// husk's default extraction of the labelled pages, scored as a rule is.
// The pages are read again (the rules' analysis parsed them with every
// attribute kept, which the default processor does not), and only the
// labelled ones extracted.
ExtractScore default_score(const std::vector<std::string>& inputs, const std::vector<TunePage>& labelled) {
  std::unordered_map<std::string, std::string> texts;
  for (const TunePage& t : labelled) texts.emplace(t.id, "");
  const ProcessorOptions defaults;
  Result<Processor> processor = Processor::make(defaults);
  if (processor.ok())
    ingest(inputs, IngestOptions{}, [&](RawPage&& page) {
      auto it = texts.find(page.id);
      if (it != texts.end()) it->second = processor->process(page).text;
      return true;
    });
  std::vector<PageScore> pages;
  for (const TunePage& t : labelled) {
    PageScore s;
    s.id = t.id;
    s.match = match_shingles(t.gold, texts[t.id]);
    pages.push_back(std::move(s));
  }
  return score_pages(std::move(pages));
}

void print_score(const char* label, const RuleScore& s, const std::vector<TunePage>& pages) {
  std::printf("%s: precision %.4f  recall %.4f  F1 %.4f\n", label, s.precision, s.recall, s.f1);
  for (std::size_t i = 0; i < pages.size() && i < s.page_f1.size(); ++i)
    std::printf("  %.4f  %s\n", s.page_f1[i], pages[i].id.c_str());
}

int run_tune(const TuneArgs& args) {
  std::vector<std::string> read = args.inputs;
  read.push_back(args.gold);
  if (Status st = not_an_input(args.write, read); !st.ok()) return fail("tune", st.message(), 1);
  std::ifstream gold_in(args.gold, std::ios::binary);
  nlohmann::json gold = nlohmann::json::parse(gold_in, nullptr, false);
  if (!gold_in || gold.is_discarded() || !gold.is_object())
    return fail("tune", args.gold + ": not a JSON object of {id: {articleBody: text}}", 1);
  // Rules are XPaths over the page as written: every attribute stays.
  ProcessorOptions options;
  options.parse.trim_markup = false;
  Result<Processor> processor = Processor::make(options);
  if (!processor.ok()) return fail("tune", processor.status().message(), 2);
  IngestStats stats;
  std::vector<Document> analyzed = analyze_all(args.inputs, IngestOptions{}, *processor, args.jobs, true, stats);
  std::erase_if(analyzed, [](const Document& a) { return !a.result.status.ok(); });
  for (const Status& st : stats.input_errors) fail("tune", st.message(), 1);
  std::vector<TunePage> labelled;
  for (const Document& a : analyzed) {
    std::string key = gold.contains(a.result.id) ? a.result.id : gold_key(a.result.id);
    auto it = gold.find(key);
    if (it == gold.end() || !it->is_object() || !(*it)["articleBody"].is_string()) continue;
    labelled.push_back({a.result.id, (*it)["articleBody"].get<std::string>(), &a.blocks, &*a.dom});
  }
  std::printf("%zu pages, %zu labelled\n", analyzed.size(), labelled.size());
  if (labelled.empty()) return fail("tune", "none of the pages has a gold text in " + args.gold, 1);

  // The current rule for the site, when there is one.
  std::shared_ptr<const SiteRules> rules;
  if (!args.sites.empty()) {
    auto loaded = SiteRules::load_dir(args.sites);
    if (!loaded.ok()) return fail("tune", loaded.status().message(), 2);
    rules = *loaded;
  }
  const SiteRule* current = nullptr;
  if (rules) {
    // The pages' own URL or file path, else the --site host.
    const Document& first = analyzed.front();
    std::string path = first.result.source.empty() ? first.result.id : first.result.source;
    current = rules->find(first.result.url, path);
    if (current == nullptr && first.result.url.empty()) current = rules->find("https://" + args.site + "/", path);
  }
  if (current != nullptr) {
    std::printf("\ncurrent rule %s:%d\n", current->file.c_str(), current->line);
    auto score = score_rule(labelled, current->include, current->exclude);
    if (score.ok()) {
      print_score("current", *score, labelled);
      // Pages where the rule selects nothing, or keeps nearly everything.
      std::vector<TunePage> all;
      for (const Document& a : analyzed) all.push_back({a.result.id, "", &a.blocks, &*a.dom});
      auto everywhere = score_rule(all, current->include, current->exclude);
      if (everywhere.ok()) {
        for (const std::string& w : everywhere->warnings) std::printf("  problem: %s\n", w.c_str());
        // A rule that keeps nearly all of a page's words removed no template.
        for (std::size_t i = 0; i < all.size(); ++i)
          if (everywhere->page_kept[i] >= 0.95)
            std::printf("  problem: %s: the rule keeps %.0f%% of the page's words\n", all[i].id.c_str(),
                        100 * everywhere->page_kept[i]);
      }
    }
  } else {
    std::printf("\nno current rule for %s\n", args.site.c_str());
  }

  // No rule: what husk's default extraction scores on the same pages, the
  // figure a rule has to beat.
  ExtractScore no_rule = default_score(args.inputs, labelled);
  std::printf("\nno rule (husk's default extraction): precision %.4f  recall %.4f  F1 %.4f\n", no_rule.precision,
              no_rule.recall, no_rule.f1);
  RuleScore proposal = propose_rule(labelled);
  print_score("proposed", proposal, labelled);
  // Judged on pages it was not proposed from: each page scored by the
  // rule proposed from the others (with one labelled page, in-sample).
  double judged = proposal.f1;
  if (labelled.size() >= 2) {
    std::vector<PageScore> held_out;
    for (std::size_t i = 0; i < labelled.size(); ++i) {
      std::vector<TunePage> others = labelled;
      others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
      RuleScore rule = propose_rule(others);
      PageScore page;
      page.id = labelled[i].id;
      auto scored = score_rule({labelled[i]}, rule.include, rule.exclude);
      if (scored.ok() && !scored->page_match.empty()) page.match = scored->page_match[0];
      held_out.push_back(std::move(page));
    }
    judged = score_pages(std::move(held_out)).f1;
    std::printf("proposed, each page scored by the rule proposed from the others: F1 %.4f\n", judged);
  }
  if (proposal.include.empty() && proposal.exclude.empty()) {
    std::printf("\nno rule: no include or exclude does better than the whole page\n");
    return 1;
  }
  if (judged < no_rule.f1) {
    std::printf("\nno rule written: the proposal scores F1 %.4f %s, husk's default extraction %.4f\n", judged,
                labelled.size() >= 2 ? "on pages it was not proposed from" : "on the one labelled page", no_rule.f1);
    return 1;
  }
  std::string toml = rule_toml(matcher_toml(args.site, analyzed), proposal);
  std::printf("\n%s", toml.c_str());
  if (analyzed.front().result.url.empty())
    std::printf("(the pages have no URLs: the rule applies to %s's pages by their URL, as a crawl fetches them)\n",
                args.site.c_str());
  if (!args.write.empty()) {
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(args.write).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    std::ofstream out(args.write, std::ios::binary | std::ios::trunc);
    out << toml;
    if (!out) return fail("tune", args.write + ": cannot write", 1);
    std::printf("written to %s\n", args.write.c_str());
  }
  return 0;
}

}  // namespace

Command add_tune_command(CLI::App& app) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tune",
      "Check and improve a site's XPath rules against labelled pages: scores the\n"
      "current rule (AEB shingle precision/recall/F1 per page and overall),\n"
      "reports pages it matches nothing on, and proposes include/exclude XPaths.");
  cmd->add_option("--site", args->site, "The site's host (the rule's host for pages with URLs)")->required();
  cmd->add_option("--gold", args->gold, "Gold texts of labelled pages: {id: {articleBody: text}}")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("PAGES", args->inputs, "The site's pages (files, directories, WARC, JSONL)")->required();
  cmd->add_option("--sites", args->sites, "Directory of the current rules (*.toml)")->type_name("DIR");
  cmd->add_option("--write", args->write, "Write the proposed rule as a rules file");
  cmd->add_option("-j,--jobs", args->jobs, "Pages parsed in parallel (0: one per core)")->capture_default_str();
  return {cmd, [args] { return run_tune(*args); }};
}

}  // namespace husk::cli
