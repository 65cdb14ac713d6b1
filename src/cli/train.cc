// husk train: the learned models from gold sets.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "eval/train.h"
#include "extract/features.h"
#include "extract/furniture.h"
#include "extract/model.h"

namespace husk::cli {

namespace {

struct TrainArgs {
  std::vector<std::string> gold_sets;
  std::string dump;
  std::string cv_scores;
  std::string output;
  std::vector<std::string> weights;  // NAME=X
  unsigned jobs = 0;
  BlockModelOptions model;
  PageTypeOptions page_type;
};

// The training matrix for analysis outside husk: names.txt, x.f32 (rows of
// float32), blocks.tsv (page, block, coverage, tokens), pages.tsv (page,
// id, domain, type, gold tokens, source), tokens.jsonl (per page, each block's
// token ids and the gold's, its structure, its comment sections as
// [first, end) block ranges and each block's furniture class (0: none); a snippet
// set's page also each block's must-drop coverage and each snippet's blocks
// and the places its words occur whole, "keep" for a must-keep one).
Status dump(const std::string& dir, const FeatureExtractor& features, const std::vector<TrainingPage>& pages) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  std::ofstream names(dir + "/names.txt"), x(dir + "/x.f32", std::ios::binary), blocks(dir + "/blocks.tsv"),
      meta(dir + "/pages.tsv"), tokens(dir + "/tokens.jsonl");
  for (const std::string& n : features.names()) names << n << '\n';
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const TrainingPage& t = pages[p];
    x.write(reinterpret_cast<const char*>(t.x.data()), static_cast<std::streamsize>(t.x.size() * sizeof(float)));
    for (std::size_t b = 0; b < t.coverage.size(); ++b)
      blocks << p << '\t' << b << '\t' << t.coverage[b] << '\t' << t.tokens[b].size() << '\n';
    meta << p << '\t' << t.id << '\t' << t.domain << '\t' << t.type << '\t' << t.gold.size() << '\t' << t.source << '\n';
    nlohmann::json j = {{"blocks", t.tokens},      {"gold", t.gold},         {"element", t.block_element},
                        {"parent", t.parent},      {"first", t.first_block}, {"end", t.end_block}};
    for (const BlockRange& r : t.comment_sections) j["comments"].push_back({r.first, r.end});
    j["furniture"] = t.furniture;
    if (t.snippet_gold) {
      j["drop"] = t.drop_coverage;
      for (const TrainingSnippet& s : t.snippets)
        j["snippets"].push_back({{"keep", s.keep}, {"blocks", s.blocks}, {"places", s.places}});
    }
    tokens << j.dump() << '\n';
  }
  if (!names || !x || !blocks || !meta || !tokens) return Status(Code::kIo, dir + ": write failed");
  return Status();
}

// The cross-validation's out-of-fold block probabilities, a JSON line per
// page: {id, source, domain, language, type, typed_as (the out-of-fold
// page type), threshold (the page's), f1 (at that threshold), tokens (per
// block), probability (per block), kept (per block, 1 where the text keeps
// it after the rules that follow the model: furniture, teasers, comments)};
// snippet-set pages carry no f1.
Status write_cv_scores(const std::string& path, const std::vector<TrainingPage>& pages, const FeatureExtractor& features,
                       const CrossValidation& cv) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status(Code::kIo, path + ": cannot open for writing");
  for (std::size_t p = 0; p < pages.size() && p < cv.out_of_fold.size(); ++p) {
    const TrainingPage& t = pages[p];
    const std::vector<uint8_t> keep =
        kept_blocks(t, cv.out_of_fold[p], cv.threshold_of(p), features.block_words(t.x), cv.forum_of(p),
                    cv.article_of(p))
            .keep;
    std::vector<std::size_t> tokens;
    for (std::size_t b = 0; b < keep.size(); ++b) tokens.push_back(b < t.tokens.size() ? t.tokens[b].size() : 0);
    nlohmann::ordered_json j = {{"id", t.id},     {"source", t.source},       {"domain", t.domain},
                                {"language", t.language}, {"type", t.type}};
    if (p < cv.typed_as.size()) j["typed_as"] = cv.typed_as[p];
    if (p < cv.article_probability.size()) j["article_probability"] = cv.article_probability[p];
    j["threshold"] = cv.threshold_of(p);
    j["f1"] = t.snippet_gold ? nlohmann::ordered_json() : nlohmann::ordered_json(kept_f1(t, keep));
    j["tokens"] = tokens;
    j["probability"] = cv.out_of_fold[p];
    j["kept"] = keep;
    out << j.dump() << '\n';
  }
  if (!out) return Status(Code::kIo, path + ": write failed");
  return Status();
}

