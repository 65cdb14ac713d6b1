// The quality gate: F1 of each extractor on the article-extraction-benchmark,
// and of husk extract's default on the WCXB development split (overall, by
// page type, and the page-type classifier's accuracy), may not drop more
// than the pinned tolerance below tests/quality_floor.json. The floor file
// carries each corpus's hash, so a changed corpus is reported as such
// rather than as a regression.
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "eval/eval.h"
#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

namespace fs = std::filesystem;

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

double benchmark_f1(const std::string& root, const std::string& extractor) {
  ProcessorOptions options;
  options.extractor = extractor;
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
  return score_pages(std::move(pages)).f1;
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
  for (const auto& [extractor, pinned] : corpus.at("f1").items()) {
    double f1 = benchmark_f1(root, extractor);
    std::printf("%s F1 %.4f (floor %.4f - %.3f)\n", extractor.c_str(), f1, pinned.get<double>(), tolerance);
    EXPECT_GE(f1, pinned.get<double>() - tolerance) << extractor << " F1 dropped below its pinned floor";
  }
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
  const std::string predictions = dir.file("wcxb.jsonl");
  test::CommandResult r = test::run_husk("extract --jobs 2 " + root + "/html -o " + predictions);
  ASSERT_EQ(r.exit_code, 0);
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
}

}  // namespace
}  // namespace husk
