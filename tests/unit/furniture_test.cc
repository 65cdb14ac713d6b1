// Page furniture (src/extract/furniture.h): the classes of
// config/extract.toml match their lines in the development collections'
// languages and leave the sentences that merely mention the same words.
#include "extract/furniture.h"
#include "extract/page_type.h"

#include "husk/processor.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::string class_of(const FurnitureLines& lines, std::string_view text) {
  return std::string(lines.class_of(text, spaced_words(text)));
}

TEST(Furniture, EachClassMatchesItsLinesInTheCollectionsLanguages) {
  const FurnitureLines lines(default_extract_config().furniture);
  const std::pair<const char*, const char*> kLines[] = {
      {"Photo: Jane Doe / Reuters", "credit"},
      {"Foto: dpa", "credit"},
      {"Фото: ТАСС", "credit"},
      {"© 2022 Example News. All rights reserved.", "credit"},
      {"Wszelkie prawa zastrzeżone.", "credit"},
      {"Marco Odermatt, Ski-Star aus der Schweiz. © AFP", "credit"},
      {"5 min read", "reading_time"},
      {"11 minut czytania", "reading_time"},
      {"Lesezeit: 4 Minuten", "reading_time"},
      {"Last updated: April 21, 2025", "updated"},
      {"Aktualisiert am 17.01.2021.", "updated"},
      {"Опубликовано: 17 января 2012", "updated"},
      {"Kommentieren", "comment_prompt"},
      {"Leave a reply", "comment_prompt"},
      {"Sie müssen sich einloggen, um sich an einer Diskussion beteiligen zu können.", "comment_prompt"},
      {"To view the full story, please subscribe to The Example Times.", "paywall"},
      {"Subscribe now to our e-edition for the full story.", "paywall"},
      {"If you are already a subscriber, log in here.", "paywall"},
      {"Jetzt abonnieren und weiterlesen", "paywall"},
      {"Ошибка в тексте? Выделите ошибку мышью и нажмите Ctrl+Enter", "error_report"},
      {"Found a typo? Select it and press Ctrl + Enter.", "error_report"},
      {"Опечатка? Ctrl+Enter", "error_report"},
      {"责任编辑：廖泽凌", "editor"},
      {"（責任編輯：趙晗）", "editor"},
      {"(曹文明 編輯)", "editor"},
      {"記者陳鈞凱／台北報導", "editor"},
      {"記者陳鈞凱∕台北報導", "editor"},  // Big5's slash as ICU reads it
      {"外汇网声明：外汇网转载上述内容，不表明证实其描述，仅供投资者参考。", "notice"},
      {"(聲明：刊用《中國新聞周刊》稿件務經書面授權)", "notice"},
      {"【免责声明】本文仅代表作者本人观点。", "notice"},
      {"Оцените, пожалуйста, статью. Нам важно Ваше мнение.", "rating"},
      {"Rate this article", "rating"},
      {"Protesters do not want Hong Kong to lose its autonomy (Image: Getty)", "credit"},
      {"Image copyright Getty Images", "credit"},
      {"(Reporting by Greg Roumeliotis; editing by Megan Davies)", "contribution"},
      {"Fox News' Jessica Napoli contributed to this report.", "contribution"},
      {"Follow Newsbeat on Instagram, Facebook, Twitter and YouTube.", "follow"},
      {"Like this story? Share it with a friend!", "follow"},
      {"Note: we are temporarily moderating all comments submitted to deal with a surge in spam.", "comment_prompt"},
      {"Αποστολή Εκτύπωση Μέγεθος κειμένου Μοιραστείτε το:", "tools"},
      {"A A | Email | Print", "tools"},
      {"調整字體︰大 中 小", "tools"},
      {"Drukuj Wyślij Udostępnij", "tools"},
      {"Версия для печати | Отправить", "tools"},
      {"Tags: election, parliament, budget", "taxonomy"},
      {"Filed under: Politics", "taxonomy"},
      {"Schlagwörter: Wahl, Bundestag", "taxonomy"},
      {"Теги: выборы, Дума", "taxonomy"},
      {"标签：两会 预算", "taxonomy"},
      {"This entry was posted in News and tagged budget, election. Bookmark the permalink.", "taxonomy"},
  };
  for (const auto& [text, want] : kLines) EXPECT_EQ(class_of(lines, text), want) << text;
  // Sentences of an article that use the same words are its text.
  const char* kText[] = {
      "Monthly subscription: US$14.99 per month",
      "Shares of the company jumped over 14 percent on Wednesday.",
      "The photo shows the harbour at dawn, before the ferries leave.",
      "Copyright law protects the authors of photographs for seventy years.",
      "Updated guidelines were published by the ministry on 3 May",
      "Readers left 120 comments under the first report.",
      "It takes 5 minutes to read the whole report, the minister said.",
      "Press Ctrl+Enter to run the cell.",
      "Reporting by phone was allowed for the first time this year.",
      "Follow the river north until the bridge.",
      "Disclaimer: This post was written in collaboration with a sponsor.",
      "编辑部昨日发表声明，称将继续调查。",
      "Print the form and send it to the office.",
      "Share",
      "Tagged as a risk, the loan was sold within a week.",
      "Categories of cost are listed in the annex.",
  };
  for (const char* text : kText) EXPECT_EQ(class_of(lines, text), "") << text;
  // A paragraph is never a furniture line, whatever phrase it holds ...
  std::string words;
  for (int i = 0; i < 30; ++i) words += " word";
  for (const char* phrase : {"All rights reserved.", "Photo: Jane Doe.", "Subscribe to read the full story.",
                             "Article 53.1© states it.", "FranГ©ois wrote it."}) {
    const std::string paragraph = phrase + words;
    EXPECT_GT(spaced_words(paragraph), kFurnitureMaxWords);
    EXPECT_EQ(class_of(lines, paragraph), "") << paragraph;
  }
  // ... but the copyright sign, at any length: a site's legal notice.
  for (const char* notice : {"© 2022 Example News.", "Owner of the project: © News Agency L.P.",
                             "Copyright©2007 Example Corp.", "Text (© Example) may be quoted."}) {
    const std::string paragraph = notice + words;
    EXPECT_EQ(class_of(lines, paragraph), "credit") << paragraph;
  }
  // So is a Chinese portal's disclaimer under its label, or where the site
  // speaks of itself; a story's paragraph quoting a statement is not.
  const std::string reprint =
      "凡注明为其他媒体来源的信息，均为转载自其他媒体，转载并不代表本网赞同其观点，也不代表本网对其真实性负责。"
      "您若对该稿件内容有任何疑问或质疑，请即与本网联系，本网将迅速给您回应并做处理。";
  const std::string disclaimer =
      "免責聲明：本文所載資料僅供參考，并不構成投資建議，對該資料或使用該資料所導致的結果概不承擔任何責任。"
      "若資料與原文有異，概以原文為準。";
  const std::string story =
      "该公司当天发表声明称，事故原因正在调查之中，目前没有人员伤亡，工厂将在检查完成以后恢复生产，"
      "当地政府也派出工作组前往现场了解情况并协助处理。";
  for (const std::string* text : {&reprint, &disclaimer, &story}) {
    Blocks blocks = test::blocks_of("<html><body><p>" + *text + "</p></body></html>");
    ASSERT_EQ(blocks.blocks.size(), 1u);
    EXPECT_GT(blocks.blocks[0].features.words, kFurnitureMaxWords) << *text;
    EXPECT_EQ(std::string(lines.class_of(*text, blocks.blocks[0].features.words)), text == &story ? "" : "notice")
        << *text;
  }
}

