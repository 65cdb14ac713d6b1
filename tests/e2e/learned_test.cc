// The learned extractor's fast path against its brute-force twin, on real
// pages: the staged tree decision against every tree on every block.
#include <nlohmann/json.hpp>

#include "extract/features.h"
#include "extract/model.h"
#include "extract/registry.h"
#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// Every page of the article-extraction-benchmark, and every tenth page of
// WCXB dev, decoded.
std::vector<std::string> sample_pages() {
  std::vector<std::string> out;
  std::vector<std::string> roots;
  if (std::string aeb = test::dataset("article-extraction-benchmark"); !aeb.empty()) roots.push_back(aeb + "/html");
  std::size_t k = 0;
  for (const std::string& root : roots)
    ingest({root}, IngestOptions{}, [&](RawPage&& p) {
      out.push_back(decode(p.bytes, "", DecodeOptions{}).html);
      return true;
    });
  if (std::string wcxb = test::dataset("wcxb-dev"); !wcxb.empty())
    ingest({wcxb + "/html"}, IngestOptions{}, [&](RawPage&& p) {
      if (k++ % 10 == 0) out.push_back(decode(p.bytes, "", DecodeOptions{}).html);
      return true;
    });
  return out;
}

TEST(LearnedFastPaths, StagedDecisionAgreesWithEveryTree) {
  std::vector<std::string> pages = sample_pages();
  if (pages.empty()) GTEST_SKIP() << "no benchmark pages in ../shared/datasets";
  Result<std::shared_ptr<const TreeModel>> model = builtin_block_model();
  ASSERT_TRUE(model.ok()) << model.status().message();
  const ExtractConfig& config = default_extract_config();
  FeatureExtractor features(config);
  std::unique_ptr<Extractor> density = make_density_extractor(config);
  const double threshold = std::stod((*model)->attribute("threshold"));
  std::size_t blocks = 0, differ = 0, kept = 0;
  for (const std::string& html : pages) {
    Result<Dom> dom = parse(html);
    ASSERT_TRUE(dom.ok());
    Blocks b = segment(*dom);
    if (b.blocks.empty()) continue;
    Labels l = density->extract(PageView{b, nullptr, "", "p"});
    std::vector<float> rows = features.rows(b, l);
    auto staged = above_threshold(**model, rows, features.columns(), threshold, kStagedDecision);
    auto full = above_threshold(**model, rows, features.columns(), threshold, StagedDecision{0, 0.0f});
    ASSERT_TRUE(staged.ok() && full.ok());
    // Every tree, the other way: XGBoost's own probabilities.
    auto p = (*model)->predict(rows, features.columns());
    ASSERT_TRUE(p.ok());
    const double cut = page_threshold(threshold, *std::max_element(p->begin(), p->end()));
    for (std::size_t i = 0; i < full->size(); ++i) {
      ASSERT_EQ((*full)[i], (*p)[i] >= cut ? 1 : 0) << "block " << i;
      differ += (*staged)[i] != (*full)[i];
      kept += (*full)[i];
    }
    blocks += full->size();
  }
  ASSERT_GT(kept, 0u);
  std::printf("%zu of %zu decisions differ\n", differ, blocks);
  EXPECT_LE(static_cast<double>(differ), 0.003 * static_cast<double>(blocks));
}

}  // namespace
}  // namespace husk
