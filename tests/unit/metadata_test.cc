// Metadata: each source, the order of precedence between them, date
// checks, URL resolution and the comment section.
#include "base/url.h"
#include "extract/comments.h"
#include "husk/metadata.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// 2026-01-01T00:00:00Z: "now" for the future-date checks.
constexpr std::time_t kNow = 1767225600;

Metadata meta_of(const std::string& html, const std::string& url = "https://news.example/a/story.html") {
  Blocks blocks = test::blocks_of(html);
  std::vector<uint8_t> keep(blocks.blocks.size(), 1);
  MetadataOptions options;
  options.now = kNow;
  return extract_metadata(blocks, keep, url, options);
}

TEST(Metadata, JsonLdGraphWithReferencesOutranksMetaTags) {
  Metadata m = meta_of(R"(<html><head>
    <meta name="author" content="Meta Author"><meta property="article:published_time" content="2020-01-01">
    <meta property="og:site_name" content="The Example"><meta property="og:image" content="/img/lead.jpg">
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"WebSite","@id":"https://news.example/#site","name":"Example Site"},
      {"@type":"Person","@id":"https://news.example/#jane","name":"Jane Roe"},
      {"@type":"NewsArticle","headline":"Big story","author":[{"@id":"https://news.example/#jane"},{"@type":"Person","name":"Ann Lee"}],
       "datePublished":"2025-03-04T10:00:00+01:00","dateModified":"2025-03-05","keywords":"rivers, floods",
       "articleSection":["Science"],"license":"https://creativecommons.org/licenses/by/4.0/"}]}</script>
    </head><body><h1>Big story</h1><p>Text.</p></body></html>)");
  EXPECT_EQ(m.title, "Big story");
  EXPECT_EQ(m.authors, (std::vector<std::string>{"Jane Roe", "Ann Lee"}));
  EXPECT_EQ(m.date_published, "2025-03-04T10:00:00+01:00");
  EXPECT_EQ(m.date_modified, "2025-03-05");
  EXPECT_EQ(m.sitename, "The Example");
  EXPECT_EQ(m.image, "https://news.example/img/lead.jpg");
  EXPECT_EQ(m.tags, (std::vector<std::string>{"rivers", "floods"}));
  EXPECT_EQ(m.categories, (std::vector<std::string>{"Science"}));
  EXPECT_EQ(m.license, "https://creativecommons.org/licenses/by/4.0/");
}

TEST(Metadata, BrokenJsonLdIsRepaired) {
  // A trailing comma, a raw line break inside a string, two objects pasted.
  Metadata m = meta_of("<html><head><script type=\"application/ld+json\">"
                       "{\"@type\":\"Article\",\"author\":{\"name\":\"Line\nBreak\"},\"datePublished\":\"2024-02-03\",}"
                       "{\"@type\":\"Organization\",\"name\":\"Org\"}</script></head><body><p>x</p></body></html>");
  EXPECT_EQ(m.authors, (std::vector<std::string>{"Line Break"}));
  EXPECT_EQ(m.date_published, "2024-02-03");
}

TEST(Metadata, JsonLdCharacterReferencesAreDecodedByTheWholeTable) {
  Metadata m = meta_of("<html><head><script type=\"application/ld+json\">"
                       "{\"@type\":\"Article\",\"author\":{\"name\":\"Ren&eacute;e &Aring;str&ouml;m\"},"
                       "\"headline\":\"Tips &amp; Tricks &#x2014;for AT&T &lt;b&gt;\"}</script></head><body><p>x</p></body></html>");
  EXPECT_EQ(m.authors, (std::vector<std::string>{"Renée Åström"}));
  EXPECT_EQ(m.title, "Tips & Tricks —for AT&T <b>");
}

