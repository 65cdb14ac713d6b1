// Real pages of the article-extraction-benchmark: sentences of the article
// that must be in the text, page furniture that must not.
#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "eval/eval.h"
#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

struct SnippetCase {
  const char* page;  // file name prefix under html/
  std::vector<std::string> must;
  std::vector<std::string> must_not;
};

const SnippetCase kSnippetCases[] = {
    {"042bb7b5feda", {"Gaming used to be so simple. We’d buy", "Now we spend money over and over on"}, {"Privacy Policy", "Terms of Use", "Newsletter"}},
    {"04a6711caa7c", {"Americans have gone to the polls four times", "I don’t see the downside. A long inquiry"}, {"Newsletter", "Subscribe", "Advertisement"}},
    {"05844573ca7e", {"New electric vehicles, several new small SUVs, a", "The 2021 RAV4 Prime will be able to"}, {"Terms of Use", "Newsletter", "Subscribe"}},
    {"076f4f33bf75", {"In case you are living in Delhi-NCR, chances", "So now you know that there IS an"}, {"All rights reserved", "Terms of Use", "Related"}},
    {"098bb3e96c0a", {"Walt Disney Co. executive Kevin Mayer said overwhelming", "“Operating is a lot different than a strategy"}, {"Privacy Policy", "Newsletter", "Subscribe"}},
    {"0d46122928b6", {"MADRID — Rafael Nadal kept Spain’s hopes alive,", "Australia beat Colombia behind Nick Kyrgios’ 6-4, 6-4"}, {"Privacy Policy", "All rights reserved", "Newsletter"}},
    {"0dd135704572", {"Senator representing Yobe North , Ahmad Lawan ,", "Senate Leader, Ahmad Lawan raises a motion on"}, {"Newsletter", "Subscribe", "Comments"}},
    {"0e014df693f1", {"This shop has been compensated by #CollectiveBias, Inc.", "What is your favorite weekend family activity? How"}, {"Privacy Policy", "Cookie"}},
    {"14cc2a0ca59c", {"A team led by researchers out of NASA's", "further insights into the water vapor above the moon's surface"}, {"Privacy Policy", "All rights reserved"}},
    {"16c30add7e96", {"Another cloud of choking smoke and dust is", "While some of the solutions like wind and"}, {"Privacy Policy", "Terms of Use", "Sign up"}},
    {"1ee91d1fce65", {"In a joint statement published Oct. 25, the", "Robertson, the U.S. commander, said: “The United States"}, {"Terms of Use", "Newsletter", "Comments"}},
    {"1f765c487806", {"Prince Andrew, the nearly 60-year-old younger brother of", "The views and opinions expressed in the article"}, {"Privacy Policy", "All rights reserved", "Terms of Use"}},
};

TEST(RealPages, ArticleSentencesInFurnitureOut) {
  std::string root = test::dataset("article-extraction-benchmark");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/article-extraction-benchmark is absent";
  std::map<std::string, std::string> text_by_prefix;
  const ProcessorOptions defaults;
  Result<Processor> pipeline = Processor::make(defaults);
  ASSERT_TRUE(pipeline.ok());
  ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    for (const SnippetCase& c : kSnippetCases)
      if (page.id.rfind(c.page, 0) == 0) text_by_prefix[c.page] = pipeline->process(page).text;
    return true;
  });
  for (const SnippetCase& c : kSnippetCases) {
    ASSERT_TRUE(text_by_prefix.count(c.page)) << c.page;
    const std::string& text = text_by_prefix[c.page];
    for (const std::string& s : c.must) EXPECT_NE(text.find(s), std::string::npos) << c.page << " lacks: " << s;
    for (const std::string& s : c.must_not) EXPECT_EQ(text.find(s), std::string::npos) << c.page << " keeps: " << s;
  }
}

