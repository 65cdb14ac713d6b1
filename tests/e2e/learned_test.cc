// The learned extractor's fast paths against their brute-force twins, on
// real pages: the staged tree decision against every tree on every block,
// and husk's walk of the trees against XGBoost's own prediction.
#include <nlohmann/json.hpp>

#include <cmath>

#include "extract/features.h"
#include "extract/model.h"
#include "extract/page_type.h"
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

// One page of WCXB dev, decoded; empty without the collection.
std::string wcxb_page(const std::string& id) {
  std::string wcxb = test::dataset("wcxb-dev"), out;
  if (wcxb.empty()) return out;
  ingest({wcxb + "/html/" + id + ".html.gz"}, IngestOptions{}, [&](RawPage&& p) {
    out = decode(p.bytes, "", DecodeOptions{}).html;
    return true;
  });
  return out;
}

TEST(LearnedFastPaths, StagedDecisionAgreesWithEveryTree) {
  std::vector<std::string> pages = sample_pages();
  if (pages.empty()) GTEST_SKIP() << "no benchmark pages in ../shared/datasets";
  for (auto* built_in : {&builtin_block_model, &builtin_others_block_model}) {
  Result<std::shared_ptr<const TreeModel>> model = built_in();
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
    // Every tree, the other way: the model's probabilities.
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
}

// The trees husk walks give XGBoost's raw scores to the bit, over every
// range of rounds the staged decision asks for, on real rows and on the
// same rows with every seventh value missing (the splits' default sides);
// the page-type model's probabilities are the softmax of XGBoost's scores.
TEST(LearnedFastPaths, TreeWalkIsXGBoostsToTheBit) {
  std::vector<std::string> pages = sample_pages();
  if (pages.empty()) GTEST_SKIP() << "no benchmark pages in ../shared/datasets";
  Result<std::shared_ptr<const TreeModel>> blocks = builtin_block_model();
  Result<std::shared_ptr<const TreeModel>> types = builtin_page_type_model();
  ASSERT_TRUE(blocks.ok() && types.ok());
  const TreeModel& block_model = **blocks;
  const TreeModel& type_model = **types;
  const ExtractConfig& config = default_extract_config();
  FeatureExtractor features(config);
  std::unique_ptr<Extractor> density = make_density_extractor(config);
  const int all = block_model.rounds(), first = all / 6;
  std::size_t rows_checked = 0;
  std::size_t page_rows = 0;
  for (std::size_t k = 0; k < pages.size(); ++k) {
    Result<Dom> dom = parse(pages[k]);
    ASSERT_TRUE(dom.ok());
    Blocks b = segment(*dom);
    if (b.blocks.empty()) continue;
    Labels l = density->extract(PageView{b, nullptr, "", "p"});
    std::vector<float> rows = features.rows(b, l);
    const std::size_t columns = features.columns(), n = rows.size() / columns;
    std::vector<float> holed = rows;
    for (std::size_t i = k % 7; i < holed.size(); i += 7) holed[i] = std::numeric_limits<float>::quiet_NaN();
    for (const std::vector<float>* r : {&rows, &holed})
      for (auto [begin, end] : {std::pair{0, first}, std::pair{first, all}, std::pair{0, all}}) {
        auto ours = block_model.margins(r->data(), n, columns, begin, end);
        auto theirs = block_model.reference_margins(r->data(), n, columns, begin, end);
        ASSERT_TRUE(ours.ok() && theirs.ok());
        ASSERT_EQ(ours->size(), n);
        for (std::size_t i = 0; i < n; ++i) {
          const float expected = (*theirs)[i] - block_model.base_margin();
          ASSERT_EQ(std::memcmp(&(*ours)[i], &expected, sizeof(float)), 0)
              << "page " << k << " row " << i << " rounds " << begin << "-" << end << ": " << (*ours)[i]
              << " against XGBoost's " << expected;
        }
        rows_checked += n;
      }
    const std::vector<float> page = features.page_row(rows);
    for (const std::vector<float>& r : {page, std::vector<float>(page.size(), 0.0f)}) {
      auto p = type_model.predict(r, r.size());
      auto m = type_model.reference_margins(r.data(), 1, r.size(), 0, type_model.rounds());
      ASSERT_TRUE(p.ok() && m.ok());
      ASSERT_EQ(p->size(), m->size());
      double top = *std::max_element(m->begin(), m->end()), sum = 0;
      for (float v : *m) sum += std::exp(v - top);
      for (std::size_t c = 0; c < m->size(); ++c)
        EXPECT_NEAR((*p)[c], std::exp((*m)[c] - top) / sum, 1e-6) << "page " << k << " class " << c;
      EXPECT_EQ(std::max_element(p->begin(), p->end()) - p->begin(), std::max_element(m->begin(), m->end()) - m->begin());
      ++page_rows;
    }
  }
  EXPECT_GT(rows_checked, 10000u);
  EXPECT_GT(page_rows, 100u);
}

// A model husk cannot walk is an error naming it, never a crash: text
// that is no model, a model cut short, one of another objective.
TEST(LearnedFastPaths, BadModelsAreErrors) {
  const std::string bytes = test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/models/blocks.ubj");
  ASSERT_TRUE(TreeModel::load(bytes, "blocks.ubj").ok());
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{100}, bytes.size() / 2, bytes.size() - 1}) {
    auto model = TreeModel::load(std::string_view(bytes).substr(0, cut), "cut.ubj");
    ASSERT_FALSE(model.ok()) << cut;
    EXPECT_NE(model.status().message().find("cut.ubj"), std::string::npos) << model.status().message();
  }
  for (std::string_view text : {"not a model", "{}", "{\"learner\": {\"objective\": {\"name\": \"reg:squarederror\"}}}",
                                "{\"learner\": [1, 2, {\"x\": null}]}"}) {
    auto model = TreeModel::load(text, "text.json");
    EXPECT_FALSE(model.ok()) << text;
  }
}