TEST(Metadata, DecodeCharacterReferences) {
  const std::pair<const char*, const char*> cases[] = {
      {"Ren&eacute;e", "Renée"},
      {"&#65;&#x42;&#X43;", "ABC"},
      {"AT&T &zzz; & done", "AT&T &zzz; & done"},
      {"a < b, <i>markup</i> stays", "a < b, <i>markup</i> stays"},
      {"an end tag </textarea> stays text", "an end tag </textarea> stays text"},
      {"\nleading line", "\nleading line"},
      {"no references", "no references"},
      {"&copy 2024", "© 2024"},  // a legacy reference without ';', as browsers read it
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(decode_character_references(in), want) << in;
}

TEST(Metadata, MicrodataThenOpenGraphThenMeta) {
  Metadata m = meta_of(R"(<html><head><meta name="author" content="Meta Name">
      <meta property="article:published_time" content="2023-06-07T08:09:10Z"></head>
      <body><article><span itemprop="author">Micro Data</span><p>x</p></article></body></html>)");
  EXPECT_EQ(m.authors, (std::vector<std::string>{"Micro Data"}));
  EXPECT_EQ(m.date_published, "2023-06-07T08:09:10Z");
  Metadata meta_only = meta_of(R"(<html><head><meta name="author" content="Meta Name"></head><body><p>x</p></body></html>)");
  EXPECT_EQ(meta_only.authors, (std::vector<std::string>{"Meta Name"}));
}

TEST(Metadata, BylinesRelAuthorAndTimeElements) {
  Metadata byline = meta_of("<html><body><h1>Story</h1><p>By Maria Garcia | March 3, 2024</p><p>Body text.</p></body></html>");
  EXPECT_EQ(byline.authors, (std::vector<std::string>{"Maria Garcia"}));
  EXPECT_EQ(byline.date_published, "2024-03-03");
  Metadata von = meta_of("<html><body><p>Von Hans Müller</p><p>Text.</p></body></html>");
  EXPECT_EQ(von.authors, (std::vector<std::string>{"Hans Müller"}));
  // A date written day first, in any language, ends the name too, and
  // what holds no letter is no name.
  for (const char* line : {"By Anna Berg, 12 March 2024", "Von Anna Berg, 12. März 2024", "By Anna Berg 3 Sept. 2021"})
    EXPECT_EQ(meta_of(std::string("<html><body><p>") + line + "</p><p>Text.</p></body></html>").authors,
              (std::vector<std::string>{"Anna Berg"}))
        << line;
  EXPECT_TRUE(meta_of("<html><body><div class=\"author\">05</div><p>Text.</p></body></html>").authors.empty());
  Metadata ru = meta_of("<html><body><p>Автор: Иван Петров</p><p>Текст.</p></body></html>");
  EXPECT_EQ(ru.authors, (std::vector<std::string>{"Иван Петров"}));
  Metadata rel = meta_of(
      "<html><body><a rel=\"author\" href=\"/u/k\">Kim Park</a><time datetime=\"2022-11-12\">Nov 12</time><p>x</p></body></html>");
  EXPECT_EQ(rel.authors, (std::vector<std::string>{"Kim Park"}));
  EXPECT_EQ(rel.date_published, "2022-11-12");
  Metadata marked = meta_of("<html><body><div class=\"post-author\">Written by Lee Chen</div><p>x</p></body></html>");
  EXPECT_EQ(marked.authors, (std::vector<std::string>{"Lee Chen"}));
  // A URL is not a name.
  Metadata url_author = meta_of(
      "<html><head><meta property=\"article:author\" content=\"https://facebook.com/someone\"></head><body><p>x</p></body></html>");
  EXPECT_TRUE(url_author.authors.empty());
}

// docs/cli.md's author rule, clause by clause, beyond the cases above:
// French and Spanish bylines, the innermost name of a nested author box,
// "on <date>" after a byline, a thread's posters (more than three names
// marked: the first) and a label that is not a name.
TEST(Metadata, EveryClauseOfTheDocumentedAuthorRuleHolds) {
  const std::string para = "<p>The council voted on Tuesday to turn the harbour warehouses into a public library.</p>";
  EXPECT_EQ(meta_of("<html><body><p>Par Jean Dupont</p>" + para + "</body></html>").authors,
            (std::vector<std::string>{"Jean Dupont"}));
  EXPECT_EQ(meta_of("<html><body><p>Por María López</p>" + para + "</body></html>").authors,
            (std::vector<std::string>{"María López"}));
  EXPECT_EQ(meta_of("<html><body><div class=\"author-box\"><div class=\"author-bio\"><span class=\"author-name\">Sam "
                    "Wood</span> writes about cities and rivers for the paper.</div></div>" + para + "</body></html>")
                .authors,
            (std::vector<std::string>{"Sam Wood"}));
  EXPECT_EQ(meta_of("<html><body><p>By Alex Kim on March 3, 2021</p>" + para + "</body></html>").authors,
            (std::vector<std::string>{"Alex Kim"}));
  std::string thread = "<html><body><div class=\"thread\">";
  for (const char* poster : {"Ann One", "Bob Two", "Cy Three", "Di Four"})
    thread += std::string("<div class=\"post\"><span itemprop=\"author\">") + poster + "</span><p>A post.</p></div>";
  EXPECT_EQ(meta_of(thread + "</div></body></html>").authors, (std::vector<std::string>{"Ann One"}));
  EXPECT_TRUE(meta_of("<html><body><div class=\"author\">About the author</div>" + para + "</body></html>").authors.empty());
  // A class that opens with "comment" marks a commenter (WordPress's and
  // Blogger's "comment-author") or the comment form's name field: the
  // story's byline stays the only author.
  std::string commented = "<html><body><article><span class=\"author vcard\">Tom Reed</span>" + para + "</article>"
                          "<ol class=\"commentlist\">";
  for (const char* commenter : {"Alice Grey", "Brian Holt"})
    commented += std::string("<li class=\"comment\"><div class=\"comment-author vcard\"><span class=\"fn\">") +
                 commenter + "</span> said:</div><p>A reply.</p></li>";
  EXPECT_EQ(meta_of(commented + "</ol></body></html>").authors, (std::vector<std::string>{"Tom Reed"}));
  EXPECT_TRUE(meta_of("<html><body>" + para + "<form><p class=\"comment-form-author\"><label>Name *</label></p></form>"
                      "</body></html>").authors.empty());
}

TEST(Metadata, DatesAreChecked) {
  // Beyond tomorrow: refused; the URL's date is used instead.
  Metadata future = meta_of(
      "<html><head><meta property=\"article:published_time\" content=\"2031-01-01\"></head><body><p>x</p></body></html>",
      "https://n.example/2025/11/30/story");
  EXPECT_EQ(future.date_published, "2025-11-30");
  // Before 1990 from text: refused; from structured markup: the page says so.
  Metadata old_text = meta_of("<html><body><p>May 12, 1975</p><p>x</p></body></html>", "https://n.example/x");
  EXPECT_EQ(old_text.date_published, "");
  Metadata old_markup = meta_of(
      "<html><head><meta property=\"article:published_time\" content=\"1975-05-12\"></head><body><p>x</p></body></html>");
  EXPECT_EQ(old_markup.date_published, "1975-05-12");
}

TEST(Metadata, DateFormats) {
  EXPECT_EQ(parse_date("2024-05-12T10:00:00+0200"), "2024-05-12T10:00:00+02:00");
  EXPECT_EQ(parse_date("2024-05-12T10:00Z"), "2024-05-12T10:00:00Z");
  EXPECT_EQ(parse_date("2024/05/12"), "2024-05-12");
  EXPECT_EQ(parse_date("Published May 12th, 2024"), "2024-05-12");
  EXPECT_EQ(parse_date("12 May 2024"), "2024-05-12");
  EXPECT_EQ(parse_date("12. März 2024"), "2024-03-12");
  EXPECT_EQ(parse_date("3 juin 2024"), "2024-06-03");
  // Month names in capitals, lower-cased by Unicode's rules, not ASCII's.
  EXPECT_EQ(parse_date("12 FÉVRIER 2024"), "2024-02-12");
  EXPECT_EQ(parse_date("3 DÉC. 2023"), "2023-12-03");
  EXPECT_EQ(parse_date("1. MÄRZ 2024"), "2024-03-01");
  EXPECT_EQ(parse_date("5 de julio de 2023"), "2023-07-05");
  // The names are ICU's (CLDR), wide and abbreviated: a word is one of
  // them or the start of a wide one, so a word that merely begins like a
  // month is not one.
  EXPECT_EQ(parse_date("12 Sept 2024"), "2024-09-12");
  EXPECT_EQ(parse_date("3 févr. 2021"), "2021-02-03");
  EXPECT_EQ(parse_date("1 juil. 2019"), "2019-07-01");
  EXPECT_EQ(parse_date("12 août 2020"), "2020-08-12");
  EXPECT_EQ(parse_date("5 mrt 2020"), "2020-03-05");
  EXPECT_EQ(parse_date("7 settembre 2022"), "2022-09-07");
  EXPECT_EQ(parse_date("Marathon 12 2024"), "");
  // Every form has a year of four ASCII digits; without them no pattern
  // runs (two-digit years, Arabic-Indic digits).
  EXPECT_EQ(parse_date("12 May 24"), "");
  EXPECT_EQ(parse_date("12.05.24 10:00"), "");
  EXPECT_EQ(parse_date("١٢ مايو ٢٠٢٤"), "");
  EXPECT_EQ(parse_date("on 12 May 2024, 10:00"), "2024-05-12");
  EXPECT_EQ(parse_date("3 augusta 2020"), "");
  EXPECT_EQ(parse_date("12.05.2024"), "2024-05-12");
  EXPECT_EQ(parse_date("25/12/2024"), "2024-12-25");
  EXPECT_EQ(parse_date("12/25/2024"), "2024-12-25");
  EXPECT_EQ(parse_date("05/06/2024"), "");  // which is the month?
  EXPECT_EQ(parse_date("2023-02-29"), "");  // no such day
  EXPECT_EQ(parse_date("no date here"), "");
}

TEST(Metadata, HeadlineNotSiteName) {
  // Each case: the page, its URL (nullptr: a story's on news.example) and
  // the headline.
  struct Case {
    const char* html;
    const char* url;
    const char* title;
  };
  const Case cases[] = {
      // A date and time set inside the <h1> after the story are no part of
      // it; a date alone names an issue of a series and stays.
      {"<html><head><title>Site ::: Train derails in the east / 06.01.12</title></head><body>"
       "<h1>Train derails in the east&nbsp;<span> 06.01.12&nbsp;08:49</span></h1><p>x</p></body></html>",
       nullptr, "Train derails in the east"},
      {"<html><head><title>Weekly Wrap-Up 12/19/2025 | Blog</title></head><body>"
       "<h1>Weekly Wrap-Up 12/19/2025</h1><p>x</p></body></html>",
       nullptr, "Weekly Wrap-Up 12/19/2025"},
      // An <h1>'s <small> is its subtitle; with the stamp after it left out
      // too, the headline is the part the <title> writes first.
      {"<html><head><title>Site ::: Train derails in the east / Two cars left the track / 06.01.12</title></head>"
       "<body><h1>Train derails in the east<br><small>Two cars left the track</small>&nbsp;<span> "
       "06.01.12&nbsp;08:49</span></h1><p>x</p></body></html>",
       nullptr, "Train derails in the east"},
      // An article's title that opens with the site's domain and a colon.
      {"<html><head><title>allAfrica.com: Gambia: One-Third of Infections Are Among the Young</title></head>"
       "<body><p>x</p></body></html>",
       nullptr, "Gambia: One-Third of Infections Are Among the Young"},
      // The <h1> the <title> repeats, not the logo's <h1>.
      {"<html><head><title>Rivers rise again | Daily Planet</title></head><body><h1>Daily Planet</h1>"
       "<h1>Rivers rise again</h1><p>x</p></body></html>",
       nullptr, "Rivers rise again"},
      // No <h1>: the title without the site's name.
      {"<html><head><title>Quiet streets - Town News</title></head><body><p>x</p></body></html>",
       nullptr, "Quiet streets"},
      // A template's unknown tag in <head> ends the head: the parser puts the
      // <title> after it into <body>, and it is still the document's title.
      {"<html><head><meta charset=\"utf-8\"><TEMPLATE_TAG_TITLE><title>Quiet streets - Town News</title>"
       "</TEMPLATE_TAG_TITLE></head><body><p>x</p><svg><title>An icon</title></svg></body></html>",
       nullptr, "Quiet streets"},
      {"<html><head><title>Quiet streets - Town News</title></head><body><p>x</p>"
       "<title>Another title</title></body></html>",
       nullptr, "Quiet streets"},
      // A front page whose every title is the site's name is titled by it,
      // not left without a title.
      {"<html><head><title>Daily Planet</title><meta property=\"og:site_name\" content=\"Daily Planet\">"
       "<meta property=\"og:title\" content=\"Daily Planet\"></head><body><h1>Daily Planet</h1>"
       "<p>Rivers rise again in the north, and the town's bridges close.</p></body></html>",
       "https://planet.example/", "Daily Planet"},
      // Where no heading names the story, a title that parts the site off
      // with a spaced bar is read by its bars: a dash inside a part is the
      // headline's own; a domain and a dash before the story are the site's.
      {"<html><head><title>Grypa – co musisz o niej wiedzieć | Zdrowiutko.info - żyj zdrowo bez chorób!</title>"
       "</head><body><p>Grypa to choroba zakaźna.</p></body></html>",
       "http://www.zdrowiutko.info/grypa", "Grypa – co musisz o niej wiedzieć"},
      {"<html><head><title>Sound Stage | SoundStage.com - The Five Best Noise-Canceling Headphones</title>"
       "</head><body><p>We tried forty pairs.</p></body></html>",
       "https://www.soundstage.com/features/", "The Five Best Noise-Canceling Headphones"},
      // A dialog's heading (a cookie notice) is never the page's.
      {"<html><head><title>Daily Planet</title><meta property=\"og:site_name\" content=\"Daily Planet\"></head>"
       "<body><div role=\"dialog\" aria-labelledby=\"c\"><h1 id=\"c\">Your choice regarding cookies on this site</h1>"
       "<p>We use cookies to give you the best possible experience of this site.</p></div>"
       "<h1>Rivers rise again in the north</h1><p>The rivers of the north rose again this week, and the town "
       "closed its two bridges for the second time this winter.</p></body></html>",
       "https://planet.example/2012/rivers", "Rivers rise again in the north"},
      {"<html><head><title>Daily Planet</title><meta property=\"og:site_name\" content=\"Daily Planet\"></head>"
       "<body><div aria-modal=\"true\"><h1>Choose your region</h1></div>"
       "<h1>Rivers rise again in the north</h1><p>The rivers of the north rose again this week, and the town "
       "closed its two bridges for the second time this winter.</p></body></html>",
       "https://planet.example/2012/rivers", "Rivers rise again in the north"},
      // An <h1> that only names the host is the site's.
      {"<html><head><title>example.org Notes</title></head><body><h1>example.org</h1><p>x</p></body></html>",
       "https://example.org/notes", "example.org Notes"},
      // A title part the page shows as a line of its own, where the <h1> is a
      // section's name.
      {"<html><head><title>DAILY PLANET : Rivers rise again in the north</title></head><body><h1>World news</h1>"
       "<div class=\"headline\">Rivers rise again in the north</div><p>The rivers rose.</p></body></html>",
       nullptr, "Rivers rise again in the north"},
      // A section's one-word <h1> in Cyrillic (16 bytes, 8 letters) is no
      // headline beside a story title, as "Health" is not; a Chinese <h1> of
      // five characters reads as one.
      {"<html><head><title>Стресс может вызвать сыпь у женщин - АиФ</title></head><body><h1>Здоровье</h1>"
       "<p>Учёные выяснили, что стресс может вызвать сыпь.</p></body></html>",
       nullptr, "Стресс может вызвать сыпь у женщин"},
      {"<html><head><title>Rivers rise again in the north - Daily Planet</title></head><body><h1>女主播视频</h1>"
       "<p>x</p></body></html>",
       nullptr, "女主播视频"},
      // Chinese titles set their separators without spaces; a range stays whole.
      {"<html><head><title>崔永元缺席中国慈善年会 为农民工主持春节晚会-崔永元-文娱频道</title></head>"
       "<body><p>x</p></body></html>",
       nullptr, "崔永元缺席中国慈善年会 为农民工主持春节晚会"},
      {"<html><head><title>报名人数已超去年同期10%_畅游_凤凰网</title></head><body><p>x</p></body></html>",
       nullptr, "报名人数已超去年同期10%"},
      {"<html><head><title>绿景控股净利1900万-2900万</title></head><body><p>x</p></body></html>",
       nullptr, "绿景控股净利1900万-2900万"},
      {"<html><head><title>拉斯韦加斯国际消费电子展四大看点-《财经网》</title></head><body><p>x</p></body></html>",
       nullptr, "拉斯韦加斯国际消费电子展四大看点"},
      // A <title> that ends with its <h1> puts the site first when the <h1> is
      // longer than the rest of a breadcrumb, or twice as long as the site's
      // part of two; a site's root shows its tagline, a short story stays the
      // story beside a long site name.
      {"<html><head><title>News - Health &amp; Business - Company calls a meeting on the twentieth</title></head>"
       "<body><h1>Company calls a meeting on the twentieth</h1><p>x</p></body></html>",
       nullptr, "Company calls a meeting on the twentieth"},
      {"<html><head><title>BBC News - Malt whisky breaks world record at auction</title></head>"
       "<body><h1>Malt whisky breaks world record at auction</h1><p>x</p></body></html>",
       "https://www.bbc.co.uk/news/uk-scotland-16520924", "Malt whisky breaks world record at auction"},
      {"<html><head><title>Hugging Face - The AI community building the future.</title></head>"
       "<body><h1>The AI community building the future.</h1><p>x</p></body></html>",
       "https://huggingface.co/", "Hugging Face"},
      {"<html><head><title>What Is Ownership? - The Rust Programming Language</title></head>"
       "<body><h1>The Rust Programming Language</h1><p>x</p></body></html>",
       "https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html", "What Is Ownership?"},
      // Without an <h1>, the last part of a title that puts the site first.
      {"<html><head><title>Hudsonhubtimes.com - Summa Akron City emergency department to open</title></head>"
       "<body><p>x</p></body></html>",
       nullptr, "Summa Akron City emergency department to open"},
      // The same of an og:title, which is read before the <title>.
      {"<html><head><title>Rynek zdrowia - Anglia: obiecująca szczepionka przeciwko HCV</title>"
       "<meta property=\"og:title\" content=\"Rynek zdrowia - Anglia: obiecująca szczepionka przeciwko HCV\">"
       "</head><body><p>x</p></body></html>",
       nullptr, "Anglia: obiecująca szczepionka przeciwko HCV"},
      // An <h1> that is nothing but a link to the site's root is the logo,
      // whatever the <title> repeats of it; a headline linked to its own page
      // stays the headline.
      {"<html><head><title>Rivers rise again - Notes - Harbour Blog</title></head><body>"
       "<h1> <a href=\"https://www.harbourtimes.example/\">Harbour Times</a> </h1>"
       "<h2>Rivers rise again in the north</h2><p>x</p></body></html>",
       nullptr, "Rivers rise again"},
      {"<html><head><title>Rivers rise again - Notes - Harbour Blog</title></head><body>"
       "<h1><a href=\"/\">Harbour Times</a></h1><h2>Rivers rise again in the north</h2><p>x</p></body></html>",
       nullptr, "Rivers rise again"},
      {"<html><head><title>Rivers rise again | Harbour Times</title></head><body>"
       "<h1><a href=\"https://www.harbourtimes.example/2012/01/rivers\">Rivers rise again</a></h1><p>x</p></body></html>",
       nullptr, "Rivers rise again"},
      // A Chinese headline outweighs the site's name by its characters, not
      // by its one or two \w runs: the <h1> the breadcrumb ends with is the
      // story, and so is the last of two parts a third longer than the first.
      {"<html><head><title>千龙网--千龙财富--洋化妆品关税下调逆市涨价 洋奶粉按兵不动</title></head><body>"
       "<h1>洋化妆品关税下调逆市涨价 洋奶粉按兵不动</h1><p>x</p></body></html>",
       nullptr, "洋化妆品关税下调逆市涨价 洋奶粉按兵不动"},
      {"<html><head><title>自由電子報 - 流感再奪2命 累計20死</title></head><body><p>x</p></body></html>",
       nullptr, "流感再奪2命 累計20死"},
      // An <h1> that is a later, shorter part of the <title> names its
      // section; a first part that is shorter names the page.
      {"<html><head><title>Rivers rise again in the north | World | Daily Planet</title></head><body><h1>World</h1>"
       "<h2>Rivers rise again in the north</h2><p>x</p></body></html>",
       nullptr, "Rivers rise again in the north"},
      {"<html><head><title>Flexbox - Learn web development | MDN</title></head><body><h1>Flexbox</h1><p>x</p></body></html>",
       nullptr, "Flexbox"},
      // The same in capitals (words compare in Unicode's lower case), and a
      // section's <h1> among the words of such a part (a list of sections).
      {"<html><head><title>Η αλήθεια για τα κρούσματα ελονοσίας | κοινωνια | ethnos.gr</title>"
       "<meta property=\"og:title\" content=\"ethnos.gr - ΚΟΙΝΩΝΙΑ - Η αλήθεια για τα κρούσματα ελονοσίας\"></head><body>"
       "<h1>ΚΟΙΝΩΝΙΑ</h1><h1>Η αλήθεια για τα κρούσματα ελονοσίας</h1><p>x</p></body></html>",
       nullptr, "Η αλήθεια για τα κρούσματα ελονοσίας"},
      {"<html><head><title>Rivers rise again in the north | Inserts, Health, Front page | Daily Planet</title></head>"
       "<body><h1>Front page</h1><h1>Rivers rise again in the north</h1><p>x</p></body></html>",
       nullptr, "Rivers rise again in the north"},
      // What follows a spaced bar in an <h1> is a tagline or the site's name
      // when it is the shorter side; a dash is a headline's own punctuation.
      {"<html><head><title>Catering Tips | Cookshack</title></head><body><h1>Catering Tips | Cookshack</h1><p>x</p></body></html>",
       nullptr, "Catering Tips"},
      {"<html><head><title>Milan Design Week 2018 | Light installation for a jeweller at the Palazzo</title></head>"
       "<body><h1>Milan Design Week 2018 | Light installation for a jeweller at the Palazzo</h1><p>x</p></body></html>",
       nullptr, "Milan Design Week 2018 | Light installation for a jeweller at the Palazzo"},
      {"<html><head><title>2 года – лучшая разница между детьми</title></head><body><h1>2 года – лучшая разница между детьми</h1>"
       "<p>x</p></body></html>",
       nullptr, "2 года – лучшая разница между детьми"},
      // A French title's spaced colon stays where the page does not show a part alone.
      {"<html><head><title>Santé : les hôpitaux ferment</title></head><body><p>x</p></body></html>",
       nullptr, "Santé : les hôpitaux ferment"},
      // A permalink mark in the <h1> (Sphinx's and MkDocs' "¶", an icon
      // font's private-use glyph) is not a word of the headline; a link
      // with words is.
      {"<html><head><title>Models &#8212; Django 5.1 documentation</title></head><body><h1>Models<a class=\"headerlink\" "
       "href=\"#models\" title=\"Link to this heading\">\u00b6</a></h1><p>x</p></body></html>",
       nullptr, "Models"},
      {"<html><head><title>Ansible playbooks</title></head><body><h1>Ansible playbooks<a href=\"#playbooks\">"
       "\uf0c1</a></h1><p>x</p></body></html>",
       nullptr, "Ansible playbooks"},
      {"<html><head><title>Tides rise in the north | Coast News</title></head><body><h1><a href=\"/tides\">Tides</a> rise "
       "in the north <a href=\"#c\">#</a></h1><p>x</p></body></html>",
       nullptr, "Tides rise in the north"},
      // The whole <title> shown as a line of its own, under the site's <h1>.
      {"<html><head><title>Planes fly lower - a change of course</title></head><body><h1>World Press Review</h1>"
       "<h2>Planes fly lower - a change of course</h2><p>The planes flew lower.</p></body></html>",
       nullptr, "Planes fly lower - a change of course"},
      // A full-width colon parts a site's name from a story in a title
      // written without spaces, as " : " does in one with spaces.
      {"<html><head><title>中國評論新聞：福州某醫院稱看病滿2000元就送火車票</title></head><body><h1>中國評論新聞網</h1>"
       "<div class=\"headline\">福州某醫院稱看病滿2000元就送火車票</div><p>x</p></body></html>",
       nullptr, "福州某醫院稱看病滿2000元就送火車票"},
      // So does ": " where the page shows what follows it (a blog's
      // "Blog Name: Story", its <h1> the blog's); a headline shown whole
      // keeps its colon.
      {"<html><head><title>My Garden Diary: Planting tomatoes in January</title></head><body><h1><a href=\"/\">My "
       "Garden Diary</a></h1><h3 class=\"post-title\">Planting tomatoes in January</h3><p>x</p></body></html>",
       nullptr, "Planting tomatoes in January"},
      {"<html><head><title>Gambia: Floods close the ferry | Daily Planet</title></head><body><h2>Gambia: Floods close "
       "the ferry</h2><h3>Floods close the ferry</h3><p>x</p></body></html>",
       nullptr, "Gambia: Floods close the ferry"},
      // Of two title parts the page shows as lines, the longer: the shorter
      // is its section's name over the column.
      {"<html><head><title>Rivers rise in the north | Health and Science News | Daily Planet</title></head><body>"
       "<div class=\"section\">Health and Science News</div><h2>Rivers rise in the north</h2><p>x</p></body></html>",
       nullptr, "Rivers rise in the north"},
      // A button in the <h1> is an action, not a word of the headline.
      {"<html><head><title>Crate tokio - Rust</title></head><body><h1>Crate <span>tokio</span><button id=\"copy-path\" "
       "title=\"Copy item path to clipboard\">Copy item path</button></h1><p>x</p></body></html>",
       nullptr, "Crate tokio"},
      // The same where the headline is the <h1>'s block, marks around it.
      {"<html><head><title>Tides | Coast News</title></head><body><h1><a href=\"#c\">#</a> Tides rise in the north "
       "<a href=\"#c\">\u00b6</a></h1><p>x</p></body></html>",
       nullptr, "Tides rise in the north"},
  };
  for (const Case& c : cases)
    EXPECT_EQ((c.url != nullptr ? meta_of(c.html, c.url) : meta_of(c.html)).title, c.title) << c.html;
}

// A service's landing page: its <h1> is a slogan, its <title> names the
// page. Typed as an article, the same page's <h1> is the headline; an <h1>
// the <title> repeats is the headline on both.
TEST(Metadata, ServicePageTitleNotItsSlogan) {
  const std::string landing =
      "<html><head><title>Best Resume Writing Service | Professional Resume Writers | TopResume</title></head>"
      "<body><h1>Land your next job faster</h1><p>Our writers know what recruiters read.</p></body></html>";
  Blocks blocks = test::blocks_of(landing);
  const std::vector<uint8_t> keep(blocks.blocks.size(), 1);
  const std::string url = "https://resume.example/services";
  Metadata service = extract_metadata(blocks, keep, url, {}, "service");
  EXPECT_EQ(service.title, "Best Resume Writing Service");
  ASSERT_FALSE(service.sources.empty());
  EXPECT_NE(service.sources[0].second.find("service page"), std::string::npos) << service.sources[0].second;
  EXPECT_EQ(extract_metadata(blocks, keep, url, {}, "article").title, "Land your next job faster");
  EXPECT_EQ(extract_metadata(blocks, keep, url).title, "Land your next job faster");
  Blocks repeated = test::blocks_of(
      "<html><head><title>Data Analytics Services | Acme</title></head><body><h1>Data Analytics Services</h1>"
      "<p>x</p></body></html>");
  EXPECT_EQ(extract_metadata(repeated, std::vector<uint8_t>(repeated.blocks.size(), 1), url, {}, "service").title,
            "Data Analytics Services");
}

// A microdata author item is read by its name, not by all its text: a
// forum's post header holds the avatar's initial, the member's title and
// badges beside the name; a person's employer has a name of its own; an
// organization named only in a <meta> inside it is no byline.
TEST(Metadata, MicrodataAuthorItemByItsName) {
  const std::string person = "<div itemprop=\"author\" itemscope itemtype=\"https://schema.org/Person\">";
  // Each case: the article's markup, the author it names.
  const std::pair<std::string, const char*> cases[] = {
      {person + "<span class=\"avatar\">S</span><h4><a href=\"/members/spikeymike.1/\"><span itemprop=\"name\">"
                "spikeymike</span></a></h4><h5 itemprop=\"jobTitle\">macrumors 6502</h5></div><p>My first post.</p>",
       "spikeymike"},
      {person + "<a href=\"/users/1/kumiko\">Kumiko</a><meta itemprop=\"name\" content=\"Kumiko\"><span>159</span>"
                "<span>1 silver badge</span></div><p>A question.</p>",
       "Kumiko"},
      {person + "<div itemprop=\"worksFor\" itemscope itemtype=\"https://schema.org/Organization\"><span itemprop="
                "\"name\">Acme Press</span></div><span itemprop=\"name\">Jane Roe</span></div><p>Text.</p>",
       "Jane Roe"},
      {"<p class=\"x\">By Elizabeth Gibney</p><p>Text of the story.</p><div itemprop=\"author\" itemscope "
       "itemtype=\"https://schema.org/Organization\"><meta itemprop=\"name\" content=\"Nature Editorial\"></div>",
       "Elizabeth Gibney"},
  };
  for (const auto& [article, author] : cases)
    EXPECT_EQ(meta_of("<html><body><article>" + article + "</article></body></html>").authors,
              (std::vector<std::string>{author}))
        << article;
}

TEST(Metadata, CanonicalAndDescription) {
  Metadata m = meta_of(R"(<html><head><link rel="canonical" href="/a/story.html?x=1">
      <meta name="description" content="What happened."></head><body><p>x</p></body></html>)");
  EXPECT_EQ(m.canonical_url, "https://news.example/a/story.html?x=1");
  EXPECT_EQ(m.description, "What happened.");
}

// RFC 3986 section 5.4's examples, base "http://a/b/c/d;p?q".
TEST(Url, ResolvesTheRfcExamples) {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> kCases[] = {
      {"g:h", "g:h"},           {"g", "http://a/b/c/g"},       {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"}, {"/g", "http://a/g"},          {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"}, {"g?y", "http://a/b/c/g?y"}, {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"}, {";x", "http://a/b/c/;x"},   {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},   {"./", "http://a/b/c/"},       {"..", "http://a/b/"},
      {"../", "http://a/b/"},   {"../g", "http://a/b/g"},      {"../..", "http://a/"},
      {"../../g", "http://a/g"}, {"../../../g", "http://a/g"}, {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},  {"g.", "http://a/b/c/g."},     {"g/../h", "http://a/b/c/h"},
      {"./g/.", "http://a/b/c/g/"}, {"g;x=1/../y", "http://a/b/c/y"}};
  for (const auto& [ref, want] : kCases) EXPECT_EQ(resolve_url(base, ref), want) << ref;
  EXPECT_EQ(resolve_url("", "/x"), "/x");  // no base: as written
}

TEST(Comments, LeftOutOfTheTextAndReturnedApart) {
  const std::string page =
      "<html><head><meta property=\"og:type\" content=\"article\">"
      "<link rel=\"canonical\" href=\"https://blog.example/2025/01/02/story.html\"><script type=\"application/ld+json\">"
      "{\"@type\":\"BlogPosting\",\"headline\":\"Story\"}</script></head><body><article><h1>Story</h1>"
      "<p>The article body has many words in it so that it is the main content of this page.</p>"
      "<p>A second paragraph of the article carries on with more words about the story.</p></article>"
      "<section id=\"comments\"><h3>2 comments</h3>"
      "<div class=\"comment\"><p>Great piece, I agree with every single word of it.</p></div>"
      "<div class=\"comment\"><p>I disagree with the second paragraph entirely.</p></div>"
      "<form><p>Leave a reply</p></form></section></body></html>";
  ProcessorOptions options;
  options.extractor = "fulltext";
  options.comments = true;
  // The page's own URL (the features read the one it declares) says it is
  // a dated blog post.
  PageResult r = Processor::make(options)->process("https://blog.example/2025/01/02/story.html", page);
  ASSERT_EQ(r.page_type, "article");
  EXPECT_NE(r.text.find("The article body"), std::string::npos);
  EXPECT_EQ(r.text.find("Great piece"), std::string::npos) << r.text;
  EXPECT_EQ(r.comments, "2 comments\n\nGreat piece, I agree with every single word of it.\n\n"
                        "I disagree with the second paragraph entirely.");
  // A thread longer than the article is still the comments, also when its
  // comments are not named one by one: only a section holding nearly all
  // the kept text is the page itself.
  std::string thread;
  for (int i = 0; i < 4; ++i)
    thread += "<div class=\"entry\"><p>Reader " + std::to_string(i) +
              " writes at length about the story, with many more words than the article itself holds, "
              "so that the thread outweighs it.</p></div>";
  PageResult long_thread = Processor::make(options)->process(
      "https://blog.example/2025/01/02/story.html",
      page.substr(0, page.find("<section")) + "<section id=\"comments\">" + thread + "</section></body></html>");
  ASSERT_EQ(long_thread.page_type, "article");
  EXPECT_NE(long_thread.text.find("The article body"), std::string::npos);
  EXPECT_EQ(long_thread.text.find("Reader"), std::string::npos) << long_thread.text;
  // A page-wide class that names comments does not empty the page.
  PageResult whole = Processor::make(options)->process(
      "https://blog.example/q", "<html><body class=\"comments-open\"><div class=\"comments-open\"><p>" +
                                    std::string(200, 'a') + " words</p></div></body></html>");
  EXPECT_FALSE(whole.text.empty());
}

// A processor that keeps every block (fulltext) and returns the comments,
// and a news article's URL and head: on a forum the posts are the content
// and no section is taken out.
Result<Processor> comment_processor() {
  ProcessorOptions options;
  options.extractor = "fulltext";
  options.comments = true;
  return Processor::make(options);
}
constexpr const char* kStoryUrl = "https://n.example/2025/01/02/story.html";
constexpr const char* kStoryHead =
    "<head><meta property=\"og:type\" content=\"article\"><link rel=\"canonical\" "
    "href=\"https://n.example/2025/01/02/story.html\">";

// The comment section is named by the extraction vocabulary's comment
// family, in the languages it lists, when a class or id value opens with
// the word; a word inside a longer value (a live report's entries,
// testimonials) and "commentary" stay content.
TEST(Comments, NamedInTheVocabularysLanguagesNotInsideLongerValues) {
  Result<Processor> processor = comment_processor();
  ASSERT_TRUE(processor.ok());
  const std::string url = kStoryUrl;
  const std::string article =
      std::string(kStoryHead) +
      "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"headline\":\"Story\"}</script></head>"
      "<article><h1>Story</h1><p>The article body has many words in it so that it is the main content of this "
      "page, and a second sentence carries on with more words about the story.</p></article>";
  for (const char* section : {"kommentare", "komentarze-lista", "pinglun_box", "commentaires", "respond"}) {
    PageResult r = processor->process(url, "<html>" + article + "<body><div class=\"" + section +
                                                                  "\"><p>Reader opinion that is not the article.</p>"
                                                                  "</div></body></html>");
    ASSERT_EQ(r.page_type, "article");
    EXPECT_EQ(r.text.find("Reader opinion"), std::string::npos) << section << ": " << r.text;
    EXPECT_EQ(r.comments, "Reader opinion that is not the article.") << section;
  }
  for (const char* content : {"live-match-comment", "testimonials-comments", "commentary"}) {
    PageResult r = processor->process(url, "<html>" + article + "<body><div class=\"" + content +
                                                                  "\"><p>Words that belong to the page.</p>"
                                                                  "</div></body></html>");
    EXPECT_NE(r.text.find("Words that belong to the page."), std::string::npos) << content << ": " << r.text;
  }
}

// A thread whose markup names nothing is opened by its heading: the
// heading's parent from the heading on is the comment section. A heading
// is the word alone, with at most a count; a longer line or one inside a
// sentence is text.
TEST(Comments, OpenedByAHeadingWhoseMarkupNamesNothing) {
  const std::vector<std::string>& headings = default_extract_config().vocabulary.comment_headings;
  for (const char* heading : {"Comments", "3 Comments", "Comments (12)", "KOMMENTARE:", "Komentarze [5]",
                              "Комментарии", "12 комментариев", "评论", "Σχόλια"})
    EXPECT_TRUE(is_comment_heading(heading, headings)) << heading;
  for (const char* text : {"Comment", "No comments yet", "Comments are closed", "comments 3 4", "Commentary",
                           "Readers' comments on the vote", ""})
    EXPECT_FALSE(is_comment_heading(text, headings)) << text;
  Result<Processor> processor = comment_processor();
  ASSERT_TRUE(processor.ok());
  const std::string url = kStoryUrl;
  const std::string head =
      "<html>" + std::string(kStoryHead) + "</head><body><div class=\"wrap\"><h1>Story</h1>"
      "<p>The article body has many words in it so that it is the main content of this page, and a second "
      "sentence carries on with more words about the story.</p>";
  PageResult r = processor->process(url, head + "<h3>4 Comments</h3><div><p>First reader writes here.</p></div>"
                                                "<div><p>Second reader answers.</p></div></div></body></html>");
  ASSERT_EQ(r.page_type, "article");
  EXPECT_NE(r.text.find("The article body"), std::string::npos);
  EXPECT_EQ(r.text.find("reader"), std::string::npos) << r.text;
  EXPECT_EQ(r.comments, "4 Comments\n\nFirst reader writes here.\n\nSecond reader answers.");
  // The same lines under another heading stay text.
  PageResult other = processor->process(url, head + "<h3>Background</h3><div><p>First reader writes here.</p></div>"
                                                    "</div></body></html>");
  EXPECT_NE(other.text.find("First reader writes here."), std::string::npos) << other.text;
}

// A blog post with a long reply thread in WordPress's default markup (an
// author line, a "said:" and a reply link per reply): the classifier takes
// it for a forum, whose posts would be content; the story's shape with the
// comment section set aside decides it an article (settle_commented).
TEST(Comments, ABlogsReplyThreadIsItsCommentsNotAForum) {
  const std::string page = test::blog_post_with_replies(15);
  ProcessorOptions options;
  options.comments = true;
  Result<Processor> processor = Processor::make(options);
  ASSERT_TRUE(processor.ok());
  PageResult r = processor->process("", page);
  EXPECT_EQ(r.page_type, "article");
  EXPECT_NE(r.text.find("From Monday the number 12 bus"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("Thanks for explaining"), std::string::npos) << r.text;
  EXPECT_NE(r.comments.find("Thanks for explaining"), std::string::npos) << r.comments;
  EXPECT_EQ(r.metadata.authors, (std::vector<std::string>{"Tom"}));
}

}  // namespace
}  // namespace husk