// Thirty words to append to a line: past the length of a furniture line,
// so that only the classes of any length can match it.
std::string past_a_lines_length() {
  std::string words;
  for (int i = 0; i < 30; ++i) words += " word";
  return words;
}

// The site asking to be followed on a social network speaks of itself
// ("us", "我們的專頁") at any length: a portal's closing paragraph of 40 and
// more words. A story that reports a page, a follower or a "like" is text.
TEST(Furniture, TheSitesOwnChannelsAreFurnitureAtAnyLength) {
  const FurnitureLines lines(default_extract_config().furniture);
  const std::string words = past_a_lines_length();
  const std::string kAsks[] = {
      "Catch up on our coverage of tech and tools, and follow us on Facebook, Instagram and TikTok" + words,
      "You can also subscribe to our channel for weekly news, like us on Facebook and join the conversation" + words,
      "Присоединяйтесь к нам на Facebook, Twitter, В контакте." + words,
      "Polub nas na Facebooku i bądź na bieżąco" + words,
      "本網現已正式登陸Facebook專頁，我們希望以此機會，天天為更多不同的朋友帶來第一手的新聞，"
      "不論是業界消息或是產品資訊，我們都會天天送上不斷更新。還不快點到Facebook LIKE 我們的專頁！",
  };
  for (const std::string& text : kAsks) {
    Blocks blocks = test::blocks_of("<html><body><p>" + text + "</p></body></html>");
    ASSERT_EQ(blocks.blocks.size(), 1u);
    EXPECT_GT(blocks.blocks[0].features.words, kFurnitureMaxWords) << text;
    EXPECT_EQ(std::string(lines.class_of(text, blocks.blocks[0].features.words)), "follow") << text;
  }
  const std::string kStories[] = {
      "A Facebook page titled \"Beautiful and Bald Barbie\" was started a few days before Christmas" + words,
      "The campaign asked people to like the page on Facebook, and thousands of them did" + words,
      "Over the weekend the women started a second page for a boys' toy, and its followers on Twitter" + words,
      "该公司在其微博上发布消息，称将继续关注事态发展，并将在调查结束以后公布结果，当地政府也派出工作组前往现场了解情况。",
  };
  for (const std::string& text : kStories)
    EXPECT_EQ(std::string(lines.class_of(text, spaced_words(text) + 40)), "") << text;
}