// Drawn on `progress` as it goes: the pages analysed, then each model's
// boosting rounds.
TrainingProgress drawn_on(Progress& progress) {
  return [&progress](const std::string& doing, std::size_t done, std::size_t total) {
    progress.stage(doing, done, total);
  };
}

// Every page of the gold sets, analysed (drawn on `progress`); null after
// reporting why not.
std::optional<std::vector<TrainingPage>> training_pages(const TrainArgs& args, const ProcessorOptions& options,
                                                       const FeatureExtractor& features, Progress& progress) {
  for (const std::string& written : {args.output, args.cv_scores})
    if (Status st = not_an_input(written, args.gold_sets); !st.ok()) {
      fail("train", st.message(), 1);
      return std::nullopt;
    }
  ProcessorOptions analysis = options;
  analysis.analysis_only = true;
  Result<Processor> processor = Processor::make(analysis);
  if (!processor.ok()) {
    fail("train", processor.status().message(), 2);
    return std::nullopt;
  }
  Result<std::vector<TrainingPage>> pages =
      collect_training_pages(args.gold_sets, *processor, features, args.jobs, drawn_on(progress));
  progress.finish();
  if (!pages.ok()) {
    fail("train", pages.status().message(), 1);
    return std::nullopt;
  }
  std::size_t blocks = 0;
  for (const TrainingPage& p : *pages) blocks += p.coverage.size();
  std::fprintf(stderr, "husk train: %zu pages, %zu blocks, %zu block features, %zu page features\n", pages->size(),
               blocks, features.columns(), features.page_names().size());
  return std::move(*pages);
}

// How a model was made, written into it: the command, with each gold set
// named as the datasets directory names it (a path differs from machine to
// machine; the hashes in "trained_on" pin the data), and the trees'
// settings.
std::vector<std::pair<std::string, std::string>> provenance(const char* model, const TrainArgs& args,
                                                            const TreeOptions& tree) {
  char settings[192];
  std::snprintf(settings, sizeof(settings), " --folds %d --rounds %d --depth %d --eta %g --seed %llu --threads %u",
                tree.folds, tree.rounds, tree.max_depth, tree.eta, static_cast<unsigned long long>(tree.seed),
                tree.threads);
  std::string command = std::string("husk train ") + model + settings;
  if (tree.by_collection) command += " --leave-collection-out";
  if (std::string_view(model) == "extract" && args.model.others_model) command += " --others";
  for (const std::string& w : args.weights) command += " --collection-weight " + w;
  for (const std::string& set : args.gold_sets) {
    const std::filesystem::path path = std::filesystem::path(set).lexically_normal();
    const bool dir = std::filesystem::is_directory(path);
    std::filesystem::path named = dir ? path : path.parent_path();
    if (named.filename().empty()) named = named.parent_path();
    command += " " + (dir ? named.filename() : named.filename() / path.filename()).generic_string();
  }
  return {{"command", command}, {"seed", std::to_string(tree.seed)}};
}

int write_model(const std::string& path, const std::string& model) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(model.data(), static_cast<std::streamsize>(model.size()));
  out.close();
  if (!out) return fail("train", path + ": cannot write", 1);
  std::fprintf(stderr, "husk train: model written to %s (%zu bytes)\n", path.c_str(), model.size());
  return 0;
}

