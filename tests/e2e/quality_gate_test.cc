// The quality gate. The honest figures first: the learned models
// cross-validated by domain on the four development collections (each
// collection's own score), which may not drop more than the pinned
// tolerance below tests/quality_floor.json; the same run retrains the
// shipped models, which must come out byte for byte as config/models/ holds
// them. Each collection scored by models trained on the other three is held
// to its floors the same way. Then the in-sample ones, which catch a change of the pipeline
// around the models: F1 of each extractor on the article-extraction-
// benchmark, and of husk extract's default on the WCXB development split
// (overall, by page type, and the page-type classifier's accuracy). The
// floor file carries each corpus's hash, so a changed corpus is reported as
// such rather than as a regression.
#include <openssl/evp.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "eval/eval.h"
#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

namespace fs = std::filesystem;

// A figure as the docs print it: `digits` decimals.
std::string decimals(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return std::string(buf);
}

// Three decimals, as most tables print them.
std::string three(double x) { return decimals(x, 3); }

// husk extract over a collection's html/ folder, as a user runs it (with
// `options`, as "--precision "): the records' path in `dir`, empty when
// the run failed.
std::string extracted(const std::string& root, const test::TempDir& dir, const std::string& options = "") {
  const std::string records = dir.file("records.jsonl");
  return test::run_husk("extract --jobs 2 " + options + root + "/html -o " + records).exit_code == 0 ? records
                                                                                                   : std::string();
}

// SHA-256 over the sorted file names and contents of the corpus.
std::string corpus_sha256(const std::string& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  for (const fs::path& f : files) {
    std::string rel = fs::relative(f, root).generic_string();
    std::string bytes = test::read_file(f.string());
    EVP_DigestUpdate(ctx, rel.data(), rel.size() + 1);
    EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx, digest, &len);
  EVP_MD_CTX_free(ctx);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(hex[digest[i] >> 4]);
    out.push_back(hex[digest[i] & 15]);
  }
  return out;
}

// The benchmark's shingle score of husk's extraction under `options`.
ExtractScore benchmark_score(const std::string& root, const ProcessorOptions& options) {
  Result<Processor> pipeline = Processor::make(options);
  EXPECT_TRUE(pipeline.ok());
  std::ifstream gold_in(root + "/ground-truth.json");
  nlohmann::json gold = nlohmann::json::parse(gold_in);
  std::vector<PageScore> pages;
  ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    PageScore score;
    score.id = gold_key(page.id);
    score.match = match_shingles(gold.at(score.id).at("articleBody").get<std::string>(), pipeline->process(page).text);
    pages.push_back(std::move(score));
    return true;
  });
  EXPECT_EQ(pages.size(), gold.size());
  return score_pages(std::move(pages));
}

// A row of the presets' table: "P / R / F1" to three decimals.
std::string precision_recall_f1(double precision, double recall, double f1) {
  return three(precision) + " / " + three(recall) + " / " + three(f1);
}

nlohmann::json floors() {
  std::ifstream floor_in(std::string(HUSK_SOURCE_DIR) + "/tests/quality_floor.json");
  EXPECT_TRUE(floor_in) << "tests/quality_floor.json is missing";
  return nlohmann::json::parse(floor_in);
}