// A form's legal lines: the reader's consent to the processing of their
// data or to marketing mail, and the promise that an address is not sold
// or shown, are the consent class at any length; a post or a story that
// agrees or speaks of data is not.
TEST(Furniture, AFormsLegalLinesAreFurnitureAtAnyLength) {
  const FurnitureLines lines(default_extract_config().furniture);
  const std::string words = past_a_lines_length();
  const std::string kLegal[] = {
      "Wyrażam zgodę na przetwarzanie przez wydawcę moich danych osobowych w celach marketingowych" + words,
      "I agree to receive personalized marketing emails from the company." + words,
      "By subscribing, you agree to receive marketing emails from the shop and accept our Privacy Policy." + words,
      "Please note that we publish your name, but we do not publish your email address." + words,
      "Optional breaking news alerts. We NEVER sell, rent or otherwise share your personal data." + words,
      "Your email address will not be published. Required fields are marked *",
  };
  for (const std::string& text : kLegal)
    EXPECT_EQ(std::string(lines.class_of(text, spaced_words(text))), "consent") << text;
  const std::string kStories[] = {
      "I agree to a point. If the event is run by the owner then a tip is appreciated, but not required" + words,
      "The company said it does not sell customer data, but regulators found it shared records with advertisers" +
          words,
      "Wyrażam się jasno: ta ustawa nie przejdzie, powiedział poseł w rozmowie z dziennikarzami" + words,
  };
  for (const std::string& text : kStories)
    EXPECT_EQ(std::string(lines.class_of(text, spaced_words(text))), "") << text;
}

// Every process compiles the patterns at start: each stays a small RE2
// program. A Unicode class under a counted repetition (`[\pL ]{0,30}`)
// compiled to 67,000 instructions in 28 ms, twice at each start (the
// configuration's check and the rule's own), and added 0.05 s to every run
// of husk extract.
TEST(Furniture, EveryPatternIsASmallProgram) {
  for (const FurnitureClass& c : default_extract_config().furniture)
    for (const std::vector<std::string>* list : {&c.patterns, &c.any_length})
      for (const std::string& p : *list) {
        RE2 compiled(p, furniture_pattern_options());
        ASSERT_TRUE(compiled.ok()) << c.name << ": " << p;
        EXPECT_LT(compiled.ProgramSize(), 3000) << c.name << ": " << p;
      }
}