// The binary's models are packed at build time: a packed model is the
// model read from XGBoost's file (the same margins to the bit, names and
// attributes), and a damaged packed form is an error, never a walk out of
// bounds.
TEST(LearnedFastPaths, PackedModelsAreTheModels) {
  for (const char* file : {"blocks.ubj", "blocks_others.ubj", "page_type.ubj"}) {
    const std::string bytes = test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/models/" + file);
    auto read = TreeModel::load(bytes, file);
    ASSERT_TRUE(read.ok()) << read.status().message();
    const std::string packed = (*read)->packed();
    auto unpacked = TreeModel::load_packed(packed, bytes, file);
    ASSERT_TRUE(unpacked.ok()) << unpacked.status().message();
    EXPECT_EQ((*unpacked)->feature_names(), (*read)->feature_names());
    EXPECT_EQ((*unpacked)->attribute("cross_validated_f1"), (*read)->attribute("cross_validated_f1"));
    EXPECT_EQ((*unpacked)->rounds(), (*read)->rounds());
    EXPECT_EQ((*unpacked)->base_margin(), (*read)->base_margin());
    const std::size_t columns = (*read)->feature_names().size();
    std::vector<float> rows(200 * columns);
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i] = i % 7 == 0 ? std::nanf("") : static_cast<float>((i * 2654435761u) % 1000) / 250.0f - 1.0f;
    auto a = (*read)->predict(rows, columns);
    auto b = (*unpacked)->predict(rows, columns);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b) << file;
    EXPECT_EQ((*unpacked)->packed(), packed);
    for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{40}, packed.size() / 2, packed.size() - 1})
      EXPECT_FALSE(TreeModel::load_packed(std::string_view(packed).substr(0, cut), bytes, file).ok()) << cut;
    std::string damaged = packed;
    const std::size_t at = damaged.find("\"tree_class\":[0,");
    ASSERT_NE(at, std::string::npos);
    damaged[at + 14] = '9';  // a tree of a class the model does not have
    auto bad = TreeModel::load_packed(damaged, bytes, file);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().message().find(file), std::string::npos) << bad.status().message();
  }
}

// The second block model lies beside the first: husk train extract --others
// -o FILE writes it as FILE_others, and husk extract --model FILE reads it
// from there for the pages it types as other than articles. Without it
// those pages take the first model; a damaged one is an error naming it.
TEST(LearnedFastPaths, TheOthersModelIsFoundBesideTheBlockModel) {
  EXPECT_EQ(others_model_path("config/models/blocks.ubj"), "config/models/blocks_others.ubj");
  EXPECT_EQ(others_model_path("model"), "model_others");
  EXPECT_EQ(others_model_path("a.b/model"), "a.b/model_others");
  EXPECT_EQ(others_model_path(".ubj"), ".ubj_others");
  const std::string models = std::string(HUSK_SOURCE_DIR) + "/config/models/";
  // A listing of WCXB dev, which husk types as one.
  const std::string listing = wcxb_page("0847");
  if (listing.empty()) GTEST_SKIP() << "wcxb-dev is absent from ../shared/datasets";
  test::TempDir dir;
  const std::string page = dir.file("listing.html");
  test::write_file(page, listing);
  test::write_file(dir.file("blocks.ubj"), test::read_file(models + "blocks.ubj"));
  test::CommandResult alone = test::run_husk("extract --model " + dir.file("blocks.ubj") + " " + page);
  test::write_file(dir.file("blocks_others.ubj"), test::read_file(models + "blocks_others.ubj"));
  test::CommandResult pair = test::run_husk("extract --model " + dir.file("blocks.ubj") + " " + page);
  test::CommandResult built_in = test::run_husk("extract " + page);
  ASSERT_EQ(alone.exit_code, 0);
  ASSERT_EQ(pair.exit_code, 0);
  EXPECT_EQ(pair.out, built_in.out);
  EXPECT_NE(pair.out, alone.out) << "the listing was not scored by the second model";
  test::write_file(dir.file("blocks_others.ubj"), "not a model");
  test::CommandResult damaged = test::run_husk("extract --model " + dir.file("blocks.ubj") + " " + page + " 2>&1");
  EXPECT_NE(damaged.exit_code, 0);
  EXPECT_NE(damaged.out.find("blocks_others.ubj"), std::string::npos) << damaged.out;
}

}  // namespace
}  // namespace husk
