#include <functional>
#include <map>
#include <random>

#include "extract/template_format.h"
#include "extractors/template.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// LCS length by plain recursion with memo: the obviously-correct twin.
std::size_t lcs_length(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, std::size_t i, std::size_t j,
                       std::map<std::pair<std::size_t, std::size_t>, std::size_t>& memo) {
  if (i == a.size() || j == b.size()) return 0;
  auto key = std::make_pair(i, j);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  std::size_t best = a[i] == b[j] ? 1 + lcs_length(a, b, i + 1, j + 1, memo)
                                  : std::max(lcs_length(a, b, i + 1, j, memo), lcs_length(a, b, i, j + 1, memo));
  memo[key] = best;
  return best;
}

TEST(Template, LcsAlignmentIsALongestCommonSubsequence) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint32_t> a(rng() % 25), b(rng() % 25);
    for (auto& v : a) v = rng() % 5;
    for (auto& v : b) v = rng() % 5;
    auto aligned = lcs_alignment(a, b);
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> memo;
    ASSERT_EQ(aligned.size(), lcs_length(a, b, 0, 0, memo));
    for (std::size_t k = 0; k < aligned.size(); ++k) {
      EXPECT_EQ(a[aligned[k].first], b[aligned[k].second]);
      if (k > 0) {
        EXPECT_LT(aligned[k - 1].first, aligned[k].first);
        EXPECT_LT(aligned[k - 1].second, aligned[k].second);
      }
    }
  }
}

TEST(Template, SiteGroups) {
  EXPECT_EQ(site_group("https://site.org/a/b/c1.html", ""), "site.org/a/b/");
  EXPECT_EQ(site_group("https://site.org/a/b/c2.html?x=1", ""), "site.org/a/b/");
  EXPECT_EQ(site_group("https://site.org/a/b/c2.html", "", 1), "site.org/a/");
  EXPECT_EQ(site_group("https://site.org/a/b/c2.html", "", 5), "site.org/");
  EXPECT_EQ(site_group("", "/srv/docs/lib/x.html"), "/srv/docs/lib/");
}

// Blocks of the given word counts, for the evidence rule.
Blocks blocks_of(std::vector<uint32_t> words) {
  Blocks b;
  for (uint32_t w : words) {
    Block block;
    block.features.words = w;
    b.blocks.push_back(block);
  }
  return b;
}

TEST(Template, PageEvidenceStandsOnlyWhenBothDisagree) {
  // Blocks: navigation that changes (6 words), the page's heading (2), a
  // paragraph every page of the site shares (30), the footer (20).
  Blocks b = blocks_of({6, 2, 30, 20});
  Labels site, page;
  site.keep = {1, 1, 0, 0};  // the stub's paragraph taken for template
  page.keep = {0, 1, 1, 0};
  Labels stub = combine_evidence(b, site, page);
  EXPECT_EQ(stub.keep, page.keep);
  EXPECT_EQ(stub.warnings.size(), 1u);
  // A short page whose own extractor also keeps the footer: the template
  // keeps the same content and drops the footer, so it stands.
  Blocks short_page = blocks_of({0, 2, 10, 20});
  site.keep = {0, 1, 1, 0};
  page.keep = {0, 1, 1, 1};
  EXPECT_EQ(combine_evidence(short_page, site, page).keep, site.keep);
  // The template keeping far more than the page's extractor (sections it
  // misses) is not disagreement either.
  site.keep = {1, 1, 1, 1};
  page.keep = {0, 0, 1, 0};
  EXPECT_EQ(combine_evidence(b, site, page).keep, site.keep);
  // Nothing kept by the page alone: the template stands.
  page.keep = {0, 0, 0, 0};
  EXPECT_EQ(combine_evidence(b, site, page).keep, site.keep);
}

std::vector<Blocks> garden() {
  std::vector<Blocks> out;
  for (int i = 1; i <= 6; ++i) {
    Result<Dom> dom = parse(test::read_file(std::string(HUSK_SOURCE_DIR) + "/fixtures/sites/garden/post" +
                                            std::to_string(i) + ".html"));
    out.push_back(segment(*dom));
  }
  return out;
}

std::string kept(const Blocks& b, const Labels& e) { return kept_text(b, e); }

class TemplateLearners : public ::testing::TestWithParam<TemplateLearner> {};

TEST_P(TemplateLearners, RemoveWhatThePagesShare) {
  std::vector<Blocks> pages = garden();
  std::vector<const Blocks*> ptrs;
  for (const Blocks& b : pages) ptrs.push_back(&b);
  TemplateOptions options;
  options.learner = GetParam();
  TemplateModel model = learn_template(ptrs, options);
  for (std::size_t i = 0; i < pages.size(); ++i) {
    std::string text = kept(pages[i], apply_template(model, pages[i]));
    EXPECT_EQ(text.find("Free delivery"), std::string::npos) << i;
    EXPECT_EQ(text.find("Copyright"), std::string::npos) << i;
    EXPECT_EQ(text.find("Categories"), std::string::npos) << i;
    EXPECT_EQ(text.find("Share this post"), std::string::npos) << i;
    EXPECT_NE(text.find(pages[i].first_h1), std::string::npos) << i;
  }
  EXPECT_NE(kept(pages[0], apply_template(model, pages[0])).find("Water at the base in the morning"), std::string::npos);
  // The model survives storage.
  auto back = deserialize_template(serialize(model));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->reference, model.reference);
  EXPECT_EQ(back->reference_template, model.reference_template);
  EXPECT_EQ(back->template_set, model.template_set);
  EXPECT_FALSE(deserialize_template("not a model").has_value());
}