TEST(Furniture, LeavesTheTextWhateverStageKeptIt) {
  const std::string page =
      "<html><body><article><h1>Harbour festival opens</h1><p>5 min read</p>"
      "<p>The harbour festival opens on Friday with music on three stages and food from every quarter.</p>"
      "<figure><img src=a.jpg><figcaption>Photo: Jane Doe / Reuters</figcaption></figure>"
      "<p>Organisers expect more visitors than last year, when rain kept many of them away on Saturday.</p>"
      "<p>To view the full story, please subscribe to The Example Times.</p></article></body></html>";
  for (const char* extractor : {"fulltext", "density", "auto"}) {
    ProcessorOptions options;
    options.extractor = extractor;
    Result<Processor> processor = Processor::make(options);
    ASSERT_TRUE(processor.ok()) << processor.status().to_string();
    RawPage raw;
    raw.id = "festival";
    raw.bytes = page;
    Trace trace;
    PageResult r = processor->process(raw, &trace);
    EXPECT_NE(r.text.find("The harbour festival opens"), std::string::npos) << extractor << ": " << r.text;
    EXPECT_NE(r.text.find("Organisers expect"), std::string::npos) << extractor << ": " << r.text;
    for (const char* line : {"5 min read", "Jane Doe", "subscribe"})
      EXPECT_EQ(r.text.find(line), std::string::npos) << extractor << " kept " << line << ": " << r.text;
    // The trace says which blocks the rule took out, for husk explain.
    std::vector<std::string> taken;
    for (std::size_t i = 0; i < trace.furniture.size(); ++i)
      if (!trace.furniture[i].empty()) {
        taken.push_back(trace.furniture[i]);
        EXPECT_FALSE(trace.labels.keep[i]);
      }
    if (std::string(extractor) == "fulltext") {
      EXPECT_EQ(taken, (std::vector<std::string>{"reading_time", "credit", "paywall"}));
    }
  }
}