TEST(QualityGate, ArticleExtractionBenchmarkF1) {
  std::string root = test::dataset("article-extraction-benchmark");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/article-extraction-benchmark is absent";
  nlohmann::json floor = floors();
  const nlohmann::json& corpus = floor.at("article-extraction-benchmark");
  ASSERT_EQ(corpus_sha256(root), corpus.at("corpus_sha256").get<std::string>())
      << "the benchmark corpus changed: re-measure and re-pin tests/quality_floor.json deliberately";
  double tolerance = floor.at("tolerance").get<double>();
  std::map<std::string, ExtractScore> scores;
  for (const auto& [extractor, pinned] : corpus.at("f1").items()) {
    ProcessorOptions options;
    options.extractor = extractor;
    const ExtractScore score = scores[extractor] = benchmark_score(root, options);
    std::printf("%s F1 %.4f (floor %.4f - %.3f)\n", extractor.c_str(), score.f1, pinned.get<double>(), tolerance);
    EXPECT_GE(score.f1, pinned.get<double>() - tolerance) << extractor << " F1 dropped below its pinned floor";
  }
  // docs/evaluation.md prints these figures: the table of extractors, the
  // collections table's in-sample cell, the AEB column of the presets.
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const auto extractors = test::table_rows_after(doc, "| extractor | precision | recall | F1 | accuracy |");
  for (const auto& [label, extractor] : std::map<std::string, std::string>{
           {"(auto", "auto"}, {"--extractor density", "density"}, {"--extractor fulltext", "fulltext"}}) {
    ASSERT_TRUE(scores.count(extractor)) << extractor << " has no floor in tests/quality_floor.json";
    const ExtractScore& s = scores.at(extractor);
    const std::vector<std::string> expected = {three(s.precision), three(s.recall), three(s.f1), decimals(s.accuracy, 2)};
    EXPECT_EQ(test::row_containing(extractors, label), expected) << "docs/evaluation.md, AEB, " << extractor;
  }
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  ASSERT_TRUE(collections.count("article-extraction-benchmark"));
  EXPECT_EQ(collections.at("article-extraction-benchmark")[2], three(scores.at("auto").f1) + " (AEB score)");
  const double change = scores.at("auto").f1 - 0.968;
  const std::string said = three(std::abs(change)) == "0.000" ? "is level with the 0.968"
                           : change < 0                      ? "fell " + three(-change)
                                                             : "rose " + three(change);
  EXPECT_TRUE(test::says(doc, "The in-sample shingle score " + said))
      << "docs/evaluation.md: the AEB score beside main before (0.968)";
  const auto presets = test::table_rows_after(doc, "| preset | WCXB dev P / R / F1 | AEB P / R / F1 |");
  const ExtractScore& balanced = scores.at("auto");
  EXPECT_EQ(test::row_containing(presets, "default").at(1),
            precision_recall_f1(balanced.precision, balanced.recall, balanced.f1));
  for (const auto& [label, preset] : std::map<std::string, ExtractPreset>{
           {"--precision", ExtractPreset::kPrecision}, {"--recall", ExtractPreset::kRecall}}) {
    ProcessorOptions options;
    options.extract.preset = preset;
    const ExtractScore s = benchmark_score(root, options);
    EXPECT_EQ(test::row_containing(presets, label).at(1), precision_recall_f1(s.precision, s.recall, s.f1))
        << "docs/evaluation.md, presets, AEB, " << label;
  }
}

// The four development collections as husk train names them, in the
// order the documented command gives them.
std::string training_sets() {
  std::string out;
  for (const char* set : {"wcxb-dev", "article-extraction-benchmark/ground-truth.json", "daniel-dev",
                          "traf-snippets-dev/evaldata.json"}) {
    std::string name(set);
    std::string root = test::dataset(name.substr(0, name.find('/')));
    if (root.empty()) return "";
    out += " " + root + (name.find('/') == std::string::npos ? "" : name.substr(name.find('/')));
  }
  return out;
}

// The figures husk train's cross-validation prints one a line, by name:
// "  <collection>   0.9161" (and "  <page type>  0.9413") with no
// `label`, "  quality <collection>  0.6548" (the quality score's rank
// correlation) with "quality ", "  language el  0.9366" with "language ".
std::map<std::string, double> printed_figures(const std::string& printed, const std::string& label = "") {
  std::map<std::string, double> out;
  const std::regex line("^  " + label + R"(([a-z][a-z-]+)\s+(-?[01]\.[0-9]{4})$)");
  for (const std::string& l : test::lines(printed)) {
    std::smatch m;
    if (std::regex_match(l, m, line)) out[m[1]] = std::stod(m[2]);
  }
  return out;
}

