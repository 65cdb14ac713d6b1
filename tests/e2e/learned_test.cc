// The learned extractor's fast paths against their brute-force twins, on
// real pages: the staged tree decision against every tree on every block,
// and the prescan's class-word filter against whole class attributes. And
// what it is for: the page types of clear cases, the product description
// a page keeps in JSON-LD.
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

std::shared_ptr<const ClassWords> class_words_of(const ExtractConfig& c) {
  std::vector<std::string> substrings = c.vocabulary.positive_hints;
  substrings.insert(substrings.end(), c.vocabulary.negative_hints.begin(), c.vocabulary.negative_hints.end());
  std::vector<std::string> words = c.vocabulary.negative_tokens;
  for (const HintFamily& f : c.families) {
    substrings.insert(substrings.end(), f.substrings.begin(), f.substrings.end());
    words.insert(words.end(), f.tokens.begin(), f.tokens.end());
  }
  return std::make_shared<const ClassWords>(substrings, words);
}

TEST(LearnedFastPaths, ClassWordFilterChangesNoVerdictAndNoFeature) {
  std::vector<std::string> pages = sample_pages();
  if (pages.empty()) GTEST_SKIP() << "no benchmark pages in ../shared/datasets";
  const ExtractConfig& config = default_extract_config();
  FeatureExtractor features(config);
  std::unique_ptr<Extractor> density = make_density_extractor(config);
  ParseOptions whole, filtered;
  filtered.class_words = class_words_of(config);
  std::size_t smaller = 0;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    Result<Dom> a = parse(pages[i], whole), b = parse(pages[i], filtered);
    ASSERT_TRUE(a.ok() && b.ok());
    Blocks ba = segment(*a), bb = segment(*b);
    ASSERT_EQ(ba.blocks.size(), bb.blocks.size()) << i;
    Labels la = density->extract(PageView{ba, nullptr, "", "a"}), lb = density->extract(PageView{bb, nullptr, "", "b"});
    EXPECT_EQ(la.keep, lb.keep) << "page " << i;
    EXPECT_EQ(features.rows(ba, la, ""), features.rows(bb, lb, "")) << "page " << i;
    std::size_t hints_a = 0, hints_b = 0;
    for (const Element& e : ba.elements) hints_a += e.hints.size();
    for (const Element& e : bb.elements) hints_b += e.hints.size();
    smaller += hints_b < hints_a;
  }
  // The filter does leave words out (it is not a no-op on real pages).
  EXPECT_GT(smaller, pages.size() / 2);
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
    std::vector<float> rows = features.rows(b, l, "");
    auto staged = above_threshold(**model, rows, features.columns(), threshold, StagedDecision{50, 2.0f});
    auto full = above_threshold(**model, rows, features.columns(), threshold, StagedDecision{0, 0.0f});
    ASSERT_TRUE(staged.ok() && full.ok());
    // Every tree, the other way: XGBoost's own probabilities.
    auto p = (*model)->predict(rows, features.columns());
    ASSERT_TRUE(p.ok());
    for (std::size_t i = 0; i < full->size(); ++i) {
      ASSERT_EQ((*full)[i], (*p)[i] >= threshold ? 1 : 0) << "block " << i;
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
