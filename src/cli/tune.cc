// husk tune: score a site's XPath rules on labelled pages, list the pages
// where they match nothing or everything, propose better rules.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
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

// What a proposed rule matches the site's pages by: the host when the
// pages have URLs, else the directory all their files share.
std::string matcher_toml(const std::vector<Document>& pages) {
  bool urls = !pages.empty() && !pages[0].result.url.empty();
  if (urls) return "host = \"" + url_host(pages[0].result.url) + "\"";
  std::string common;
  for (const Document& a : pages) {
    std::string path = a.result.source.substr(0, a.result.source.rfind('/') + 1);
    if (common.empty()) {
      common = path;
    } else {
      std::size_t n = 0;
      while (n < common.size() && n < path.size() && common[n] == path[n]) ++n;
      common.resize(common.rfind('/', n == 0 ? 0 : n - 1) + 1);
    }
  }
  return "match = " + nlohmann::json(RE2::QuoteMeta(common)).dump();
}

std::string rule_toml(const std::string& matcher, const RuleScore& score) {
  std::string out = "# proposed by husk tune: precision " + std::to_string(score.precision).substr(0, 6) + ", recall " +
                    std::to_string(score.recall).substr(0, 6) + ", F1 " + std::to_string(score.f1).substr(0, 6) +
                    " on the labelled pages\n[[rule]]\n" + matcher + "\n";
  auto list = [](const std::vector<std::string>& xs) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : xs) a.push_back(x);
    return a.dump();
  };
  if (!score.include.empty()) out += "include = " + list(score.include) + "\n";
  if (!score.exclude.empty()) out += "exclude = " + list(score.exclude) + "\n";
  return out;
}

void print_score(const char* label, const RuleScore& s, const std::vector<TunePage>& pages) {
  std::printf("%s: precision %.4f  recall %.4f  F1 %.4f\n", label, s.precision, s.recall, s.f1);
  for (std::size_t i = 0; i < pages.size() && i < s.page_f1.size(); ++i)
    std::printf("  %.4f  %s\n", s.page_f1[i], pages[i].id.c_str());
}

int run_tune(const TuneArgs& args) {
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

  RuleScore proposal = propose_rule(labelled);
  std::printf("\n");
  print_score("proposed", proposal, labelled);
  std::string toml = rule_toml(matcher_toml(analyzed), proposal);
  std::printf("\n%s", toml.c_str());
  if (!args.write.empty()) {
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
