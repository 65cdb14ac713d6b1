// husk eval extract: the score of a prediction file against a gold set
// (article-extraction-benchmark, WCXB split or snippet set).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unordered_set>
#include <nlohmann/json.hpp>

#include <chrono>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/dedup_input.h"
#include "cli/progress.h"
#include "eval/eval.h"
#include "husk/dedup.h"

namespace husk::cli {

namespace {

struct EvalExtractArgs {
  std::string gold;
  std::string prediction;
  std::string per_page;
  bool json = false;
  bool headline_first_line = false;
  std::size_t worst = 0;
};

nlohmann::ordered_json totals_json(const WcxbTotals& t) {
  return {{"pages", t.pages},   {"precision", t.precision}, {"recall", t.recall},
          {"f1", t.f1},         {"with", t.with_rate},      {"without", t.without_rate}};
}

// Predictions are matched to gold pages by id (file names without .html
// and .gz): a prediction file whose ids name none of the gold's pages (the
// wrong --gold, ids rewritten on the way) is an error, and those that name
// no gold page beside others that do are counted, not scored in silence.
// A gold set without a page, or a prediction file without a record (a run
// that failed, the wrong file), has nothing to score: an error, not a
// score of zero. 0 to go on, else the exit code.
int check_matched(const std::string& gold, const std::string& prediction, std::size_t predictions,
                  std::size_t pages, std::size_t missing) {
  if (pages == 0) return fail("eval extract", gold + ": the gold set holds no page", 1);
  if (predictions == 0) return fail("eval extract", prediction + ": holds no record to score", 1);
  const std::size_t matched = pages - missing;
  if (matched == 0)
    return fail("eval extract", prediction + ": none of its " + std::to_string(predictions) +
                                    " record ids names a page of the gold set (ids are compared as file names "
                                    "without .html/.htm/.gz)",
                1);
  if (predictions > matched)
    std::fprintf(stderr, "husk eval extract: %zu of %zu records of %s name no page of the gold set: not scored\n",
                 predictions - matched, predictions, prediction.c_str());
  return 0;
}

// A WCXB split as gold: the benchmark's word score, overall and per page type.
int run_eval_wcxb(const EvalExtractArgs& args) {
  Result<WcxbScore> score = evaluate_wcxb(args.gold, args.prediction, args.headline_first_line);
  if (!score.ok()) return fail("eval extract", score.status().message(), 1);
  if (int code = check_matched(args.gold, args.prediction, score->predictions, score->all.pages, score->missing);
      code != 0)
    return code;
  const WcxbScore& s = *score;
  if (args.json) {
    nlohmann::ordered_json j = totals_json(s.all);
    j["missing"] = s.missing;
    if (s.cjk_pages > 0) {
      j["cjk_as_characters"] = totals_json(s.all_cjk);
      j["cjk_as_characters"]["cjk_pages"] = s.cjk_pages;
    }
    nlohmann::ordered_json types = nlohmann::ordered_json::object();
    for (const auto& [type, t] : s.by_type) types[type] = totals_json(t);
    j["by_type"] = types;
    if (!s.by_language.empty()) {
      nlohmann::ordered_json languages = nlohmann::ordered_json::object();
      for (const auto& [language, t] : s.by_language) languages[language] = totals_json(t);
      j["by_language"] = languages;
    }
    if (s.quality_pages >= 2) j["quality_spearman"] = {{"rho", s.quality_spearman}, {"pages", s.quality_pages}};
    for (const auto& [name, f] : {std::pair{"title", &s.title}, {"author", &s.author}, {"date", &s.date}})
      j[name] = {{"accuracy", f->accuracy()}, {"pages", f->total}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("pages      %zu (%zu without a prediction)\n", s.all.pages, s.missing);
    std::printf("precision  %.4f\nrecall     %.4f\nf1         %.4f\n", s.all.precision, s.all.recall, s.all.f1);
    if (s.cjk_pages > 0)
      std::printf("f1, Chinese/Japanese as characters  %.4f  (precision %.4f, recall %.4f; %zu pages so scored)\n",
                  s.all_cjk.f1, s.all_cjk.precision, s.all_cjk.recall, s.cjk_pages);
    std::printf("with       %.4f  (share of \"with\" snippets found)\n", s.all.with_rate);
    std::printf("without    %.4f  (share of \"without\" snippets found; lower is better)\n", s.all.without_rate);
    if (s.quality_pages >= 2)
      std::printf("quality    %.4f  (Spearman's rank correlation of the records' quality with page F1, %zu pages)\n",
                  s.quality_spearman, s.quality_pages);
    std::printf("title      %.4f  (of %zu pages with a gold title)\n", s.title.accuracy(), s.title.total);
    std::printf("author     %.4f  (of %zu pages with a gold author)\n", s.author.accuracy(), s.author.total);
    std::printf("date       %.4f  (of %zu pages with a gold date)\n", s.date.accuracy(), s.date.total);
    std::printf("\n%-14s %6s %9s %9s %9s %7s %8s\n", "page type", "pages", "precision", "recall", "f1", "with", "without");
    for (const auto& [type, t] : s.by_type)
      std::printf("%-14s %6zu %9.4f %9.4f %9.4f %7.3f %8.3f\n", type.c_str(), t.pages, t.precision, t.recall, t.f1,
                  t.with_rate, t.without_rate);
    if (!s.by_language.empty()) {
      std::printf("\n%-14s %6s %9s %9s %9s\n", "language", "pages", "precision", "recall", "f1");
      for (const auto& [language, t] : s.by_language)
        std::printf("%-14s %6zu %9.4f %9.4f %9.4f\n", language.c_str(), t.pages, t.precision, t.recall, t.f1);
    }
  }
  if (args.worst > 0) {
    std::vector<const WcxbPage*> pages;
    for (const WcxbPage& p : s.per_page) pages.push_back(&p);
    std::stable_sort(pages.begin(), pages.end(), [](auto* a, auto* b) { return a->match.f1 < b->match.f1; });
    std::printf("\nworst pages (f1  precision  recall  type  id):\n");
    for (std::size_t i = 0; i < std::min(args.worst, pages.size()); ++i)
      std::printf("  %.3f  %.3f  %.3f  %-13s %s\n", pages[i]->match.f1, pages[i]->match.precision,
                  pages[i]->match.recall, pages[i]->type.c_str(), pages[i]->id.c_str());
  }
  if (!args.per_page.empty()) {
    std::ofstream out(args.per_page, std::ios::binary | std::ios::trunc);
    if (!out) return fail("eval extract", args.per_page + ": cannot open for writing", 1);
    for (const WcxbPage& p : s.per_page) {
      nlohmann::ordered_json j = {{"id", p.id},
                                  {"type", p.type},
                                  {"language", p.language},
                                  {"quality", p.quality >= 0 ? nlohmann::ordered_json(p.quality) : nlohmann::ordered_json()},
                                  {"f1", p.match.f1},
                                  {"precision", p.match.precision},
                                  {"recall", p.match.recall},
                                  {"with", {p.with_found, p.with_total}},
                                  {"without", {p.without_found, p.without_total}},
                                  {"title", p.title},
                                  {"author", p.author},
                                  {"date", p.date},
                                  {"predicted", p.predicted}};
      out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  }
  return 0;
}

// A snippet set as gold: pooled precision and recall of must-keep and
// must-drop snippets found in the text.
int run_eval_snippets(const EvalExtractArgs& args) {
  Result<SnippetScore> score = evaluate_snippets(args.gold, args.prediction);
  if (!score.ok()) return fail("eval extract", score.status().message(), 1);
  if (int code = check_matched(args.gold, args.prediction, score->predictions, score->pages, score->missing); code != 0)
    return code;
  const SnippetScore& s = *score;
  if (args.json) {
    nlohmann::ordered_json j = {{"pages", s.pages}, {"missing", s.missing}, {"precision", s.precision},
                                {"recall", s.recall}, {"f1", s.f1}, {"tp", s.tp}, {"fn", s.fn},
                                {"fp", s.fp}, {"tn", s.tn}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("pages      %zu (%zu without a prediction)\n", s.pages, s.missing);
    std::printf("precision  %.4f\nrecall     %.4f\nf1         %.4f\n", s.precision, s.recall, s.f1);
    std::printf("with       %zu of %zu must-keep snippets found\n", s.tp, s.tp + s.fn);
    std::printf("without    %zu of %zu must-drop snippets found (lower is better)\n", s.fp, s.fp + s.tn);
  }
  auto errors = [](const SnippetPage& p) { return (p.with_total - p.with_found) + p.without_found; };
  if (args.worst > 0) {
    std::vector<const SnippetPage*> pages;
    for (const SnippetPage& p : s.per_page) pages.push_back(&p);
    std::stable_sort(pages.begin(), pages.end(), [&](auto* a, auto* b) { return errors(*a) > errors(*b); });
    std::printf("\nworst pages (must-keep missed  must-drop kept  id):\n");
    for (std::size_t i = 0; i < std::min(args.worst, pages.size()); ++i)
      std::printf("  %zu/%zu  %zu/%zu  %s\n", pages[i]->with_total - pages[i]->with_found, pages[i]->with_total,
                  pages[i]->without_found, pages[i]->without_total, pages[i]->id.c_str());
  }
  if (!args.per_page.empty()) {
    std::ofstream out(args.per_page, std::ios::binary | std::ios::trunc);
    if (!out) return fail("eval extract", args.per_page + ": cannot open for writing", 1);
    for (const SnippetPage& p : s.per_page) {
      nlohmann::ordered_json j = {{"id", p.id},
                                  {"with", {p.with_found, p.with_total}},
                                  {"without", {p.without_found, p.without_total}},
                                  {"predicted", p.predicted}};
      out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  }
  return 0;
}

int run_eval_extract(const EvalExtractArgs& args) {
  if (Status st = not_an_input(args.per_page, {args.prediction, args.gold}); !st.ok())
    return fail("eval extract", st.message(), 1);
  std::error_code ec;
  if (std::filesystem::is_directory(args.gold, ec)) return run_eval_wcxb(args);
  if (is_snippet_gold(args.gold)) return run_eval_snippets(args);
  Result<ExtractScore> score = evaluate_extraction(args.gold, args.prediction);
  if (!score.ok()) return fail("eval extract", score.status().message(), 1);
  if (int code = check_matched(args.gold, args.prediction, score->predictions, score->pages, score->missing); code != 0)
    return code;
  const ExtractScore& s = *score;
  if (args.json) {
    nlohmann::ordered_json j = {{"pages", s.pages},   {"missing", s.missing}, {"precision", s.precision},
                                {"recall", s.recall}, {"f1", s.f1},           {"accuracy", s.accuracy}};
    if (s.cjk_pages > 0)
      j["cjk_as_characters"] = {{"pages", s.cjk_pages}, {"precision", s.precision_cjk}, {"recall", s.recall_cjk},
                                {"f1", s.f1_cjk}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("pages      %zu (%zu without a prediction)\n", s.pages, s.missing);
    std::printf("precision  %.4f\nrecall     %.4f\nf1         %.4f\naccuracy   %.4f\n", s.precision, s.recall, s.f1,
                s.accuracy);
    if (s.cjk_pages > 0)
      std::printf("f1, Chinese/Japanese as characters  %.4f  (precision %.4f, recall %.4f; %zu pages so scored)\n",
                  s.f1_cjk, s.precision_cjk, s.recall_cjk, s.cjk_pages);
  }
  if (args.worst > 0) {
    std::vector<const PageScore*> pages;
    for (const PageScore& p : s.per_page) pages.push_back(&p);
    auto f1 = [](const PageScore* p) { return page_f1(p->match); };
    std::stable_sort(pages.begin(), pages.end(), [&](auto* a, auto* b) { return f1(a) < f1(b); });
    std::printf("\nworst pages (f1  tp  fp  fn  id):\n");
    for (std::size_t i = 0; i < std::min(args.worst, pages.size()); ++i)
      std::printf("  %.3f  %.3f  %.3f  %.3f  %s\n", f1(pages[i]), pages[i]->match.tp, pages[i]->match.fp,
                  pages[i]->match.fn, pages[i]->id.c_str());
  }
  if (!args.per_page.empty()) {
    std::ofstream out(args.per_page, std::ios::binary | std::ios::trunc);
    if (!out) return fail("eval extract", args.per_page + ": cannot open for writing", 1);
    for (const PageScore& p : s.per_page) {
      nlohmann::ordered_json j = {{"id", p.id},           {"tp", p.match.tp},       {"fp", p.match.fp},
                                  {"fn", p.match.fn},     {"exact", p.match.exact}, {"predicted", p.predicted}};
      out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  }
  return 0;
}

struct EvalDedupArgs {
  std::string gold;
  std::vector<std::string> inputs;
  bool compare = false;
  bool json = false;
  unsigned jobs = 0;
};

void print_score(const std::string& label, const DedupScore& s, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    if (!label.empty()) j["method"] = label;
    j.update(nlohmann::ordered_json{{"tp", s.tp},         {"fp", s.fp},          {"fn", s.fn},
                                    {"precision", s.precision}, {"recall", s.recall}, {"f1", s.f1}});
    if (s.clustering_gold)
      j.update(nlohmann::ordered_json{{"url_precision", s.url_precision}, {"url_recall", s.url_recall}, {"url_f1", s.url_f1}});
    nlohmann::ordered_json variants = nlohmann::json::object();
    for (const auto& [v, counts] : s.by_variant) variants[v] = {{"pairs", counts.first}, {"clustered", counts.second}};
    if (!s.by_variant.empty()) j["variants"] = variants;
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  std::printf("pairs      tp %zu  fp %zu  fn %zu  tn %zu\n", s.tp, s.fp, s.fn, s.tn);
  std::printf("precision  %.4f\nrecall     %.4f\nf1         %.4f\n", s.precision, s.recall, s.f1);
  if (s.clustering_gold)
    std::printf("url-level  precision %.4f  recall %.4f  f1 %.4f\n", s.url_precision, s.url_recall, s.url_f1);
  if (!s.by_variant.empty()) {
    std::printf("\nby variant (pairs judged, pairs clustered together):\n");
    for (const auto& [v, counts] : s.by_variant) std::printf("  %-28s %5zu %5zu\n", v.c_str(), counts.first, counts.second);
  }
}

std::vector<std::vector<std::string>> cluster_ids(const std::vector<DedupPage>& pages, const std::vector<Cluster>& clusters) {
  std::vector<std::vector<std::string>> out;
  for (const Cluster& c : clusters) {
    std::vector<std::string> ids;
    for (uint32_t m : c.members) ids.push_back(pages[m].id);
    out.push_back(std::move(ids));
  }
  return out;
}

// The lecture's side-by-side comparison: every signer with its default
// setting on the same pages.
int run_compare(const EvalDedupArgs& args, const GoldDedup& gold) {
  // The pages read and signed are drawn on a terminal as husk dedup draws
  // them, and cleared before the table.
  Progress progress("eval dedup");
  LoadedPages loaded = load_dedup_pages(args.inputs, args.jobs, false, kNoFrameLines, false, &progress);
  progress.finish();
  for (const Status& st : loaded.errors) fail("eval dedup", st.message(), 1);
  for (const Status& st : loaded.record_errors) fail("eval dedup", st.message(), 1);
  if (loaded.pages.empty()) return fail("eval dedup", "no signed pages to compare on", 1);
  if (!args.json)
    std::printf("%-20s %-16s %9s %9s %9s %9s\n", "method", "setting", "precision", "recall", "f1", "seconds");
  for (const std::string& method : dedup_methods()) {
    DedupOptions options;
    options.method = method;
    auto start = std::chrono::steady_clock::now();
    auto pairs = find_pairs(loaded.pages, options);
    if (!pairs.ok()) continue;
    std::vector<Cluster> clusters = cluster_pages(loaded.pages, *pairs, options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    DedupScore s = score_dedup(gold, cluster_ids(loaded.pages, clusters));
    std::string setting = method == "simhash" || method == "simhash_hyperplane" ? "k=" + std::to_string(options.k)
                          : method == "minhash" || method == "spotsigs"
                              ? "threshold=" + std::to_string(options.threshold).substr(0, 4)
                              : "exact";
    if (args.json) {
      nlohmann::ordered_json j;
      j["method"] = method;
      j["setting"] = setting;
      j["precision"] = s.precision;
      j["recall"] = s.recall;
      j["f1"] = s.f1;
      j["seconds"] = seconds;
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("%-20s %-16s %9.4f %9.4f %9.4f %9.3f\n", method.c_str(), setting.c_str(), s.precision, s.recall, s.f1,
                  seconds);
    }
  }
  return 0;
}

int run_eval_dedup(const EvalDedupArgs& args) {
  Result<GoldDedup> gold = load_gold_dedup(args.gold);
  if (!gold.ok()) return fail("eval dedup", gold.status().message(), 1);
  if (args.compare) return run_compare(args, *gold);
  if (args.inputs.size() != 1)
    return fail("eval dedup", "give one clusters file (husk dedup output), or --compare with pages", 2);
  Result<std::vector<std::vector<std::string>>> clusters = load_clusters(args.inputs[0]);
  if (!clusters.ok()) return fail("eval dedup", clusters.status().message(), 1);
  // Clusters none of whose pages the gold names are another set's (the
  // wrong file): an error, not a score of zero. Ids are compared as the
  // score compares them.
  std::unordered_set<std::string> named;
  for (const auto& p : gold->pairs) named.insert({p.a, p.b});
  for (const auto& c : gold->clusters) named.insert(c.begin(), c.end());
  std::size_t members = 0, known = 0;
  for (const auto& c : *clusters)
    for (const std::string& id : c) {
      ++members;
      known += named.contains(gold_key(id));
    }
  if (members > 0 && known == 0)
    return fail("eval dedup", args.inputs[0] + ": none of the " + std::to_string(members) +
                                  " pages of its clusters is named by " + args.gold +
                                  " (ids are compared as file names without .html/.htm/.gz)",
                1);
  print_score("", score_dedup(*gold, *clusters), args.json);
  return 0;
}

}  // namespace

Command add_eval_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("eval", "Score an extractor's output against a gold set");
  cmd->require_subcommand(1);
  auto args = std::make_shared<EvalExtractArgs>();
  CLI::App* extract = cmd->add_subcommand(
      "extract",
      "Score husk extract output against gold: the article-extraction-benchmark\n"
      "measure (4-token shingles; precision, recall, F1, accuracy) for its JSON\n"
      "gold, WCXB's word F1 with snippet rates and a table by page type for a\n"
      "WCXB split's directory, or pooled snippet precision and recall for a\n"
      "snippet set (trafilatura's evaldata.json layout).");
  extract->add_option("--gold", args->gold,
                      "Gold: the article-extraction-benchmark's JSON {id: {articleBody: text}}, a WCXB split\n"
                      "(a directory with ground-truth/NNNN.json: word F1 by page type), or a snippet set\n"
                      "({key: {file, with: [...], without: [...]}}: must-keep and must-drop snippets)")
      ->required()
      ->check(CLI::ExistingPath);
  extract->add_option("PRED", args->prediction, "husk extract JSONL output")->required()->check(CLI::ExistingFile);
  extract->add_option("--per-page", args->per_page, "Write per-page tp/fp/fn as JSONL to FILE");
  extract->add_option("--worst", args->worst, "List the N pages with the lowest F1");
  extract->add_flag("--json", args->json, "Print the scores as one JSON object");
  extract->add_flag("--headline-first-line", args->headline_first_line,
                    "WCXB layout: a gold without a title opens its text with the headline (daniel-dev); score that "
                    "line as the title");

  auto dedup_args = std::make_shared<EvalDedupArgs>();
  CLI::App* dedup = cmd->add_subcommand(
      "dedup",
      "Score husk dedup clusters against labelled pairs or a gold clustering\n"
      "(pairwise precision, recall, F1; URL-level scores for a clustering).\n"
      "With --compare, INPUT is signed pages: every method is run with its\n"
      "default setting and one table compares them.");
  dedup->add_option("--gold", dedup_args->gold, "Gold pairs ({a,b,label} lines) or clusters ({members} lines)")
      ->required()
      ->check(CLI::ExistingFile);
  dedup->add_option("INPUT", dedup_args->inputs, "husk dedup output; with --compare, husk sign output or pages")
      ->required();
  dedup->add_flag("--compare", dedup_args->compare, "Run and score every method on INPUT");
  dedup->add_flag("--json", dedup_args->json, "Print JSON instead of text");
  dedup->add_option("-j,--jobs", dedup_args->jobs, "Threads for reading and signing (0: one per core)");
  return {cmd, [args, extract, dedup_args, dedup] {
            if (extract->parsed()) return run_eval_extract(*args);
            if (dedup->parsed()) return run_eval_dedup(*dedup_args);
            return 2;
          }};
}

}  // namespace husk::cli