int run_train_extract(TrainArgs args) {
  for (const std::string& w : args.weights) {
    const std::size_t eq = w.rfind('=');
    char* end = nullptr;
    const double x = eq == std::string::npos ? -1 : std::strtod(w.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || end == w.c_str() + eq + 1 || *end != '\0' || !(x >= 0))
      return fail("train", "--collection-weight " + w + ": expected NAME=X with X a number of at least 0", 2);
    args.model.collection_weight[w.substr(0, eq)] = x;
  }
  const ProcessorOptions options;
  FeatureExtractor features(options.extract);
  Progress progress("train");
  std::optional<std::vector<TrainingPage>> pages = training_pages(args, options, features, progress);
  if (!pages) return 1;
  if (!args.dump.empty())
    if (Status st = dump(args.dump, features, *pages); !st.ok()) return fail("train", st.message(), 1);
  if (args.output.empty() && !args.dump.empty()) return 0;
  CrossValidation cv;
  args.model.provenance = provenance("extract", args, args.model);
  args.model.progress = drawn_on(progress);
  Result<BlockModels> model = train_block_model(*pages, features, args.model, &cv);
  progress.finish();
  if (!model.ok()) return fail("train", model.status().message(), 1);
  if (cv.folds > 0) {
    if (cv.by_collection)
      std::printf("cross-validation, leave one collection out (%zu collections; each scored by a model trained on the "
                  "others; mean page F1, pooled snippet F1 for a snippet set):\n",
                  cv.folds);
    else
      std::printf("cross-validation, %zu folds grouped by domain (mean page F1, pooled snippet F1 for a snippet set; "
                  "the threshold's figure is the mean over the collections):\n",
                  cv.folds);
    for (const auto& [threshold, f1] : cv.f1) {
      std::printf("  threshold %.2f  F1 %.4f", threshold, f1);
      if (cv.f1_by_source_at.count(threshold) && cv.f1_by_source_at.at(threshold).size() > 1)
        for (const auto& [source, figure] : cv.f1_by_source_at.at(threshold))
          std::printf("  %s %.4f", source.c_str(), figure);
      std::printf("%s\n", threshold == cv.threshold ? "  <- chosen" : "");
    }
    if (!cv.typed_as.empty()) {
      std::size_t others = 0;
      for (const std::string& type : cv.typed_as) others += type != kArticleType;
      std::printf("pages the page-type classifier (same folds) types as other than articles (%zu of %zu), the others "
                  "at %.2f:\n",
                  others, cv.typed_as.size(), cv.threshold);
      for (const auto& [other, f1] : cv.other_f1)
        std::printf("  threshold %.2f  F1 %.4f%s\n", other, f1, other == cv.other_threshold ? "  <- chosen" : "");
    }
    for (const auto& [type, f1] : cv.f1_by_type) std::printf("  %-14s %.4f\n", type.c_str(), f1);
    for (const auto& [source, f1] : cv.f1_by_source) std::printf("  %-30s %.4f\n", source.c_str(), f1);
    for (const auto& [language, f1] : cv.f1_by_language) std::printf("  language %-21s %.4f\n", language.c_str(), f1);
    std::printf("quality score: Spearman's rank correlation with the page F1 (same folds)\n");
    for (const auto& [source, rho] : cv.quality_spearman) std::printf("  quality %-22s %.4f\n", source.c_str(), rho);
    // Largest first, by the sum of the collections' shares.
    std::vector<std::pair<double, std::string>> classes;
    for (const auto& [kind, by_source] : cv.leaked_by_class) {
      double sum = 0;
      for (const auto& [source, share] : by_source) sum += share;
      classes.emplace_back(-sum, kind);
    }
    std::sort(classes.begin(), classes.end());
    std::set<std::string> sources;
    for (const auto& [kind, by_source] : cv.leaked_by_class)
      for (const auto& [source, share] : by_source) sources.insert(source);
    std::printf("words kept that the gold lacks, by the nearest class/id family within three levels (share of the "
                "kept words, same folds):\n  %-12s", "class");
    for (const std::string& source : sources) std::printf("  %s", source.c_str());
    std::printf("\n");
    for (const auto& [minus, kind] : classes) {
      std::printf("  leaked %-12s", kind.c_str());
      for (const std::string& source : sources) {
        auto it = cv.leaked_by_class.at(kind).find(source);
        std::printf("  %.4f", it == cv.leaked_by_class.at(kind).end() ? 0.0 : it->second);
      }
      std::printf("\n");
    }
    // The furniture rule by class: what each takes out of what the model
    // kept, and what each collection's figure would be without it.
    const FurnitureLines furniture(options.extract.furniture);
    std::printf("the furniture rule by class (same folds): blocks the model kept that it takes out, those the gold "
                "keeps, and each collection's figure with the class (left in the text -> taken out):\n");
    for (const auto& [number, f] : cv.furniture) {
      const std::string name = number == kEveryFurniture ? "all" : std::string(furniture.name(number));
      std::printf("  furniture %-15s taken %5zu  gold %4zu", name.c_str(), f.taken, f.gold);
      for (const auto& [source, left] : f.f1_left) {
        auto now = cv.f1_by_source.find(source);
        std::printf("  %s %.4f -> %.4f", source.c_str(), left, now == cv.f1_by_source.end() ? 0.0 : now->second);
      }
      std::printf("\n");
    }
    std::printf("the teaser rule (same folds): leads the model kept that it takes out, those the gold keeps, and "
                "each collection's figure (leads left in the text -> taken out):\n");
    std::printf("  teasers   taken %5zu  gold %4zu", cv.teasers.taken, cv.teasers.gold);
    for (const auto& [source, left] : cv.teasers.f1_left) {
      auto now = cv.f1_by_source.find(source);
      std::printf("  %s %.4f -> %.4f", source.c_str(), left, now == cv.f1_by_source.end() ? 0.0 : now->second);
    }
    std::printf("\n");
  }
  std::fflush(stdout);  // the figures before the line on stderr that ends the run
  if (!args.cv_scores.empty())
    if (Status st = write_cv_scores(args.cv_scores, *pages, features, cv); !st.ok()) return fail("train", st.message(), 1);
  if (args.output.empty()) {
    std::fprintf(stderr, "husk train: no model written (-o FILE writes it)\n");
    return 0;
  }
  if (int rc = write_model(args.output, model->model); rc != 0) return rc;
  return model->others.empty() ? 0 : write_model(others_model_path(args.output), model->others);
}

