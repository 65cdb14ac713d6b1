// The page's JSON-LD model (parsed once, one tolerance policy for every
// reader) and the one schema.org vocabulary.
#include "html/json_ld.h"

#include "html/structured.h"
#include "husk/metadata.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::string page_with(const std::string& script, const std::string& body = "<p>A short page.</p>") {
  return "<html><head><script type=\"application/ld+json\">" + script + "</script></head><body>" + body +
         "</body></html>";
}

TEST(SchemaVocabulary, ClassesFollowSchemaOrgsHierarchyWhateverTheCaseOrPrefix) {
  EXPECT_EQ(schema_classes("NewsArticle"), kSchemaArticle);
  EXPECT_EQ(schema_classes("https://schema.org/NewsArticle"), kSchemaArticle);
  EXPECT_EQ(schema_classes("schema:newsarticle"), kSchemaArticle);
  EXPECT_EQ(schema_classes("ReportageNewsArticle"), kSchemaArticle);
  EXPECT_EQ(schema_classes("TechArticle"), kSchemaArticle | kSchemaDocs);
  EXPECT_EQ(schema_classes("DiscussionForumPosting"), kSchemaArticle | kSchemaDiscussion);
  EXPECT_EQ(schema_classes("Recipe"), kSchemaWork);
  EXPECT_EQ(schema_classes("Offer"), kSchemaOffer);
  EXPECT_EQ(schema_classes("WebSite"), kSchemaFurniture | kSchemaWebSite);
  EXPECT_EQ(schema_classes("Thing"), 0u);
  EXPECT_EQ(schema_classes(""), 0u);
  EXPECT_EQ(bare_schema_type("http://schema.org/Product"), "Product");
}

TEST(JsonLd, ARepairableScriptIsReadWholeByEveryReader) {
  // A trailing comma: strict JSON fails, the repair reads it; the types,
  // the main node (metadata) and the product description come from the
  // one parse.
  const std::string script =
      R"({"@type":"Product","name":"Kettle","description":"A kettle of brushed steel that boils a litre of water in )"
      R"(three minutes and keeps it warm for an hour.","brand":{"@type":"Brand","name":"Acme",},})";
  Blocks blocks = test::blocks_of(page_with(script));
  ASSERT_NE(blocks.json_ld, nullptr);
  EXPECT_EQ(json_ld_of(blocks).types(), (std::vector<std::string>{"Product", "Brand"}));
  ASSERT_NE(json_ld_of(blocks).main(), nullptr);
  EXPECT_EQ(json_ld_of(blocks).text(json_ld_of(blocks).get(json_ld_of(blocks).main(), "name")), "Kettle");
  EXPECT_EQ(declared_types(blocks), (std::vector<std::string>{"Product", "Brand"}));
  // The description the page does not show became blocks of their own.
  std::string text;
  for (const Block& b : blocks.blocks) text += b.text + "\n";
  EXPECT_NE(text.find("brushed steel"), std::string::npos) << text;
}

TEST(JsonLd, AScriptBeyondRepairStillNamesItsTypesAndNothingElse) {
  // An unclosed string: no repair makes it JSON.
  Blocks blocks = test::blocks_of(page_with(R"({"@type":"NewsArticle","headline":"Cut off, "author":{"name":"X})"));
  ASSERT_NE(blocks.json_ld, nullptr);
  EXPECT_EQ(json_ld_of(blocks).types(), (std::vector<std::string>{"NewsArticle"}));
  EXPECT_EQ(json_ld_of(blocks).main(), nullptr);
  EXPECT_TRUE(json_ld_of(blocks).nodes().empty());
}

TEST(JsonLd, TheMainNodeIsTheArticleThenThePageNeverTheSitesFurniture) {
  const JsonLd& none = JsonLd::empty();
  EXPECT_EQ(none.main(), nullptr);
  auto ld = JsonLd::parse({R"({"@graph":[{"@type":"Organization","name":"Org"},{"@type":"WebPage","name":"Page"},)"
                           R"({"@type":"BlogPosting","headline":"Post"}]})"});
  ASSERT_NE(ld->main(), nullptr);
  EXPECT_EQ(ld->text(ld->get(ld->main(), "headline")), "Post");
  ld = JsonLd::parse({R"([{"@type":"Organization","name":"Org"},{"@type":"WebPage","name":"Page"}])"});
  EXPECT_EQ(ld->text(ld->get(ld->main(), "name")), "Page");
  ld = JsonLd::parse({R"([{"@type":"Organization","name":"Org"},{"@type":"Event","name":"Fair"}])"});
  EXPECT_EQ(ld->text(ld->get(ld->main(), "name")), "Fair");
  ld = JsonLd::parse({R"({"@type":"WebSite","name":"Site"})"});
  EXPECT_EQ(ld->main(), nullptr);
}

TEST(JsonLd, ThePageCarriesOneModelThatCopiesShare) {
  Blocks blocks = test::blocks_of(page_with(R"({"@type":"NewsArticle","headline":"One"})"));
  Blocks copy = blocks;
  EXPECT_EQ(copy.json_ld.get(), blocks.json_ld.get());
  Blocks plain = test::blocks_of("<html><body><p>No structured data.</p></body></html>");
  EXPECT_EQ(plain.json_ld, nullptr);
  EXPECT_TRUE(json_ld_of(plain).types().empty());
}

}  // namespace
}  // namespace husk