// On a page extraction is sure is an article, a block mostly of link text
// leaves the text whatever kept it (Processor::finish); a line that only
// holds a link among its words stays.
TEST(Furniture, LinkLinesLeaveAnArticle) {
  Blocks blocks = test::blocks_of(
      "<html><body><article><h1>Harbour festival opens</h1>"
      "<p>The harbour festival opens on Friday with music on three stages, <a href='/stages'>the organisers</a> "
      "said on Tuesday.</p>"
      "<p>Read more: <a href='/2024/05/02/parade'>Parade route through the old town announced for Sunday</a></p>"
      "<p><a href='/tag/music'>Music</a> <a href='/tag/city'>City life</a> <a href='/tag/summer'>Summer "
      "events</a></p></article></body></html>");
  ASSERT_EQ(blocks.blocks.size(), 4u);
  std::vector<uint8_t> keep(4, 1);
  EXPECT_EQ(take_out_link_lines(blocks, keep), (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(keep, (std::vector<uint8_t>{1, 1, 0, 0}));
  // What a stage did not keep is not reported.
  keep = {1, 1, 0, 1};
  EXPECT_EQ(take_out_link_lines(blocks, keep), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_TRUE(sure_article("article", kSureArticleProbability));
  EXPECT_FALSE(sure_article("article", kSureArticleProbability - 0.01f));
  EXPECT_FALSE(sure_article("listing", 1.0f));
}

// A headline link with its date or time beside it is a line of a list of
// other stories, however the stamp is written; a line of prose that ends in
// a date, or a link beside words that are no stamp, is not.
TEST(Furniture, AHeadlineLinkWithItsDateOrTimeIsALinkLine) {
  Blocks blocks = test::blocks_of(
      "<html><body><ul>"
      "<li><a href='/a'>Last farewell to the admiral</a> 10/4</li>"
      "<li>9:00 <a href='/b'>Union and government at odds</a></li>"
      "<li><a href='/c'>Ultimatums from the troika</a> [ 11:02 10/4 ]</li>"
      "<li><a href='/d'>Rail wagon of coal derails</a> 06.01.12 08:49</li>"
      "<li><a href='/e'>Farewell to the admiral</a> (01/17 00:06)</li>"
      "<li><a href='/f'>Farewell to the admiral</a> said the mayor</li>"
      "<li>The council meets again on <a href='/g'>Tuesday morning</a> at 10:30</li>"
      "<li><a href='/h'>Farewell</a> 10/4</li>"
      "<li>Source: <a href='/i'>Language survey</a> 2.0</li>"
      "<li>Case: <a href='/k'>I ZR</a> 166/07</li>"
      "<li><a href='/j'>Markets open higher</a> 09.04 19:10</li>"
      "</ul></body></html>");
  ASSERT_EQ(blocks.blocks.size(), 11u);
  std::vector<bool> lines;
  for (const Block& b : blocks.blocks) lines.push_back(is_link_line(b));
  EXPECT_EQ(lines, (std::vector<bool>{true, true, true, true, true, false, false, false, false, false, true}));
}

// The dashes, arrows and bars between a related story's link and its
// source, date or section are no words of the line: the link is most of
// it. Beside words of prose, or in a paragraph's length, they are the
// text's own punctuation.
TEST(Furniture, TheMarksBesideAHeadlineLinkAreNoWords) {
  std::string paragraph = "<li><a href='/p'>The council</a> met";
  for (int i = 0; i < 12; ++i) paragraph += " \u2013 <a href='/q'>again and again</a>";  // 51 words
  paragraph += "</li>";
  Blocks blocks = test::blocks_of(
      "<html><body><ul>"
      "<li>\u2013 <a href='/m'>Doctors could not save the boy</a> \u2014 Agency, 13.10.2011</li>"
      "<li>Society \u2192 <a href='/n'>Hooligans delay the spring decoration</a></li>"
      "<li><a href='/o'>Farewell to the old admiral</a> | Agency</li>"
      "<li>\u2013 <a href='/r'>The report</a> \u2014 said the mayor on Tuesday</li>" +
      paragraph + "</ul></body></html>");
  ASSERT_EQ(blocks.blocks.size(), 5u);
  std::vector<bool> lines;
  for (const Block& b : blocks.blocks) lines.push_back(is_link_line(b));
  EXPECT_EQ(lines, (std::vector<bool>{true, true, true, false, false}));
}

TEST(Furniture, ConfigurationReplacesAClassAndNamesABadPattern) {
  auto mine = parse_extract_config("[furniture]\ncredit = ['^source:']\n", "mine.toml");
  ASSERT_TRUE(mine.ok()) << mine.status().to_string();
  const FurnitureLines lines(mine->furniture);
  EXPECT_EQ(class_of(lines, "Source: the ministry"), "credit");
  EXPECT_EQ(class_of(lines, "Photo: Jane Doe"), "");  // the built-in credit patterns are replaced
  EXPECT_EQ(class_of(lines, "5 min read"), "reading_time");  // the other classes stay
  // The class's any-length patterns stay until they are given too.
  EXPECT_EQ(class_of(lines, "© 2022 Example News"), "credit");
  auto off = parse_extract_config("[furniture]\ncredit = []\n[furniture_any_length]\ncredit = []\n", "off.toml");
  ASSERT_TRUE(off.ok()) << off.status().to_string();
  EXPECT_EQ(class_of(FurnitureLines(off->furniture), "© 2022 Example News"), "");  // empty lists turn it off
  EXPECT_EQ(class_of(FurnitureLines(off->furniture), "5 min read"), "reading_time");
  auto long_only = parse_extract_config("[furniture_any_length]\nlegal = ['terms of reprinting']\n", "long.toml");
  ASSERT_TRUE(long_only.ok()) << long_only.status().to_string();
  std::string terms = "The terms of reprinting:";
  for (int i = 0; i < 40; ++i) terms += " word";
  EXPECT_EQ(class_of(FurnitureLines(long_only->furniture), terms), "legal");
  auto bad_long = parse_extract_config("[furniture_any_length]\ncredit = ['(']\n", "bl.toml");
  ASSERT_FALSE(bad_long.ok());
  EXPECT_NE(bad_long.status().message().find("furniture_any_length.credit"), std::string::npos)
      << bad_long.status().message();
  auto bad = parse_extract_config("[furniture]\n\ncredit = ['(unclosed']\n", "bad.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.toml:3"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("furniture.credit"), std::string::npos) << bad.status().message();
  // Among good ones, the pattern at fault is named by its own line.
  auto second = parse_extract_config("[furniture]\npaywall = [\n  'ok',\n  'x{2,1}',\n]\n", "second.toml");
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("second.toml:4"), std::string::npos) << second.status().message();
  auto not_list = parse_extract_config("[furniture]\ncredit = 'x'\n", "t.toml");
  ASSERT_FALSE(not_list.ok());
  EXPECT_NE(not_list.status().message().find("must be a list"), std::string::npos);
}

}  // namespace
}  // namespace husk
