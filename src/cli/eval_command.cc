// husk eval extract: the article-extraction-benchmark score of a prediction
// file against a gold file.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "husk/eval.h"

namespace husk::cli {

namespace {

struct EvalExtractArgs {
  std::string gold;
  std::string prediction;
  std::string per_page;
  bool json = false;
  std::size_t worst = 0;
};

int run_eval_extract(const EvalExtractArgs& args) {
  Result<ExtractScore> score = evaluate_extraction(args.gold, args.prediction);
  if (!score.ok()) {
    std::fprintf(stderr, "husk eval extract: %s\n", score.status().message().c_str());
    return 1;
  }
  const ExtractScore& s = *score;
  if (args.json) {
    nlohmann::ordered_json j;
    j["pages"] = s.pages;
    j["missing"] = s.missing;
    j["precision"] = s.precision;
    j["recall"] = s.recall;
    j["f1"] = s.f1;
    j["accuracy"] = s.accuracy;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("pages      %zu (%zu without a prediction)\n", s.pages, s.missing);
    std::printf("precision  %.4f\nrecall     %.4f\nf1         %.4f\naccuracy   %.4f\n", s.precision, s.recall, s.f1,
                s.accuracy);
  }
  if (args.worst > 0) {
    std::vector<const PageScore*> pages;
    for (const PageScore& p : s.per_page) pages.push_back(&p);
    auto f1 = [](const PageScore* p) {
      double pr = p->match.tp + p->match.fp > 0 ? p->match.tp / (p->match.tp + p->match.fp) : 0;
      double rc = p->match.tp + p->match.fn > 0 ? p->match.tp / (p->match.tp + p->match.fn) : 0;
      return pr + rc > 0 ? 2 * pr * rc / (pr + rc) : 0.0;
    };
    std::stable_sort(pages.begin(), pages.end(), [&](auto* a, auto* b) { return f1(a) < f1(b); });
    std::printf("\nworst pages (f1  tp  fp  fn  id):\n");
    for (std::size_t i = 0; i < std::min(args.worst, pages.size()); ++i)
      std::printf("  %.3f  %.3f  %.3f  %.3f  %s\n", f1(pages[i]), pages[i]->match.tp, pages[i]->match.fp,
                  pages[i]->match.fn, pages[i]->id.c_str());
  }
  if (!args.per_page.empty()) {
    std::ofstream out(args.per_page, std::ios::binary | std::ios::trunc);
    if (!out) {
      std::fprintf(stderr, "husk eval extract: %s: cannot open for writing\n", args.per_page.c_str());
      return 1;
    }
    for (const PageScore& p : s.per_page) {
      nlohmann::ordered_json j;
      j["id"] = p.id;
      j["tp"] = p.match.tp;
      j["fp"] = p.match.fp;
      j["fn"] = p.match.fn;
      j["exact"] = p.match.exact;
      j["predicted"] = p.predicted;
      out << j.dump() << '\n';
    }
  }
  return 0;
}

}  // namespace

Command add_eval_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("eval", "Score an extractor's output against a gold set");
  cmd->require_subcommand(1);
  auto args = std::make_shared<EvalExtractArgs>();
  CLI::App* extract = cmd->add_subcommand(
      "extract",
      "Score husk extract output with the article-extraction-benchmark measure\n"
      "(4-token shingles; precision, recall, F1, accuracy).");
  extract->add_option("--gold", args->gold, "Gold JSON: {id: {articleBody: text}}")->required()->check(CLI::ExistingFile);
  extract->add_option("PRED", args->prediction, "husk extract JSONL output")->required()->check(CLI::ExistingFile);
  extract->add_option("--per-page", args->per_page, "Write per-page tp/fp/fn as JSONL to FILE");
  extract->add_option("--worst", args->worst, "List the N pages with the lowest F1");
  extract->add_flag("--json", args->json, "Print the scores as one JSON object");
  return {cmd, [args, extract] { return extract->parsed() ? run_eval_extract(*args) : 2; }};
}

}  // namespace husk::cli