int run_train_page_type(TrainArgs args) {
  const ProcessorOptions options;
  FeatureExtractor features(options.extract);
  Progress progress("train");
  std::optional<std::vector<TrainingPage>> pages = training_pages(args, options, features, progress);
  if (!pages) return 1;
  // A snippet set says what to keep, not what kind of page it is.
  if (std::erase_if(*pages, [](const TrainingPage& p) { return p.snippet_gold; }) > 0)
    std::fprintf(stderr, "husk train: the snippet sets' pages name no page type and are left out\n");
  PageTypeValidation cv;
  args.page_type.provenance = provenance("page-type", args, args.page_type);
  args.page_type.progress = drawn_on(progress);
  Result<std::string> model = train_page_type_model(*pages, features, args.page_type, &cv);
  progress.finish();
  if (!model.ok()) return fail("train", model.status().message(), 1);
  if (cv.folds > 0) {
    if (args.page_type.by_collection)
      std::printf("cross-validation, leave one collection out (%zu collections): accuracy %.4f\n", cv.folds,
                  cv.accuracy);
    else
      std::printf("cross-validation, %zu folds grouped by domain: accuracy %.4f\n", cv.folds, cv.accuracy);
    if (cv.accuracy_by_source.size() > 1)
      for (const auto& [source, a] : cv.accuracy_by_source) std::printf("  %-30s %.4f\n", source.c_str(), a);
    std::printf("%-14s", "gold \\ said");
    for (const std::string& t : cv.types) std::printf(" %6.6s", t.c_str());
    std::printf("  recall\n");
    for (std::size_t g = 0; g < cv.types.size(); ++g) {
      std::size_t all = 0;
      for (std::size_t n : cv.confusion[g]) all += n;
      std::printf("%-14s", cv.types[g].c_str());
      for (std::size_t n : cv.confusion[g]) std::printf(" %6zu", n);
      std::printf("  %.3f\n", all ? static_cast<double>(cv.confusion[g][g]) / static_cast<double>(all) : 0.0);
    }
  }
  if (args.output.empty()) {
    std::fprintf(stderr, "husk train: no model written (-o FILE writes it)\n");
    return 0;
  }
  return write_model(args.output, *model);
}

}  // namespace