// An article is never emptied (page_threshold, extract/model.h): on every
// news page of daniel-dev and the article-extraction-benchmark (each gold
// holds an article) that the classifier types as an article, the text
// holds a sentence at least, and the pages where the rule kept the best blocks of a page
// whose every block the model rated under the threshold say so and keep
// text. Which pages those are depends on the draw of the trees (today a
// Chinese page in a charset its server mislabels); that none is emptied
// does not.
TEST(RealPages, NoNewsArticleIsEmptied) {
  const std::string daniel = test::dataset("daniel-dev"), aeb = test::dataset("article-extraction-benchmark");
  if (daniel.empty() || aeb.empty()) GTEST_SKIP() << "a news collection is absent from ../shared/datasets";
  const ProcessorOptions defaults;
  Result<Processor> pipeline = Processor::make(defaults);
  ASSERT_TRUE(pipeline.ok());
  std::size_t articles = 0, kept_by_the_rule = 0;
  ingest({daniel + "/html", aeb + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    PageResult r = pipeline->process(page);
    if (r.page_type != "article") return true;
    ++articles;
    EXPECT_GE(r.text.size(), 20u) << page.id << ": " << r.text;  // a sentence at least
    if (std::any_of(r.warnings.begin(), r.warnings.end(),
                    [](const std::string& w) { return w.find("keeps its best blocks") != std::string::npos; })) {
      ++kept_by_the_rule;
      EXPECT_FALSE(r.text.empty()) << page.id;
    }
    return true;
  });
  EXPECT_GT(articles, 900u);
  std::printf("%zu news pages typed as articles, %zu kept by the rule\n", articles, kept_by_the_rule);
}

// The leads of the other stories a page lists under its article (teaser
// lists, extract/teasers.h) leave the text; the article stays. Two AEB
// pages whose leads the shipped block model keeps: a Portuguese blog's
// "more posts" with a paragraph of each, a Russian diet site's list of
// other diets. A retrained model that drops these leads itself needs other
// pages here (`husk explain` names the rule's blocks `teaser`).
TEST(RealPages, TheLeadsOfOtherStoriesLeaveTheArticle) {
  std::string root = test::dataset("article-extraction-benchmark");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/article-extraction-benchmark is absent";
  struct Case {
    const char* id;
    const char* article;  // the gold's first sentence
    const char* lead;     // another story's lead
  };
  const Case cases[] = {
      {"b3c19dd5f0612d098788fa5173e491b3280da6226b492f8fe110f4ab1896cca8",
       "Viver uma verdadeira experiência amorosa é um dos maiores prazeres da vida.",
       "A vida requer da gente otimismo e coragem"},
      {"ff0f958ade714ebfaf5c0b42b1c0152a62063f4e6f72141406ccefc4a2677f21",
       "Эта диета пришла к нам с запада", "Популярная диета при активном ритме жизни."}};
  const ProcessorOptions defaults;
  Result<Processor> pipeline = Processor::make(defaults);
  ASSERT_TRUE(pipeline.ok());
  std::size_t seen = 0;
  for (const Case& c : cases) {
    ingest({root + "/html/" + c.id + ".html.gz"}, IngestOptions{}, [&](RawPage&& page) {
      PageResult r = pipeline->process(page);
      EXPECT_NE(r.text.find(c.article), std::string::npos) << c.id << " lacks its article:\n" << r.text;
      EXPECT_EQ(r.text.find(c.lead), std::string::npos) << c.id << " keeps another story's lead:\n" << r.text;
      ++seen;
      return true;
    });
  }
  EXPECT_EQ(seen, 2u);
}

// The same bytes give the same text with or without the URL they came
// from, whatever the URL says (a forum's, a shop's path): no site rule or
// template is loaded, so nothing may read it.
TEST(RealPages, TheSameTextWithOrWithoutAUrl) {
  std::string root = test::dataset("article-extraction-benchmark");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/article-extraction-benchmark is absent";
  std::ifstream gold_in(root + "/ground-truth.json");
  nlohmann::json gold = nlohmann::json::parse(gold_in);
  const ProcessorOptions defaults;
  Result<Processor> pipeline = Processor::make(defaults);
  ASSERT_TRUE(pipeline.ok());
  std::size_t pages = 0;
  ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    const std::string without = pipeline->process(page).text;
    for (std::string url : {gold.at(gold_key(page.id)).value("url", std::string()),
                            std::string("https://forum.example/t/some-thread/123"),
                            std::string("https://shop.example/product/p/123")}) {
      RawPage with = page;
      with.url = url;
      EXPECT_EQ(pipeline->process(with).text, without) << page.id << " with " << url;
    }
    ++pages;
    return true;
  });
  EXPECT_EQ(pages, gold.size());
}

}  // namespace
}  // namespace husk