// Each figure `pinned` names is printed and no more than `tolerance` under
// its floor.
void expect_floors(const std::map<std::string, double>& figures, const nlohmann::json& pinned, double tolerance,
                   const std::string& what) {
  for (const auto& [name, floor] : pinned.items()) {
    ASSERT_TRUE(figures.count(name)) << what << ", " << name << ": not in husk train's output";
    std::printf("%s, %s: %.4f (floor %.4f)\n", what.c_str(), name.c_str(), figures.at(name), floor.get<double>());
    EXPECT_GE(figures.at(name), floor.get<double>() - tolerance) << what << ", " << name;
  }
}

// daniel-dev's row of docs/evaluation.md's table by language: all, then
// el, en, pl, ru, zh, as husk train prints them.
std::vector<std::string> language_row(const std::map<std::string, double>& f1,
                                      const std::map<std::string, double>& by_language) {
  std::vector<std::string> row = {f1.count("daniel-dev") ? three(f1.at("daniel-dev")) : "none"};
  for (const char* language : {"el", "en", "pl", "ru", "zh"})
    row.push_back(by_language.count(language) ? three(by_language.at(language)) : "none");
  return row;
}

// What one of husk train extract's cross-validations printed, and its
// figures by collection (and WCXB page type), of the quality score, and
// by language.
struct Training {
  std::string out;
  std::map<std::string, double> f1, quality, by_language;
};

// husk train extract on the four collections with `options` after them:
// its F1 and quality figures hold the floors tests/quality_floor.json
// gives under `kind`, and docs/evaluation.md prints them in the
// collections' table (its cell `collections_cell` after the name) and the
// quality score's (`quality_cell`).
void check_training(const std::string& sets, const std::string& options, const std::string& kind,
                    std::size_t collections_cell, std::size_t quality_cell, Training* run) {
  nlohmann::json floor = floors();
  const nlohmann::json& pinned = floor.at(kind);
  const double tolerance = floor.at("tolerance").get<double>();
  test::CommandResult trained = test::run_husk("train extract" + sets + " " + options);
  ASSERT_EQ(trained.exit_code, 0);
  run->out = trained.out;
  run->f1 = printed_figures(run->out);
  run->quality = printed_figures(run->out, "quality ");
  run->by_language = printed_figures(run->out, "language ");
  expect_floors(run->f1, pinned.at("block_model_f1"), tolerance, kind + " F1");
  expect_floors(run->quality, pinned.at("quality_spearman"), tolerance, kind + " quality");
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  ASSERT_EQ(collections.size(), 4u) << "docs/evaluation.md's table of the four collections";
  for (const auto& [collection, cells] : collections) {
    ASSERT_TRUE(run->f1.count(collection) && cells.size() > collections_cell) << collection;
    EXPECT_EQ(cells[collections_cell], three(run->f1.at(collection))) << "docs/evaluation.md, " << collection << ", " << kind;
  }
  const auto quality = test::table_after(doc, "| collection | cross-validated by domain (`husk train extract`) |");
  ASSERT_EQ(quality.size(), 4u) << "docs/evaluation.md's table of the quality score";
  for (const auto& [collection, cells] : quality) {
    ASSERT_TRUE(run->quality.count(collection) && cells.size() > quality_cell) << collection;
    EXPECT_EQ(cells[quality_cell], three(run->quality.at(collection)))
        << "docs/evaluation.md, quality, " << collection << ", " << kind;
  }
}

