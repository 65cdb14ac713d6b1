#include <toml++/toml.h>

#include "husk/params.h"
#include "unit/test_util.h"

namespace husk {
namespace {

TEST(Config, ExtractTomlMirrorsDensityParamsDefaults) {
  toml::table root = toml::parse(test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/extract.toml"));
  const toml::table* density = root["density"].as_table();
  ASSERT_NE(density, nullptr);
  auto fields = describe(DensityParams{});
  EXPECT_EQ(density->size(), fields.size()) << "config/extract.toml and DensityParams list different fields";
  for (const auto& [name, value] : fields) {
    std::optional<double> v = (*density)[name].value<double>();
    ASSERT_TRUE(v.has_value()) << name << " missing from config/extract.toml";
    EXPECT_DOUBLE_EQ(*v, value) << name << ": config/extract.toml and DensityParams disagree";
  }
}

TEST(Config, BuiltInVocabularyIsLoaded) {
  const ExtractConfig& config = default_extract_config();
  EXPECT_FALSE(config.vocabulary.negative_hints.empty());
  EXPECT_FALSE(config.vocabulary.end_markers.empty());
}

TEST(Config, OverridesKeepOtherDefaults) {
  auto config = parse_extract_config("[density]\nblock_cost = 12.5\n", "mine.toml");
  ASSERT_TRUE(config.ok()) << config.status().to_string();
  EXPECT_DOUBLE_EQ(config->density.block_cost, 12.5);
  EXPECT_DOUBLE_EQ(config->density.link_penalty, DensityParams{}.link_penalty);
}

TEST(Config, ErrorsNameFileAndLine) {
  auto unknown = parse_extract_config("[density]\n\nblock_kost = 1\n", "mine.toml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("mine.toml:3"), std::string::npos) << unknown.status().message();
  EXPECT_NE(unknown.status().message().find("block_kost"), std::string::npos);
  auto syntax = parse_extract_config("[density\n", "bad.toml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_NE(syntax.status().message().find("bad.toml:1"), std::string::npos) << syntax.status().message();
  auto type = parse_extract_config("[density]\ncut_min_words = \"x\"\n", "t.toml");
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.status().message().find("t.toml:2"), std::string::npos);
}

}  // namespace
}  // namespace husk
