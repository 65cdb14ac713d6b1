#include <toml++/toml.h>

#include "husk/extract.h"
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

#include "husk/sign.h"

namespace husk {
namespace {

TEST(Config, SignTomlMirrorsSignAndNormalizeDefaults) {
  toml::table root = toml::parse(test::read_file(std::string(HUSK_SOURCE_DIR) + "/config/sign.toml"));
  std::size_t listed = 0;
  for (const char* section : {"normalize", "sign"}) listed += root[section].as_table()->size();
  auto fields = describe(SignOptions{});
  EXPECT_EQ(listed, fields.size()) << "config/sign.toml and SignOptions list different fields";
  for (const auto& [name, value] : fields) {
    std::string section = name.substr(0, name.find('.'));
    std::string key = name.substr(name.find('.') + 1);
    const toml::node* node = root[section][key].node();
    ASSERT_NE(node, nullptr) << name << " missing from config/sign.toml";
    double mirrored = 0;
    if (node->is_string()) {
      mirrored = static_cast<double>(*parse_number_policy(*node->value<std::string>()));
    } else if (node->is_boolean()) {
      mirrored = *node->value<bool>() ? 1.0 : 0.0;
    } else if (node->is_integer()) {
      mirrored = static_cast<double>(static_cast<uint64_t>(*node->value<int64_t>()));
    } else {
      mirrored = *node->value<double>();
    }
    EXPECT_DOUBLE_EQ(mirrored, value) << name << ": config/sign.toml and the defaults disagree";
  }
  auto parsed = load_sign_config(std::string(HUSK_SOURCE_DIR) + "/config/sign.toml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(describe(*parsed), fields);
}

TEST(Config, SignConfigErrorsNameFileAndLine) {
  auto bad = parse_sign_config("[sign]\ntfidf_terms = 6\nminhash_bands = \"x\"\n", "s.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("s.toml:3"), std::string::npos) << bad.status().message();
  auto policy = parse_sign_config("[normalize]\nnumbers = \"sometimes\"\n", "n.toml");
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("n.toml:2"), std::string::npos);
  auto bands = parse_sign_config("[sign]\nminhash_bands = 40\n", "b.toml");
  ASSERT_FALSE(bands.ok());
  auto ok = parse_sign_config("[sign]\ntfidf_terms = 8\n[normalize]\nnumbers = \"keep\"\n", "o.toml");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->tfidf_terms, 8u);
  EXPECT_EQ(ok->normalize.numbers, NumberPolicy::kKeep);
  EXPECT_EQ(ok->minhash_permutations, 128u);
}

}  // namespace
}  // namespace husk
