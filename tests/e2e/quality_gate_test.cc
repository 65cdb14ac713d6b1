// The quality gate: F1 of each extractor on the article-extraction-benchmark
// may not drop more than the pinned tolerance below tests/quality_floor.json.
// The floor file carries the corpus hash, so a changed corpus is reported
// as such rather than as a regression.
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

TEST(QualityGate, ArticleExtractionBenchmarkF1) {
  std::string root = test::dataset("article-extraction-benchmark");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/article-extraction-benchmark is absent";
  std::ifstream floor_in(std::string(HUSK_SOURCE_DIR) + "/tests/quality_floor.json");
  ASSERT_TRUE(floor_in) << "tests/quality_floor.json is missing";
  nlohmann::json floor = nlohmann::json::parse(floor_in);
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

}  // namespace
}  // namespace husk