INSTANTIATE_TEST_SUITE_P(Both, TemplateLearners, ::testing::Values(TemplateLearner::kInfholder, TemplateLearner::kInbreeding),
                         [](const ::testing::TestParamInfo<TemplateLearner>& info) {
                           return std::string(info.param == TemplateLearner::kInfholder ? "infholder" : "inbreeding");
                         });

// Six pages made by `page_of(i)`: what the learner keeps of page `shown`.
std::string kept_of_site(const std::function<std::string(const std::string&)>& page_of, TemplateLearner learner,
                         int shown) {
  std::vector<Blocks> pages;
  for (int i = 0; i < 6; ++i) pages.push_back(segment(*parse(page_of(std::to_string(i)))));
  std::vector<const Blocks*> ptrs;
  for (const Blocks& b : pages) ptrs.push_back(&b);
  TemplateOptions options;
  options.learner = learner;
  TemplateModel model = learn_template(ptrs, options);
  return kept(pages[static_cast<std::size_t>(shown)], apply_template(model, pages[static_cast<std::size_t>(shown)]));
}

TEST_P(TemplateLearners, DropTablesOfContentsThatChangeFromPageToPage) {
  // Each page's sidebar lists its own sections: different text on every
  // page, so only the links' target (the page itself) gives it away.
  auto page = [](const std::string& n) {
    return "<body><div class=nav><a href='/'>Home</a> <a href='/docs'>Docs</a></div>"
           "<div class=side><ul><li><a href='#s1'>Setup " + n + "</a></li><li><a href='#s2'>Usage " + n +
           "</a></li></ul></div><div class=main><h2 id=s1>Setup " + n + "</h2><p>Install step " + n +
           " and then <a href='#s2'>read on</a> below.</p><h2 id=s2>Usage " + n + "</h2><p>Run it " + n +
           " times.</p></div><div class=foot>Copyright Docs</div></body>";
  };
  EXPECT_EQ(kept_of_site(page, GetParam(), 3),
            "Setup 3\n\nInstall step 3 and then read on below.\n\nUsage 3\n\nRun it 3 times.");
}

TEST_P(TemplateLearners, KeepLabelsThatEveryPageRepeatsInsideItsContent) {
  // "Summary" and "Status:" are on every page, like the menu, but they sit
  // between two blocks of the page's own prose.
  auto page = [](const std::string& n) {
    return "<body><div class=nav><a href='/'>Home</a> <a href='/docs'>Docs</a></div><p>Menu text shared</p>"
           "<h1>Module " + n + "</h1><p>What module " + n + " is for.</p><h2>Summary</h2><p>Module " + n +
           " maps names to files.</p><p><b>Status:</b></p><p>State " + n +
           " of the module.</p><div class=foot>Copyright Docs</div></body>";
  };
  EXPECT_EQ(kept_of_site(page, GetParam(), 2),
            "Module 2\n\nWhat module 2 is for.\n\nSummary\n\nModule 2 maps names to files.\n\nStatus:\n\nState 2 of the "
            "module.");
}

TEST(Template, SmallGroupsLearnNothing) {
  std::vector<Blocks> pages = garden();
  std::vector<std::string> urls;
  for (std::size_t i = 0; i < 6; ++i) urls.push_back("https://shop.example/blog/p" + std::to_string(i));
  std::vector<TemplatePage> view;
  for (std::size_t i = 0; i < 3; ++i) view.push_back({urls[i], "", &pages[i]});
  TemplateOptions options;
  EXPECT_TRUE(learn_templates(view, options).empty());
  for (std::size_t i = 3; i < 6; ++i) view.push_back({urls[i], "", &pages[i]});
  auto learned = learn_templates(view, options);
  ASSERT_EQ(learned.size(), 1u);
  EXPECT_EQ(learned[0].first, "shop.example/blog/");
  EXPECT_EQ(learned[0].second.pages, 6u);
}

TEST(TemplateStore, KeepsModelsAcrossOpens) {
  test::TempDir dir;
  TemplateModel model;
  model.reference = {1, 2, 3};
  model.reference_template = {1, 0, 1};
  model.pages = 7;
  {
    auto store = TemplateStore::open(dir.file("state"));
    ASSERT_TRUE(store.ok()) << store.status().to_string();
    ASSERT_TRUE((*store)->put("shop.example/blog/", model).ok());
  }
  auto store = TemplateStore::open(dir.file("state"));
  ASSERT_TRUE(store.ok());
  auto got = (*store)->find("https://shop.example/blog/new-post.html", "");
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->reference, model.reference);
  EXPECT_EQ(got->pages, 7u);
  EXPECT_EQ((*store)->find("https://other.example/x.html", ""), nullptr);
  // An in-memory store answers the same way, and keeps nothing on disk.
  auto memory = TemplateStore::in_memory();
  ASSERT_TRUE(memory->put("shop.example/blog/", model).ok());
  EXPECT_NE(memory->find("https://shop.example/blog/a/b.html", ""), nullptr);
  EXPECT_EQ(memory->find("https://shop.example/other.html", ""), nullptr);
}

}  // namespace
}  // namespace husk