Command add_train_command(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", "Train husk's learned models on gold sets");
  cmd->require_subcommand(1);
  auto common = [&](CLI::App* sub, TreeOptions& tree) {
    sub->add_option("GOLD", args->gold_sets, "Gold sets: split directories or ground-truth.json files")
        ->required()
        ->check(CLI::ExistingPath);
    sub->add_option("-o,--output", args->output, "Write the trained model (XGBoost UBJSON) to FILE");
    sub->add_option("--folds", tree.folds, "Cross-validation folds grouped by domain (0: none)")->capture_default_str();
    sub->add_flag("--leave-collection-out", tree.by_collection,
                  "Cross-validate by collection instead: each gold set scored by a model trained on the others");
    sub->add_option("--rounds", tree.rounds, "Boosting rounds")->capture_default_str();
    sub->add_option("--depth", tree.max_depth, "Tree depth")->capture_default_str();
    sub->add_option("--eta", tree.eta, "Learning rate (shrinkage of each tree)")->capture_default_str();
    sub->add_option("--seed", tree.seed,
                    "Seed of the trees' row and column sampling: other seeds show how far a figure moves by chance")
        ->capture_default_str();
    sub->add_option("--threads", tree.threads, "Training threads (1 gives the same model on every machine)")
        ->capture_default_str();
    sub->add_option("-j,--jobs", args->jobs, "Pages analysed in parallel (0: one per core)")->capture_default_str();
  };
  const char* gold_help =
      "A gold set is a WCXB-layout split's directory (html/NNNN.html.gz beside\n"
      "ground-truth/NNNN.json; daniel-dev's layout too), a ground-truth.json\n"
      "{id: {articleBody, url}} with html/<id>.html.gz beside it (every page an\n"
      "article), or a snippet set's evaldata.json {url: {file, with, without}} with\n"
      "html/<file>.gz beside it (only the blocks its snippets cover are labelled).\n"
      "husk's own models and the commands that made them: docs/architecture.md.";
  CLI::App* extract = cmd->add_subcommand(
      "extract", std::string("The block model of the learned extractor: every page of the gold sets analysed,\n"
                             "its blocks' features labelled by the gold text, cross-validated by domain (which\n"
                             "chooses its threshold, and the threshold of the pages a page-type classifier\n"
                             "trained on the other folds types as other than articles), then trained on all\n"
                             "of them.\n") +
                     gold_help);
  common(extract, args->model);
  extract->add_flag("--others", args->model.others_model,
                    "Also fit a second model to the pages whose gold type is not article, for the pages the page-type "
                    "classifier types so; -o FILE writes it beside FILE as FILE_others (blocks.ubj: blocks_others.ubj), "
                    "where husk extract --model FILE finds it");
  extract->add_option("--dump", args->dump, "Write the training matrix to DIR for analysis");
  extract->add_option("--cv-scores", args->cv_scores,
                      "Write each page's out-of-fold block probabilities, the blocks its text keeps, type, threshold "
                      "and F1 to FILE (JSON lines) for analysis");
  extract->add_option("--collection-weight", args->weights,
                      "NAME=X: each page of the gold set NAME (its directory's name) weighs X (default 1)");
  CLI::App* page_type = cmd->add_subcommand(
      "page-type", std::string("The page-type classifier: one row of page features per page, labelled by the\n"
                               "gold's page type, cross-validated by domain, then trained on all of them.\n") +
                       gold_help);
  common(page_type, args->page_type);
  return {cmd, [args, extract, page_type] {
            if (extract->parsed()) return run_train_extract(*args);
            if (page_type->parsed()) return run_train_page_type(*args);
            return 2;
          }};
}

}  // namespace husk::cli