TEST(QualityGate, CrossValidatedFloorsAndTheShippedModelsRebuild) {
  const std::string sets = training_sets();
  if (sets.empty()) GTEST_SKIP() << "a development collection is absent from ../shared/datasets";
  const nlohmann::json floor = floors();
  const nlohmann::json& cv = floor.at("cross-validated");
  const double tolerance = floor.at("tolerance").get<double>();
  test::TempDir dir;
  Training blocks;
  ASSERT_NO_FATAL_FAILURE(
      check_training(sets, "--others -o " + dir.file("blocks.ubj"), "cross-validated", 1, 0, &blocks));
  const std::map<std::string, double>& f1 = blocks.f1;
  // docs/evaluation.md prints the run's other figures (three decimals).
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  // The table of what leaks, by class: "  leaked <class>  0.0142  0.0885  0.0412".
  std::map<std::string, std::vector<std::string>> leaked;
  static const std::regex leaked_line(R"(^  leaked ([a-z]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)$)");
  for (const std::string& l : test::lines(blocks.out)) {
    std::smatch m;
    if (std::regex_match(l, m, leaked_line)) leaked[m[1]] = {m[2], m[3], m[4]};
  }
  const auto leak_table = test::table_after(doc, "| class | article-extraction-benchmark | daniel-dev | wcxb-dev |");
  ASSERT_EQ(leak_table.size(), 6u) << "docs/evaluation.md's table of what leaks, by class";
  for (const auto& [kind, cells] : leak_table) {
    ASSERT_TRUE(leaked.count(kind)) << kind << " is not in husk train's output";
    EXPECT_EQ(cells, leaked.at(kind)) << "docs/evaluation.md, what leaks, " << kind;
  }
  // The cross-validated column by page type, the row by language, and
  // the prose and README figures of the same run.
  const auto by_type = test::table_after(doc, "| page type (pages) | husk (in-sample) |");
  ASSERT_EQ(by_type.size(), 8u) << "docs/evaluation.md's table by page type";
  for (const auto& [type, cells] : by_type) {
    const std::string printed = type == "all" ? "wcxb-dev" : type;
    ASSERT_TRUE(f1.count(printed) && cells.size() >= 2) << type;
    EXPECT_EQ(cells[1], three(f1.at(printed))) << "docs/evaluation.md, page type " << type << ", cross-validated";
  }
  const std::vector<std::string> languages = language_row(f1, blocks.by_language);
  EXPECT_EQ(test::row_containing(test::table_rows_after(doc, "| | all | el | en | pl | ru | zh |"), "cross-validated"),
            languages)
      << "docs/evaluation.md, daniel-dev by language, cross-validated";
  // "  threshold 0.50  F1 0.9144  article-extraction-benchmark 0.9612 ... <- chosen"
  std::string chosen, wcxb_best;
  double wcxb_at_chosen = 0, wcxb_top = -1;
  static const std::regex threshold_line(R"(^  threshold ([01]\.[0-9]{2}) .* wcxb-dev ([01]\.[0-9]{4})(  <- chosen)?$)");
  for (const std::string& l : test::lines(blocks.out)) {
    std::smatch m;
    if (!std::regex_match(l, m, threshold_line)) continue;
    const double wcxb = std::stod(m[2]);
    if (m[3].matched) chosen = m[1], wcxb_at_chosen = wcxb;
    if (wcxb > wcxb_top) wcxb_top = wcxb, wcxb_best = m[1];
  }
  // The table of seeds: its first row is this run (seed 1, the default).
  static const std::regex chosen_line(
      R"(^  threshold [01]\.[0-9]{2}  F1 ([01]\.[0-9]{4})  article-extraction-benchmark ([01]\.[0-9]{4})  daniel-dev )"
      R"(([01]\.[0-9]{4})  traf-snippets-dev ([01]\.[0-9]{4})  wcxb-dev ([01]\.[0-9]{4})  <- chosen$)");
  std::vector<std::string> seed_one;
  for (const std::string& l : test::lines(blocks.out)) {
    std::smatch m;
    if (std::regex_match(l, m, chosen_line)) seed_one = {m[1], m[2], m[3], m[4], m[5]};
  }
  const auto seeds = test::table_after(doc, "| seed | mean | article-extraction-benchmark |");
  ASSERT_TRUE(seeds.count("1")) << "docs/evaluation.md's table of seeds";
  EXPECT_EQ(seeds.at("1"), seed_one) << "docs/evaluation.md, the table of seeds, seed 1";
  // The table of the trees' shapes: the shipped shape's seed 1 is this
  // run, the mean of the four collections' final figures (the collections
  // of the table checked above).
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  double sum = 0;
  for (const auto& [collection, cells] : collections) sum += f1.at(collection);
  char mean[16];
  std::snprintf(mean, sizeof(mean), "%.4f", sum / static_cast<double>(collections.size()));
  const std::vector<std::string> shipped =
      test::row_containing(test::table_rows_after(doc, "| shape | cross-validated, seeds 1 / 2 / 3 |"), "(shipped)");
  ASSERT_FALSE(shipped.empty()) << "docs/evaluation.md's table of the trees' shapes";
  EXPECT_EQ(shipped[0].substr(0, shipped[0].find(' ')), mean) << "docs/evaluation.md, the trees' shape, seed 1";
  // The furniture table: each class's line of the same run, cell by cell.
  static const std::regex furniture_line(
      R"(^  furniture (\w+) +taken +([0-9]+)  gold +([0-9]+)  article-extraction-benchmark ([01]\.[0-9]{4}) -> )"
      R"(([01]\.[0-9]{4})  daniel-dev ([01]\.[0-9]{4}) -> ([01]\.[0-9]{4})  traf-snippets-dev ([01]\.[0-9]{4}) -> )"
      R"(([01]\.[0-9]{4})  wcxb-dev ([01]\.[0-9]{4}) -> ([01]\.[0-9]{4})$)");
  const auto furniture = test::table_after(doc, "| class | blocks taken out | the gold keeps |");
  std::size_t classes = 0;
  for (const std::string& l : test::lines(blocks.out)) {
    std::smatch m;
    if (!std::regex_match(l, m, furniture_line)) continue;
    const std::string name = m[1];
    ASSERT_TRUE(furniture.count(name)) << "docs/evaluation.md's furniture table has no row " << name;
    const std::vector<std::string> printed = {m[2], m[3], m[4].str() + " → " + m[5].str(), m[6].str() + " → " + m[7].str(),
                                              m[8].str() + " → " + m[9].str(), m[10].str() + " → " + m[11].str()};
    EXPECT_EQ(furniture.at(name), printed) << "docs/evaluation.md, the furniture table, " << name;
    ++classes;
  }
  EXPECT_EQ(classes, furniture.size()) << "docs/evaluation.md's furniture table has rows husk train does not print";
  for (const std::string& phrase :
       {"The block threshold is the one with the best mean of the four (" + chosen + ")",
        "WCXB alone would take " + wcxb_best + " and gain " + three(wcxb_top - wcxb_at_chosen) + " there",
        "its kept blocks score a word F1 of " + three(f1.at("article-extraction-benchmark")) + " on them",
        "the block-level ones above: " + three(f1.at("traf-snippets-dev")) + " cross-validated by domain",
        "husk " + languages[1] + ")"})
    EXPECT_TRUE(test::says(doc, phrase)) << "docs/evaluation.md does not say: " << phrase;
  const auto readme = test::table_rows_after(test::read_file(std::string(HUSK_SOURCE_DIR) + "/README.md"),
                                             "| | husk | best peer measured beside it |");
  for (const auto& [label, collection] :
       std::map<std::string, std::string>{{"daniel-dev", "daniel-dev"},
                                          {"traf-snippets-dev", "traf-snippets-dev"},
                                          {"WCXB dev", "wcxb-dev"},
                                          {"article-extraction-benchmark", "article-extraction-benchmark"}})
    EXPECT_EQ(test::row_containing(readme, label).at(0), three(f1.at(collection))) << "README.md, " << label;
  for (const char* file : {"blocks.ubj", "blocks_others.ubj"})
    EXPECT_EQ(test::read_file(dir.file(file)), test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/models/" + file))
        << "husk train extract no longer reproduces config/models/" << file
        << ": retrain it with the command in docs/architecture.md";
  test::CommandResult types = test::run_husk("train page-type" + sets + " -o " + dir.file("page_type.ubj"));
  ASSERT_EQ(types.exit_code, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(types.out, m, std::regex(R"(accuracy ([01]\.[0-9]{4}))"))) << types.out;
  std::printf("page-type cross-validated accuracy %s (floor %.4f)\n", m[1].str().c_str(),
              cv.at("page_type_accuracy").get<double>());
  EXPECT_GE(std::stod(m[1]), cv.at("page_type_accuracy").get<double>() - tolerance);
  // docs/evaluation.md prints the confusion matrix of the same run.
  const auto matrix = test::table_after(doc, "| gold \\ said | article |");
  std::size_t rows = 0;
  static const std::regex row(R"(^([a-z]+) +((?:[0-9]+ +)+)([01]\.[0-9]{3})$)");
  for (const std::string& l : test::lines(types.out)) {
    std::smatch r;
    if (!std::regex_match(l, r, row)) continue;
    ++rows;
    std::vector<std::string> cells;
    std::istringstream counts(r[2].str());
    for (std::string c; counts >> c;) cells.push_back(c);
    cells.push_back(r[3]);
    ASSERT_TRUE(matrix.count(r[1])) << "docs/evaluation.md's confusion matrix has no row " << r[1];
    EXPECT_EQ(matrix.at(r[1]), cells) << "docs/evaluation.md, confusion matrix, " << r[1];
  }
  EXPECT_EQ(rows, 7u) << types.out;
  EXPECT_EQ(test::read_file(dir.file("page_type.ubj")),
            test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/models/page_type.ubj"))
      << "husk train page-type no longer reproduces config/models/page_type.ubj";
}

// Each collection scored by models trained on the other three (husk train
// extract --leave-collection-out): the honest estimate for a kind of page
// husk has no examples of, the one to improve. Its F1 and the quality
// score's rank correlation hold their floors, and docs/evaluation.md
// prints them: the left-out column of the collections' table, daniel-dev's
// left-out row by language, the quality table's left-out column.
TEST(QualityGate, LeftOutFiguresHoldTheirFloorsAndAreTheDocs) {
  const std::string sets = training_sets();
  if (sets.empty()) GTEST_SKIP() << "a development collection is absent from ../shared/datasets";
  Training run;
  ASSERT_NO_FATAL_FAILURE(check_training(sets, "--others --leave-collection-out", "left-out", 0, 2, &run));
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  EXPECT_EQ(test::row_containing(test::table_rows_after(doc, "| | all | el | en | pl | ru | zh |"), "left out"),
            language_row(run.f1, run.by_language))
      << "docs/evaluation.md, daniel-dev by language, left out";
}

// The whole split through husk's CLI, as a user runs it, scored by husk
// eval's WCXB measure.
TEST(QualityGate, WcxbDevF1ByPageTypeAndPageTypeAccuracy) {
  std::string root = test::dataset("wcxb-dev");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/wcxb-dev is absent";
  nlohmann::json floor = floors();
  const nlohmann::json& corpus = floor.at("wcxb-dev");
  ASSERT_EQ(corpus_sha256(root), corpus.at("corpus_sha256").get<std::string>())
      << "the WCXB split changed: re-measure and re-pin tests/quality_floor.json deliberately";
  const double tolerance = floor.at("tolerance").get<double>();
  test::TempDir dir;
  const std::string predictions = extracted(root, dir);
  ASSERT_FALSE(predictions.empty());
  Result<WcxbScore> score = evaluate_wcxb(root, predictions);
  ASSERT_TRUE(score.ok()) << score.status().message();
  const nlohmann::json& f1 = corpus.at("f1");
  std::printf("all F1 %.4f (floor %.4f)\n", score->all.f1, f1.at("all").get<double>());
  EXPECT_GE(score->all.f1, f1.at("all").get<double>() - tolerance);
  for (const auto& [type, pinned] : f1.items()) {
    if (type == "all") continue;
    ASSERT_TRUE(score->by_type.count(type)) << type;
    std::printf("%s F1 %.4f (floor %.4f)\n", type.c_str(), score->by_type.at(type).f1, pinned.get<double>());
    EXPECT_GE(score->by_type.at(type).f1, pinned.get<double>() - tolerance) << type;
  }
  // The page type on every record, against the gold's.
  std::map<std::string, std::string> gold_type;
  for (const WcxbPage& p : score->per_page) gold_type[p.id] = p.type;
  std::size_t right = 0, all = 0;
  for (const std::string& line : test::lines(test::read_file(predictions))) {
    auto j = nlohmann::json::parse(line);
    std::string id = fs::path(j.at("id").get<std::string>()).filename().string();
    id = id.substr(0, id.find('.'));
    ASSERT_TRUE(gold_type.count(id)) << id;
    ++all;
    right += j["page_type"].is_string() && j["page_type"].get<std::string>() == gold_type[id];
  }
  ASSERT_EQ(all, score->per_page.size());
  const double accuracy = static_cast<double>(right) / static_cast<double>(all);
  std::printf("page-type accuracy %.4f (floor %.4f)\n", accuracy, corpus.at("page_type_accuracy").get<double>());
  EXPECT_GE(accuracy, corpus.at("page_type_accuracy").get<double>() - tolerance);
  // docs/evaluation.md prints these runs' figures: the in-sample column of
  // the table by page type, the metadata fields, the quality score.
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const auto by_type = test::table_after(doc, "| page type (pages) | husk (in-sample) |");
  ASSERT_EQ(by_type.size(), score->by_type.size() + 1) << "docs/evaluation.md's table by page type";
  for (const auto& [type, cells] : by_type) {
    const WcxbTotals& totals = type == "all" ? score->all : score->by_type[type];
    ASSERT_FALSE(cells.empty());
    EXPECT_EQ(cells[0], three(totals.f1)) << "docs/evaluation.md, page type " << type << ", in-sample";
  }
  const auto fields = test::table_after(doc, "| field (pages with gold) | **husk** |");
  const std::map<std::string, const FieldScore*> field_scores = {
      {"title", &score->title}, {"author", &score->author}, {"date", &score->date}};
  ASSERT_EQ(fields.size(), field_scores.size()) << "docs/evaluation.md's table of metadata fields";
  for (const auto& [field, cells] : fields) {
    ASSERT_TRUE(field_scores.count(field)) << field;
    ASSERT_FALSE(cells.empty());
    EXPECT_EQ(cells[0], three(field_scores.at(field)->accuracy())) << "docs/evaluation.md, metadata, " << field;
  }
  const auto quality = test::table_after(doc, "| collection | cross-validated by domain (`husk train extract`) |");
  ASSERT_TRUE(quality.count("wcxb-dev") && quality.at("wcxb-dev").size() >= 2) << "docs/evaluation.md's quality table";
  EXPECT_EQ(quality.at("wcxb-dev")[1], three(score->quality_spearman)) << "docs/evaluation.md, quality, wcxb-dev, in-sample";
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  ASSERT_TRUE(collections.count("wcxb-dev") && collections.at("wcxb-dev").size() >= 3);
  EXPECT_EQ(collections.at("wcxb-dev")[2], three(score->all.f1)) << "docs/evaluation.md, wcxb-dev, in-sample";
  auto percent = [](double share, int digits) { return decimals(100 * share, digits) + "%"; };
  for (const std::string& phrase :
       {"recall " + three(score->all.recall) + ", precision " + three(score->all.precision) + " in-sample; " +
            percent(score->all.with_rate, 0) + " of the benchmark's \"with\" snippets found, " +
            percent(score->all.without_rate, 1) + " of its \"without\" snippets",
        "right on " + percent(score->title.accuracy(), 1) + " of WCXB dev"})
    EXPECT_TRUE(test::says(doc, phrase)) << "docs/evaluation.md does not say: " << phrase;
  // The WCXB column of the presets' table: this run, then the two presets.
  const auto presets = test::table_rows_after(doc, "| preset | WCXB dev P / R / F1 | AEB P / R / F1 |");
  EXPECT_EQ(test::row_containing(presets, "default").at(0),
            precision_recall_f1(score->all.precision, score->all.recall, score->all.f1));
  for (const std::string preset : {"--precision", "--recall"}) {
    test::TempDir preset_dir;
    const std::string records = extracted(root, preset_dir, preset + " ");
    ASSERT_FALSE(records.empty()) << preset;
    Result<WcxbScore> s = evaluate_wcxb(root, records);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_EQ(test::row_containing(presets, preset).at(0), precision_recall_f1(s->all.precision, s->all.recall, s->all.f1))
        << "docs/evaluation.md, presets, WCXB dev, " << preset;
  }
}

// daniel-dev through the CLI as docs/evaluation.md runs it: the in-sample
// figures it prints, overall and per language, and the quality score's.
TEST(QualityGate, DanielDevInSampleFiguresAreTheDocs) {
  std::string root = test::dataset("daniel-dev");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/daniel-dev is absent";
  test::TempDir dir;
  const std::string predictions = extracted(root, dir);
  ASSERT_FALSE(predictions.empty());
  Result<WcxbScore> score = evaluate_wcxb(root, predictions, true);
  ASSERT_TRUE(score.ok()) << score.status().message();
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const std::vector<std::string> cells =
      test::row_containing(test::table_rows_after(doc, "| | all | el | en | pl | ru | zh |"), "husk in-sample");
  const std::vector<std::string> order = {"el", "en", "pl", "ru", "zh"};
  ASSERT_EQ(cells.size(), order.size() + 1);
  EXPECT_EQ(cells[0], three(score->all.f1)) << "docs/evaluation.md, daniel-dev, in-sample, all";
  for (std::size_t i = 0; i < order.size(); ++i) {
    ASSERT_TRUE(score->by_language.count(order[i])) << order[i];
    EXPECT_EQ(cells[i + 1], three(score->by_language.at(order[i]).f1)) << "docs/evaluation.md, daniel-dev, " << order[i];
  }
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  ASSERT_TRUE(collections.count("daniel-dev") && collections.at("daniel-dev").size() >= 3);
  EXPECT_EQ(collections.at("daniel-dev")[2], three(score->all.f1)) << "docs/evaluation.md, daniel-dev, in-sample";
  const auto quality = test::table_after(doc, "| collection | cross-validated by domain (`husk train extract`) |");
  ASSERT_TRUE(quality.count("daniel-dev") && quality.at("daniel-dev").size() >= 2);
  EXPECT_EQ(quality.at("daniel-dev")[1], three(score->quality_spearman)) << "docs/evaluation.md, quality, daniel-dev";
  const std::string headline = "on " + decimals(100 * score->title.accuracy(), 1) + "% of daniel-dev";
  EXPECT_TRUE(test::says(doc, headline)) << "docs/evaluation.md does not say: " << headline;
}

// The snippet set's in-sample row and collections cell are what husk
// extract and husk eval extract give on it now.
TEST(QualityGate, SnippetSetInSampleFiguresAreTheDocs) {
  std::string root = test::dataset("traf-snippets-dev");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/traf-snippets-dev is absent";
  test::TempDir dir;
  const std::string predictions = extracted(root, dir);
  ASSERT_FALSE(predictions.empty());
  Result<SnippetScore> score = evaluate_snippets(root + "/evaldata.json", predictions);
  ASSERT_TRUE(score.ok()) << score.status().message();
  const std::string doc = test::read_file(std::string(HUSK_SOURCE_DIR) + "/docs/evaluation.md");
  const auto rows = test::table_after(doc, "| build (2026-11-23, this machine, same run) | precision |");
  ASSERT_TRUE(rows.count("husk")) << "docs/evaluation.md's snippet-set table, its row \"husk now (in-sample)\"";
  const std::vector<std::string> expected = {
      decimals(score->precision, 4), decimals(score->recall, 4), decimals(score->f1, 4),
      std::to_string(score->tp) + " / " + std::to_string(score->tp + score->fn),
      std::to_string(score->fp) + " / " + std::to_string(score->fp + score->tn)};
  EXPECT_EQ(rows.at("husk"), expected) << "docs/evaluation.md, snippet set, husk now";
  const auto collections = test::table_after(doc, "| collection (pages) | **left out**");
  ASSERT_TRUE(collections.count("traf-snippets-dev") && collections.at("traf-snippets-dev").size() >= 3);
  EXPECT_EQ(collections.at("traf-snippets-dev")[2], three(score->f1)) << "docs/evaluation.md, snippet set, in-sample";
}

}  // namespace
}  // namespace husk
