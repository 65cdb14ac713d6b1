#include "extract/features.h"

#include <re2/re2.h>
#include <re2/set.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "base/string_set.h"
#include "base/text_util.h"
#include "base/url.h"
#include "extract/vocabulary.h"
#include "html/structured.h"
#include "normalize/languages.h"

namespace husk {

namespace {

bool any_of(const std::vector<std::string>& types, std::initializer_list<std::string_view> wanted) {
  for (const std::string& t : types)
    for (std::string_view w : wanted)
      if (iequals(t, w)) return true;
  return false;
}

// An article type that is a story: schema.org's forum and social posts and
// its technical articles are articles too, but the discussion and docs
// columns stand for them.
bool is_story(uint32_t schema) {
  return (schema & kSchemaArticle) != 0 && (schema & (kSchemaDiscussion | kSchemaDocs)) == 0;
}

// ---- URL shapes ----

struct UrlShape {
  bool known = false, forum = false, product = false, collection = false, article = false, docs = false;
  int depth = 0;
};

// Path segments that name what a page is on sites of every kind (forum
// software, shop systems, blog engines, documentation generators).
UrlShape url_shape(std::string_view url) {
  UrlShape s;
  if (url.empty()) return s;
  s.known = true;
  std::string path = ascii_lower(split_url(url).path);
  std::vector<std::string_view> segments;
  for (std::size_t i = 0; i < path.size();) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) segments.push_back(std::string_view(path).substr(i, j - i));
    i = j + 1;
  }
  s.depth = static_cast<int>(segments.size());
  auto has = [&](std::initializer_list<std::string_view> names) {
    for (std::string_view seg : segments)
      for (std::string_view n : names)
        if (seg == n) return true;
    return false;
  };
  s.forum = has({"t", "thread", "threads", "topic", "topics", "forum", "forums", "questions", "discussion",
                 "discussions", "community", "comments", "d", "r", "showthread.php", "viewtopic.php"});
  s.product = has({"product", "products", "p", "dp", "item", "items", "pd", "pdp", "sku", "buy"});
  s.collection = has({"category", "categories", "collections", "collection", "c", "shop", "catalog", "catalogue",
                      "browse", "department", "b"});
  s.docs = has({"docs", "doc", "documentation", "api", "reference", "manual", "guide", "guides", "tutorial",
                "tutorials", "wiki", "learn", "kb", "help"});
  bool dated = false;
  for (std::string_view seg : segments)
    if (seg.size() == 4 && seg[0] == '2' && seg[1] == '0' && std::isdigit(static_cast<unsigned char>(seg[2])) &&
        std::isdigit(static_cast<unsigned char>(seg[3])))
      dated = true;
  s.article = dated || has({"blog", "news", "article", "articles", "post", "posts", "story", "stories"});
  return s;
}

// ---- text of a block ----

struct TextStats {
  float avg_word_len = 0, punct_per_word = 0, digit_ratio = 0, cap_ratio = 0;
  bool ends_sentence = false, price = false, year = false;
  // Characters (code points) and commas as Readability.js counts them: the
  // Latin one and the Arabic, ideographic, small and full-width forms.
  uint32_t chars = 0, commas = 0;
};

bool is_currency(UChar32 c) {
  return c == '$' || c == 0x20AC || c == 0xA3 || c == 0xA5 || c == 0x20B9 || c == 0x20BD || c == 0x20A9 || c == 0x20BA;
}

bool is_sentence_end(UChar32 c) {
  return c == '.' || c == '!' || c == '?' || c == 0x2026 || c == 0x3002 || c == 0xFF01 || c == 0xFF1F;
}

// The quotes and brackets that may close after a sentence's end.
bool is_closer(UChar32 c) {
  const int8_t type = u_charType(c);
  return c == '"' || c == '\'' || type == U_END_PUNCTUATION || type == U_FINAL_PUNCTUATION;
}

bool is_round_bracket(UChar32 c, bool open) { return open ? c == '(' || c == 0xFF08 : c == ')' || c == 0xFF09; }

TextStats text_stats(std::string_view text, const BlockFeatures& f) {
  TextStats s;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t n = static_cast<int32_t>(text.size());
  int32_t digits = 0, punct = 0, chars = 0, words = 0, caps = 0, run = 0;
  bool word_start = true, after_currency = false, after_digit = false;
  UChar32 last = 0;
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) continue;
    ++chars;
    if (c == ' ') {
      word_start = true;
      after_digit = false;
      run = 0;
      continue;
    }
    if (word_start) {
      ++words;
      if (u_isupper(c)) ++caps;
      word_start = false;
    }
    if (c >= '0' && c <= '9') {
      ++digits;
      ++run;
      if (after_currency) s.price = true;
      if (run == 4) {
        // A year of the last century or this one, standing alone.
        int32_t start = i - 4;
        bool bounded = i >= n || !std::isdigit(p[i]);
        if (bounded && (start == 0 || !std::isdigit(p[start - 1])) &&
            ((p[start] == '1' && p[start + 1] == '9') || (p[start] == '2' && p[start + 1] == '0')))
          s.year = true;
      }
      after_digit = true;
      after_currency = false;
    } else {
      run = 0;
      if (is_currency(c)) {
        if (after_digit) s.price = true;
        after_currency = true;
      } else {
        after_currency = false;
      }
      if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == 0x3002 || c == 0xFF0C) ++punct;
      if (c == ',' || c == 0x060C || c == 0x3001 || c == 0xFE50 || c == 0xFF0C) ++s.commas;
      after_digit = false;
    }
    last = c;
  }
  s.chars = static_cast<uint32_t>(chars);
  const float w = static_cast<float>(std::max<uint32_t>(1, f.words));
  s.avg_word_len = static_cast<float>(chars) / w;
  s.punct_per_word = static_cast<float>(punct) / w;
  s.digit_ratio = chars > 0 ? static_cast<float>(digits) / static_cast<float>(chars) : 0.0f;
  s.cap_ratio = words > 0 ? static_cast<float>(caps) / static_cast<float>(words) : 0.0f;
  s.ends_sentence = is_sentence_end(last);
  return s;
}

float log1p_f(double v) { return static_cast<float>(std::log1p(std::max(0.0, v))); }

// The block's words, lower-cased (full Unicode simple case mapping). Most
// words are ASCII: those are lowered byte by byte, and handed on as they
// stand when they hold no capital.
template <typename Each>
void each_lower_word(std::string_view text, Each&& each) {
  std::string word;
  const std::size_t size = text.size();
  for (std::size_t i = 0; i < size;) {
    while (i < size && text[i] == ' ') ++i;
    const std::size_t start = i;
    bool ascii = true, upper = false;
    for (; i < size && text[i] != ' '; ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      ascii &= c < 0x80;
      upper |= c >= 'A' && c <= 'Z';
    }
    if (i == start) break;
    const std::string_view w = text.substr(start, i - start);
    if (ascii && !upper) {
      each(w);
      continue;
    }
    if (ascii) {
      word.assign(w);
      for (char& c : word) c = ascii_lower_char(c);
      each(std::string_view(word));
      continue;
    }
    // Invalid UTF-8 separates words, as a space does.
    word.clear();
    const auto* p = reinterpret_cast<const uint8_t*>(w.data());
    const auto n = static_cast<int32_t>(w.size());
    for (int32_t k = 0; k < n;) {
      UChar32 c;
      U8_NEXT(p, k, n, c);
      if (c < 0) {
        if (!word.empty()) each(std::string_view(word));
        word.clear();
        continue;
      }
      c = u_tolower(c);
      char buf[4];
      int32_t len = 0;
      UBool error = false;
      U8_APPEND(reinterpret_cast<uint8_t*>(buf), len, 4, c, error);
      if (!error) word.append(buf, static_cast<std::size_t>(len));
    }
    if (!word.empty()) each(std::string_view(word));
  }
}

// A word without the ASCII punctuation around it, for title overlap.
std::string_view bare_word(std::string_view w) {
  while (!w.empty() && static_cast<unsigned char>(w.back()) < 0x80 && !std::isalnum(static_cast<unsigned char>(w.back())))
    w.remove_suffix(1);
  while (!w.empty() && static_cast<unsigned char>(w.front()) < 0x80 && !std::isalnum(static_cast<unsigned char>(w.front())))
    w.remove_prefix(1);
  return w;
}

// The words of the page's <title>, og:title and first <h1>, each bare; with
// kPieces also the pieces a separator joins in a word. A script written
// without spaces joins the headline to the site's name with no space around
// the separator ("成都12只大熊猫幼仔开始群体生活-中新网", "...减半_车市_天津站_
// 凤凰网"), so without its pieces the headline's last word is not the
// title's. The title_overlap column reads whole words: read by pieces it
// redrew the block model's trees for the worse (cross-validated by domain,
// seeds 1 and 2: the article-extraction-benchmark 0.9690 -> 0.9655 and
// 0.9708 -> 0.9640; docs/evaluation.md, "Headlines by the title's pieces").
enum class TitlePieces : uint8_t { kWhole, kPieces };
constexpr std::string_view kTitleSeparators = "-_|";

// Calls f with each piece, bare, that a separator joins in `w`; not at all
// when `w` holds no separator.
template <class F>
void each_title_piece(std::string_view w, F&& f) {
  if (w.find_first_of(kTitleSeparators) == std::string_view::npos) return;
  for (std::size_t at = 0; at <= w.size();) {
    const std::size_t end = std::min(w.find_first_of(kTitleSeparators, at), w.size());
    f(bare_word(w.substr(at, end - at)));
    at = end + 1;
  }
}

WordSet title_word_set(const Blocks& blocks, TitlePieces pieces) {
  WordSet words;
  for (const std::string* t : {&blocks.title_tag, &blocks.og_title, &blocks.first_h1})
    each_lower_word(*t, [&](std::string_view w) {
      w = bare_word(w);
      words.insert(w);
      if (pieces == TitlePieces::kPieces) each_title_piece(w, [&](std::string_view piece) { words.insert(piece); });
    });
  return words;
}

bool is_furniture_tag(Tag t) {
  return t == Tag::kNav || t == Tag::kAside || t == Tag::kFooter || t == Tag::kHeader || t == Tag::kForm ||
         t == Tag::kMenu;
}

// The fixed columns, in order, each an enumerator and its name written once;
// the families' two columns each follow. A model names the columns it was
// trained on, and the extractors refuse one whose names differ.
#define HUSK_FIXED_COLUMNS(X) \
  /* page */ \
  X(kPageWords, "page_words_log") \
  X(kPageBlocks, "page_blocks_log") \
  X(kPageLinkDensity, "page_link_density") \
  X(kPageMainShare, "page_main_share") \
  X(kPageDensityShare, "page_density_share") \
  X(kPageSchemaArticle, "page_schema_article") \
  X(kPageSchemaProduct, "page_schema_product") \
  X(kPageSchemaDiscussion, "page_schema_discussion") \
  X(kPageSchemaList, "page_schema_list") \
  X(kPageSchemaDocs, "page_schema_docs") \
  X(kPageSchemaOrganization, "page_schema_organization") \
  X(kPageOgArticle, "page_og_article") \
  X(kPageOgProduct, "page_og_product") \
  X(kPagePriceShare, "page_price_share") \
  X(kPagePreShare, "page_pre_share") \
  X(kPageListShare, "page_list_share") \
  X(kPageTableShare, "page_table_share") \
  X(kUrlKnown, "url_known") \
  X(kUrlDepth, "url_depth") \
  X(kUrlForum, "url_forum") \
  X(kUrlProduct, "url_product") \
  X(kUrlCollection, "url_collection") \
  X(kUrlArticle, "url_article") \
  X(kUrlDocs, "url_docs") \
  X(kPageCandidateShare, "page_candidate_share") \
  /* block */ \
  X(kWords, "words_log") \
  X(kLinkDensity, "link_density") \
  X(kTextDensity, "text_density") \
  X(kLocalLinkRatio, "local_link_ratio") \
  X(kAvgWordLen, "avg_word_len") \
  X(kEndsSentence, "ends_sentence") \
  X(kPunctPerWord, "punct_per_word") \
  X(kDigitRatio, "digit_ratio") \
  X(kCapRatio, "cap_ratio") \
  X(kHasPrice, "has_price") \
  X(kHasYear, "has_year") \
  X(kHeading, "heading") \
  X(kIsTitle, "is_title") \
  X(kDuplicates, "duplicates_log") \
  X(kPosition, "position") \
  X(kWordPosition, "word_position") \
  X(kTagP, "tag_p") \
  X(kTagLi, "tag_li") \
  X(kTagCell, "tag_cell") \
  X(kTagPre, "tag_pre") \
  X(kTagDl, "tag_dl") \
  X(kTagQuote, "tag_quote") \
  X(kTagCaption, "tag_caption") \
  X(kTagGeneric, "tag_generic") \
  X(kInForm, "in_form") \
  X(kInAddress, "in_address") \
  /* neighbours */ \
  X(kPrevWords, "prev_words_log") \
  X(kNextWords, "next_words_log") \
  X(kPrevLinkDensity, "prev_link_density") \
  X(kNextLinkDensity, "next_link_density") \
  X(kWindowLinkDensity, "window_link_density") \
  X(kWindowWords, "window_words_log") \
  /* structure */ \
  X(kDepth, "depth") \
  X(kInMain, "in_main") \
  X(kInFurniture, "in_furniture") \
  X(kInHeader, "in_header") \
  X(kInFooter, "in_footer") \
  X(kInNav, "in_nav") \
  X(kInAside, "in_aside") \
  X(kListDepth, "list_depth") \
  X(kInTable, "in_table") \
  X(kDensityKeep, "density_keep") \
  X(kParentLinkDensity, "parent_link_density") \
  X(kGrandparentLinkDensity, "grandparent_link_density") \
  X(kParentShare, "parent_share") \
  X(kParentBlocks, "parent_blocks_log") \
  X(kPathRepeat, "path_repeat_log") \
  X(kSameSiblings, "same_siblings_log") \
  X(kInSchemaArticle, "in_schema_article") \
  X(kInSchemaProduct, "in_schema_product") \
  X(kInSchemaReview, "in_schema_review") \
  X(kInSchemaComment, "in_schema_comment") \
  X(kInSchemaBreadcrumb, "in_schema_breadcrumb") \
  X(kInSchemaListItem, "in_schema_list_item") \
  X(kInArticleBody, "in_article_body") \
  X(kInDescription, "in_description") \
  X(kInAriaHidden, "in_aria_hidden") \
  X(kFromJsonLd, "from_json_ld") \
  /* more of the block */ \
  X(kStopwordRatio, "stopword_ratio") \
  X(kHasUrl, "has_url") \
  X(kTitleOverlap, "title_overlap") \
  X(kBeforeH1, "before_h1") \
  X(kH1Distance, "h1_distance") \
  X(kIsEndMarker, "is_end_marker") \
  X(kAfterEndMarker, "after_end_marker") \
  /* the repeated item it belongs to */ \
  X(kItemCount, "item_count_log") \
  X(kItemPosition, "item_position") \
  X(kItemWords, "item_words_log") \
  X(kItemLinkDensity, "item_link_density") \
  X(kItemDistance, "item_distance") \
  X(kItemFirstBlock, "item_first_block") \
  /* the article candidate it sits in */ \
  X(kInCandidate, "in_candidate") \
  X(kCandidateKeep, "candidate_keep") \
  X(kAncestorScore, "ancestor_score")

enum Col : std::size_t {
#define HUSK_COLUMN_ENUM(e, name) e,
  HUSK_FIXED_COLUMNS(HUSK_COLUMN_ENUM)
#undef HUSK_COLUMN_ENUM
  kFirstFamily,
};

constexpr const char* kFixedNames[] = {
#define HUSK_COLUMN_NAME(e, name) name,
    HUSK_FIXED_COLUMNS(HUSK_COLUMN_NAME)
#undef HUSK_COLUMN_NAME
};
static_assert(std::size(kFixedNames) == kFirstFamily, "a name for every fixed column");

bool is_token_separator(char c) { return c == ' ' || c == '-' || c == '_' || c == '\t' || c == '\n'; }

}  // namespace

// The families compiled: one RE2 set over every substring, a token map.
struct FeatureExtractor::Families {
  explicit Families(const Vocabulary& v) : vocabulary(v) {}
  CompiledVocabulary vocabulary;  // the end-of-article markers
  std::vector<std::string> names;
  RE2::Set substrings{RE2::Options(), RE2::UNANCHORED};
  std::vector<std::size_t> substring_family;  // pattern index -> family
  std::unordered_map<std::string, uint32_t> tokens;  // token -> family bits
  bool compiled = false;

  // Family bits of one element's class and id values.
  uint32_t classify(std::string_view hints) const {
    if (hints.empty()) return 0;
    uint32_t bits = 0;
    if (compiled) {
      std::vector<int> hit;
      if (substrings.Match(re2::StringPiece(hints.data(), hints.size()), &hit))
        for (int h : hit) bits |= 1u << substring_family[static_cast<std::size_t>(h)];
    }
    for (std::size_t i = 0; i < hints.size();) {
      while (i < hints.size() && is_token_separator(hints[i])) ++i;
      std::size_t start = i;
      while (i < hints.size() && !is_token_separator(hints[i])) ++i;
      if (i > start) {
        auto it = tokens.find(std::string(hints.substr(start, i - start)));
        if (it != tokens.end()) bits |= it->second;
      }
    }
    return bits;
  }
};

FeatureExtractor::FeatureExtractor(const ExtractConfig& config)
    : families_(std::make_unique<Families>(config.vocabulary)) {
  Families& f = *families_;
  RE2::Options options;
  options.set_log_errors(false);
  f.substrings = RE2::Set(options, RE2::UNANCHORED);
  for (std::size_t i = 0; i < config.families.size() && i < 32; ++i) {
    const HintFamily& family = config.families[i];
    f.names.push_back(family.name);
    for (const std::string& s : family.substrings)
      if (f.substrings.Add(RE2::QuoteMeta(s), nullptr) >= 0) f.substring_family.push_back(i);
    for (const std::string& t : family.tokens) f.tokens[t] |= 1u << i;
  }
  f.compiled = !f.substring_family.empty() && f.substrings.Compile();
  for (const char* name : kFixedNames) names_.emplace_back(name);
  for (const std::string& family : f.names) {
    names_.push_back("family_" + family + "_near");
    names_.push_back("family_" + family + "_share");
  }
  for (std::size_t c = 0; c < names_.size(); ++c) {
    if (c < kWords) {
      page_columns_.push_back(c);
    } else {
      block_columns_.push_back(c);
    }
  }
  max_columns_ = {kItemCount, kPathRepeat, kSameSiblings};
  for (std::size_t c : page_columns_) page_names_.push_back(names_[c]);
  for (std::size_t c : block_columns_) page_names_.push_back("mean_" + names_[c]);
  for (std::size_t c : max_columns_) page_names_.push_back("max_" + names_[c]);
}

std::vector<double> FeatureExtractor::block_words(const std::vector<float>& rows) const {
  const std::size_t cols = columns();
  std::vector<double> out;
  for (std::size_t at = kWords; cols > 0 && at < rows.size(); at += cols)
    out.push_back(std::round(std::expm1(static_cast<double>(rows[at]))));
  return out;
}

namespace {
// The article's shape. A headline is a heading of three words or more that
// is the page's <h1>, og:title or <title>, or of which these hold most of
// the words (a headline the title repeats with the site's name beside it);
// or a line of its own that is: at most 30 words, no sentence's end, under
// half of it links (pages of 2011-12 set their headline in a styled <div>
// or <b>, with no heading element).
constexpr float kHeadlineTitleShare = 0.7f;
constexpr double kHeadlineMinWords = 3;
constexpr double kHeadlineMaxWords = 30;
constexpr float kHeadlineMaxLinkDensity = 0.5f;
// A paragraph of prose (kProseMinWords, features.h): ended as a sentence
// ends (sentence_ends, features.h), at most a quarter of it link text (a
// teaser's lead is prose too, but a listing's items are headlines and
// links), not a heading.
constexpr float kProseMaxLinkDensity = 0.25f;
// The article's body follows its headline within a window of blocks
// (bylines, dates, share lines, a picture and its caption sit between) and
// ends at the next heading of the headline's level or above (its sections
// are headed a level below; a listing heads each item as it headed the
// first) or at the next heading that is a link (an article's sections are
// not links; a listing's items head with a link to their page) as long as
// a headline (kHeadlineMinWords): a linked label of one or two words is a
// box's inside the story ("криминал" over its related links) or a byline
// set as a heading ("CBC News"), not another story's headline. It is a
// story's length, 50 words (a short news item's: two or three sentences;
// on daniel-dev left out of training, docs/evaluation.md "An article stays
// an article", 50 and 30 score alike and 100 0.0023 lower: news portals
// carry many short items), and at least half of the page's prose: a
// listing's intro under its heading is shorter, and a page whose prose
// lies mostly elsewhere is not the headline's story.
constexpr float kHeadingLinkDensity = 0.5f;
constexpr std::size_t kBodyWindow = 60;
constexpr double kBodyMinWords = 50;
constexpr double kBodyMinShare = 0.5;
// A story is dated when a dateline (is_dateline, extract/furniture.h) stands
// within kDateWindow blocks of its headline, above it or below (a kicker
// and the date above, a byline, the date and share buttons below; three
// and ten blocks score as five on daniel-dev left out, seed 1). A
// dated story under its headline is news however short: an agency item of
// one or two sentences reaches 20 words (daniel-dev left out of training,
// seed 1, docs/evaluation.md "Dated stories": 10 and 20 score alike, 30
// 0.0008 lower).
constexpr std::size_t kDateWindow = 5;
constexpr double kDatedBodyMinWords = 20;
// A section's name the title repeats ("Headline - Section - Site") sits
// just above the story's headline, within the dateline's window: daniel-dev
// left out gains 0.002 at seeds 1 and 2 (docs/evaluation.md, "A section's
// name above the headline").
constexpr std::size_t kSectionWindow = 5;
// A news story may end with its reporter's or agency's name in brackets
// after the last sentence ("...美元美国国债。（高健）", "...on Monday. (Reuters)",
// "。（ｅｗ）"): up to kCreditMaxChars characters between the brackets. Read
// as a sentence's end by the shape's test alone: the block model's
// ends_sentence column read so (through closing quotes too) redrew its
// trees for the worse (cross-validated by domain, seed 1: daniel-dev
// 0.9413 -> 0.9372, the article-extraction-benchmark 0.9690 -> 0.9654;
// docs/evaluation.md, "A story's end, a title's pieces and a linked
// label").
constexpr int kCreditMaxChars = 12;

// Whether each piece a separator joins in `w` is one of `title`'s words:
// a headline that holds a separator itself ("净利1900万-2900万") is split in
// the title, where the site's name follows it with no space around.
bool all_pieces_in(std::string_view w, const WordSet& title) {
  bool pieces = false, all = true;
  each_title_piece(w, [&](std::string_view piece) {
    pieces = true;
    all = all && (piece.empty() || title.contains(piece));
  });
  return pieces && all;
}

}  // namespace

std::vector<uint8_t> title_headlines(const Blocks& blocks) {
  const WordSet title = title_word_set(blocks, TitlePieces::kPieces);
  std::vector<uint8_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) {
    uint32_t titled = 0, total = 0;
    each_lower_word(b.text, [&](std::string_view w) {
      ++total;
      w = bare_word(w);
      titled += title.contains(w) || all_pieces_in(w, title);
    });
    out.push_back(total > 0 && static_cast<float>(titled) >= kHeadlineTitleShare * static_cast<float>(total));
  }
  return out;
}

bool ends_sentence(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  int32_t at = static_cast<int32_t>(text.size());
  UChar32 c = 0;
  auto previous = [&] {
    while (at > 0) {
      U8_PREV(p, 0, at, c);
      if (c >= 0 && c != ' ') return true;
    }
    return false;
  };
  // The last character past the closing quotes and brackets; whether a
  // round bracket closed there.
  auto past_closers = [&](bool* bracket) {
    if (!previous()) return false;
    while (is_closer(c)) {
      if (bracket != nullptr && is_round_bracket(c, false)) *bracket = true;
      if (!previous()) return false;
    }
    return true;
  };
  bool bracket = false;
  if (!past_closers(&bracket)) return false;
  if (is_sentence_end(c)) return true;
  if (!bracket) return false;
  // A credit in round brackets: its opening bracket, then the sentence's
  // end before it.
  for (int chars = 0; !is_round_bracket(c, true); ++chars)
    if (chars == kCreditMaxChars || !previous()) return false;
  return past_closers(nullptr) && is_sentence_end(c);
}

std::vector<uint8_t> sentence_ends(const Blocks& blocks) {
  std::vector<uint8_t> out;
  out.reserve(blocks.blocks.size());
  for (const Block& b : blocks.blocks) out.push_back(ends_sentence(b.text));
  return out;
}

std::vector<uint8_t> aside_prose(std::vector<uint8_t> leads, const std::vector<uint8_t>& furniture) {
  leads.resize(std::max(leads.size(), furniture.size()), 0);
  for (std::size_t b = 0; b < furniture.size(); ++b) leads[b] |= furniture[b] != 0;
  return leads;
}

ArticleShape FeatureExtractor::article_shape(const std::vector<float>& rows, const std::vector<uint8_t>& aside,
                                              const std::vector<uint8_t>& datelines, const std::vector<uint8_t>& titled,
                                              const std::vector<uint8_t>& sentences) const {
  const std::size_t cols = columns();
  const std::size_t n = cols == 0 ? 0 : rows.size() / cols;
  auto words = [&](const float* r) { return std::expm1(static_cast<double>(r[kWords])); };
  auto prose = [&](std::size_t b) {
    const float* r = &rows[b * cols];
    const bool elsewhere = b < aside.size() && aside[b] != 0;
    const bool sentence = b < sentences.size() && sentences[b] != 0;
    return !elsewhere && r[kHeading] == 0 && sentence && r[kLinkDensity] < kProseMaxLinkDensity &&
                   words(r) >= kProseMinWords
               ? words(r)
               : 0.0;
  };
  auto headline_at = [&](std::size_t b) {
    const float* r = &rows[b * cols];
    if (words(r) < kHeadlineMinWords || (r[kIsTitle] == 0 && !(b < titled.size() && titled[b] != 0))) return false;
    return r[kHeading] > 0 ||
           (r[kEndsSentence] == 0 && r[kLinkDensity] < kHeadlineMaxLinkDensity && words(r) <= kHeadlineMaxWords);
  };
  std::size_t headline = n;
  double all = 0;
  for (std::size_t b = 0; b < n; ++b) {
    if (headline == n && headline_at(b)) headline = b;
    all += prose(b);
  }
  if (headline == n) return ArticleShape::kNone;
  // The site's name set as a linked heading over the page (a logo,
  // "<h1><a href='/'>Site</a></h1>", which the title names after the
  // headline) is no story's headline: a linked first headline gives way to
  // the next one the title names that is not a link. A blog's headline
  // linked to its own page, with none after it, stays.
  if (rows[headline * cols + kLinkDensity] >= kHeadingLinkDensity)
    for (std::size_t b = headline + 1; b < n; ++b)
      if (headline_at(b) && rows[b * cols + kLinkDensity] < kHeadingLinkDensity) {
        headline = b;
        break;
      }
  // A section's name the title repeats ("Headline - Section - Site") may
  // head the page just above the story's headline: a longer line the
  // title names within kSectionWindow blocks below is the headline.
  for (std::size_t b = headline + 1, first = headline; b < n && b <= first + kSectionWindow; ++b)
    if (headline_at(b) && words(&rows[b * cols]) > words(&rows[headline * cols])) headline = b;
  double body = 0;
  // A headline set as a line of its own has no level: only a linked
  // heading ends its body.
  const float level = rows[headline * cols + kHeading];
  for (std::size_t b = headline + 1; b < n && b <= headline + kBodyWindow; ++b) {
    const float* r = &rows[b * cols];
    const bool linked = r[kLinkDensity] >= kHeadingLinkDensity && words(r) >= kHeadlineMinWords;
    if (r[kHeading] > 0 && ((level > 0 && r[kHeading] <= level) || linked)) break;
    body += prose(b);
  }
  if (body < kBodyMinShare * all) return ArticleShape::kNone;
  bool dated = false;
  for (std::size_t b = headline >= kDateWindow ? headline - kDateWindow : 0;
       b < n && b < datelines.size() && b <= headline + kDateWindow && !dated; ++b)
    dated = datelines[b] != 0;
  if (dated && body >= kDatedBodyMinWords) return ArticleShape::kDatedStory;
  return body >= kBodyMinWords ? ArticleShape::kStory : ArticleShape::kNone;
}

FeatureExtractor::~FeatureExtractor() = default;

PageFeatures compute_page_features(const FeatureExtractor& features, const Extractor& density, const PageView& page) {
  PageFeatures out;
  out.density = density.extract(page);
  if (!page.blocks.blocks.empty()) out.rows = features.rows(page.blocks, out.density);
  return out;
}

std::vector<float> FeatureExtractor::page_row(const std::vector<float>& rows) const {
  const std::size_t cols = columns();
  const std::size_t n = cols == 0 ? 0 : rows.size() / cols;
  std::vector<float> out(page_names_.size(), 0.0f);
  if (n == 0) return out;
  std::size_t at = 0;
  for (std::size_t c : page_columns_) out[at++] = rows[c];
  double total = 0;
  std::vector<double> sums(block_columns_.size(), 0.0);
  std::vector<float> maxima(max_columns_.size(), 0.0f);
  for (std::size_t b = 0; b < n; ++b) {
    const float* r = &rows[b * cols];
    const double w = std::expm1(static_cast<double>(r[kWords]));
    total += w;
    for (std::size_t k = 0; k < block_columns_.size(); ++k) sums[k] += w * r[block_columns_[k]];
    for (std::size_t k = 0; k < max_columns_.size(); ++k) maxima[k] = std::max(maxima[k], r[max_columns_[k]]);
  }
  for (double sum : sums) out[at++] = total > 0 ? static_cast<float>(sum / total) : 0.0f;
  for (float m : maxima) out[at++] = m;
  return out;
}

std::vector<float> FeatureExtractor::rows(const Blocks& blocks, const Labels& density) const {
  const std::size_t cols = columns();
  const std::size_t n = blocks.blocks.size();
  const std::size_t families = families_->names.size();
  std::vector<float> x(n * cols, 0.0f);
  if (n == 0) return x;
  const auto& elements = blocks.elements;
  const std::size_t m = elements.size();

  // Prefix sums over blocks: words, link words, kept words, and the words
  // in lists, tables, pre and price blocks.
  std::vector<double> words(n + 1, 0), links(n + 1, 0);
  double total = 0, kept = 0, pre = 0, list = 0, table = 0, link_total = 0;
  std::size_t price_blocks = 0;
  std::vector<TextStats> stats;
  stats.reserve(n);
  std::unordered_map<std::string_view, uint32_t, StringHash> text_count;
  text_count.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Block& b = blocks.blocks[i];
    const BlockFeatures& f = b.features;
    words[i + 1] = words[i] + f.words;
    links[i + 1] = links[i] + f.link_words;
    total += f.words;
    link_total += f.link_words;
    if (i < density.keep.size() && density.keep[i]) kept += f.words;
    if (f.flags & kBlockPre) pre += f.words;
    if (f.flags & kBlockListItem) list += f.words;
    if (f.flags & kBlockTableCell) table += f.words;
    stats.push_back(text_stats(b.text, f));
    price_blocks += stats[i].price;
    ++text_count[b.text];
  }
  const double page_words = std::max(1.0, total);
  auto subtree_words = [&](uint32_t e) { return words[elements[e].end_block] - words[elements[e].first_block]; };
  auto subtree_ld = [&](uint32_t e) {
    double w = subtree_words(e);
    return w > 0 ? static_cast<float>((links[elements[e].end_block] - links[elements[e].first_block]) / w) : 0.0f;
  };

  // Per element, in pre-order (a parent comes before its children): the
  // nearest ancestor-or-self of each family and its distance, semantic and
  // furniture ancestry, class-free path repetition, schema.org scopes.
  constexpr uint16_t kFar = 0xFFFF;
  std::vector<uint16_t> near(m * families, kFar);
  std::vector<uint32_t> near_at(m * families, Element::kNone);
  std::vector<uint32_t> ancestry(m, 0);   // bits below
  std::vector<uint8_t> list_depth(m, 0);
  std::vector<uint64_t> path(m, 0);
  std::unordered_map<uint64_t, uint32_t> path_count;
  std::unordered_map<uint64_t, uint32_t> sibling_count;  // sibling_key -> children
  // An element's parent (0 for the root) and tag: the children of one
  // parent that share a tag share the key.
  auto sibling_key = [&](uint32_t e) {
    const Element& el = elements[e];
    return (static_cast<uint64_t>(el.parent == Element::kNone ? 0 : el.parent) << 16) ^ static_cast<uint64_t>(el.tag);
  };
  path_count.reserve(m);
  sibling_count.reserve(m);
  std::vector<uint32_t> ordinal(m, 0);                   // among its parent's children of its tag
  enum : uint32_t {
    kMain = 1, kFurniture = 2, kHeader = 4, kFooter = 8, kNav = 16, kAside = 32, kTable = 64, kMarkedArticle = 128,
    kMarkedProduct = 256, kMarkedReview = 512, kMarkedComment = 1024, kMarkedBreadcrumb = 2048,
    kMarkedListItem = 4096, kArticleBody = 8192, kDescription = 16384, kAriaHidden = 32768,
    kStructured = 65536,
  };
  std::unordered_map<std::string_view, uint32_t, StringHash> class_cache;
  std::vector<uint32_t> schema_classes_of;  // of each microdata type the page names
  for (const std::string& type : blocks.schema_types) schema_classes_of.push_back(schema_classes(type));
  double main_words = 0;
  for (uint32_t e = 0; e < m; ++e) {
    const Element& el = elements[e];
    const bool root = el.parent == Element::kNone;
    const uint32_t p = root ? 0 : el.parent;
    auto [cached, inserted] = class_cache.try_emplace(el.hints, 0);
    if (inserted) cached->second = families_->classify(el.hints);
    // <body>'s classes describe the page's state, not a region of it.
    const uint32_t bits = root ? 0 : cached->second;
    for (std::size_t f = 0; f < families; ++f) {
      if (bits & (1u << f)) {
        near[e * families + f] = 0;
        near_at[e * families + f] = e;
      } else if (!root && near[p * families + f] != kFar) {
        near[e * families + f] = static_cast<uint16_t>(std::min<int>(near[p * families + f] + 1, kFar - 1));
        near_at[e * families + f] = near_at[p * families + f];
      }
    }
    uint32_t a = root ? 0 : ancestry[p];
    const Tag t = el.tag;
    if (t == Tag::kArticle || t == Tag::kMain || (el.flags & (kElemArticleBody | kElemMainRole))) a |= kMain;
    if (is_furniture_tag(t) || (el.flags & kElemNavRole)) a |= kFurniture;
    if (t == Tag::kHeader) a |= kHeader;
    if (t == Tag::kFooter) a |= kFooter;
    if (t == Tag::kNav || (el.flags & kElemNavRole)) a |= kNav;
    if (t == Tag::kAside) a |= kAside;
    if (t == Tag::kTable) a |= kTable;
    if (el.flags & kElemArticleBody) a |= kArticleBody;
    if (el.flags & kElemDescription) a |= kDescription;
    if (el.flags & kElemAriaHidden) a |= kAriaHidden;
    if (el.flags & kElemStructured) a |= kStructured;
    if (el.schema != 0 && el.schema <= schema_classes_of.size()) {
      const uint32_t classes = schema_classes_of[el.schema - 1];
      if (is_story(classes) || (classes & kSchemaPagePart)) a |= kMarkedArticle;
      if (classes & (kSchemaProduct | kSchemaOffer)) a |= kMarkedProduct;
      if (classes & kSchemaReview) a |= kMarkedReview;
      if (classes & kSchemaDiscussion) a |= kMarkedComment;
      if (classes & kSchemaBreadcrumb) a |= kMarkedBreadcrumb;
      if (classes & (kSchemaItemList | kSchemaListItem)) a |= kMarkedListItem;
    }
    ancestry[e] = a;
    list_depth[e] = static_cast<uint8_t>(std::min<int>((root ? 0 : list_depth[p]) + (t == Tag::kUl || t == Tag::kOl), 255));
    path[e] = (root ? 0x9E3779B97F4A7C15ull : path[p] * 0x100000001B3ull) ^ (static_cast<uint64_t>(t) + 1);
    ++path_count[path[e]];
    ordinal[e] = sibling_count[sibling_key(e)]++;
    if ((a & kMain) && !(root ? 0 : (ancestry[p] & kMain))) main_words += subtree_words(e);
  }

  // The repeated item an element belongs to: its nearest ancestor-or-self
  // that has at least kItemSiblings siblings of its tag (cards of a grid,
  // posts of a thread, rows of a listing).
  constexpr uint32_t kItemSiblings = 3;
  auto siblings_of = [&](uint32_t e) { return sibling_count[sibling_key(e)]; };
  std::vector<uint32_t> item(m, Element::kNone);
  std::vector<uint16_t> item_distance(m, 0);
  for (uint32_t e = 0; e < m; ++e) {
    const Element& el = elements[e];
    if (el.parent != Element::kNone && siblings_of(e) >= kItemSiblings && el.end_block > el.first_block) {
      item[e] = e;
    } else if (el.parent != Element::kNone && item[el.parent] != Element::kNone) {
      item[e] = item[el.parent];
      item_distance[e] = static_cast<uint16_t>(std::min<int>(item_distance[el.parent] + 1, 0xFFFF));
    }
  }

  // The article candidate (Readability.js 0.6, grabArticle): each
  // paragraph of at least 25 characters scores 1, one per comma and one per
  // 100 characters (at most 3), and gives it to its ancestors, in full to
  // the first, half to the second, a third of it per level to the next
  // three. An element starts from its tag's weight; its score is scaled by
  // one less its link density, and the best is the candidate. Its siblings
  // that score at least a fifth of it (10 at least) join it. Readability
  // reaches 0.88 on news in five languages where husk's model, trained on
  // other kinds of pages, read teaser lists as content (daniel-dev's
  // README); these columns give the model that view of the page.
  std::vector<float> score(m, 0.0f);
  std::vector<uint8_t> scored(m, 0);
  auto tag_weight = [](Tag t) {
    switch (t) {
      case Tag::kDiv: return 5.0f;
      case Tag::kPre: case Tag::kTd: case Tag::kBlockquote: return 3.0f;
      case Tag::kAddress: case Tag::kOl: case Tag::kUl: case Tag::kDl: case Tag::kDd: case Tag::kDt:
      case Tag::kLi: case Tag::kForm: return -3.0f;
      case Tag::kH1: case Tag::kH2: case Tag::kH3: case Tag::kH4: case Tag::kH5: case Tag::kH6: case Tag::kTh:
        return -5.0f;
      default: return 0.0f;
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Block& b = blocks.blocks[i];
    if (b.features.heading != 0 || b.element >= m) continue;
    if (stats[i].chars < 25) continue;
    const float content =
        1.0f + static_cast<float>(stats[i].commas) + static_cast<float>(std::min<uint32_t>(stats[i].chars / 100, 3));
    uint32_t e = elements[b.element].parent;
    for (int level = 0; level < 5 && e != Element::kNone; ++level, e = elements[e].parent) {
      if (!scored[e]) {
        scored[e] = 1;
        score[e] = tag_weight(elements[e].tag);
      }
      score[e] += content / (level == 0 ? 1.0f : level == 1 ? 2.0f : static_cast<float>(level) * 3.0f);
    }
  }
  uint32_t candidate = Element::kNone;
  for (uint32_t e = 0; e < m; ++e) {
    if (!scored[e]) continue;
    score[e] *= 1.0f - subtree_ld(e);
    if (candidate == Element::kNone || score[e] > score[candidate]) candidate = e;
  }
  std::vector<float> ancestor_score(m, 0.0f);  // the best score on the way to the root, over the candidate's
  std::vector<uint8_t> joined(m, 0);            // the candidate, or a sibling that joins it
  if (candidate != Element::kNone && score[candidate] > 0) {
    const float best = score[candidate];
    const float bar = std::max(10.0f, best * 0.2f);
    const uint32_t parent = elements[candidate].parent;
    for (uint32_t e = 0; e < m; ++e) {
      const Element& el = elements[e];
      const bool root = el.parent == Element::kNone;
      ancestor_score[e] = std::max(root ? 0.0f : ancestor_score[el.parent], scored[e] ? score[e] / best : 0.0f);
      joined[e] = (!root && joined[el.parent]) || e == candidate ||
                  (parent != Element::kNone && el.parent == parent && scored[e] && score[e] >= bar);
    }
  }
  const double candidate_words = candidate == Element::kNone ? 0.0 : subtree_words(candidate);

  // The title's words, the first <h1> and the first end-of-article marker.
  const WordSet title_words = title_word_set(blocks, TitlePieces::kWhole);
  std::size_t h1 = n, end_marker = n;
  std::vector<uint8_t> marker(n, 0);
  const LanguageData& languages = language_data();
  for (std::size_t i = 0; i < n; ++i) {
    const BlockFeatures& f = blocks.blocks[i].features;
    if (h1 == n && f.heading == 1) h1 = i;
    if (f.words <= 6 && families_->vocabulary.is_end_marker(blocks.blocks[i].text)) {
      marker[i] = 1;
      if (end_marker == n) end_marker = i;
    }
  }

  // Page columns, the same on every row.
  std::vector<std::string> types = declared_types(blocks);
  // The URL the page declares (canonical, og:url), never the one it came
  // with: the same bytes give the same text with or without a URL (a
  // crawler's and a file's copy of a page alike), and the models were
  // trained on the declared one.
  const UrlShape shape = url_shape(declared_url(blocks));
  float page[kWords];
  page[kPageWords] = log1p_f(total);
  page[kPageBlocks] = log1p_f(static_cast<double>(n));
  page[kPageLinkDensity] = static_cast<float>(link_total / page_words);
  page[kPageMainShare] = static_cast<float>(std::min(1.0, main_words / page_words));
  page[kPageDensityShare] = static_cast<float>(kept / page_words);
  uint32_t declared = 0;
  bool story = false;
  for (const std::string& t : types) {
    if (t.starts_with("og:")) continue;  // OpenGraph's, below
    const uint32_t classes = schema_classes(t);
    declared |= classes;
    story = story || is_story(classes);
  }
  page[kPageSchemaArticle] = story;
  page[kPageSchemaProduct] = (declared & (kSchemaProduct | kSchemaOffer)) != 0;
  page[kPageSchemaDiscussion] = (declared & kSchemaDiscussion) != 0;
  page[kPageSchemaList] = (declared & (kSchemaItemList | kSchemaListingPage)) != 0;
  page[kPageSchemaDocs] = (declared & kSchemaDocs) != 0;
  page[kPageSchemaOrganization] = (declared & kSchemaOrganization) != 0;
  page[kPageOgArticle] = any_of(types, {"og:article"});
  page[kPageOgProduct] = any_of(types, {"og:product", "og:og:product", "og:product.item"});
  page[kPagePriceShare] = static_cast<float>(price_blocks) / static_cast<float>(n);
  page[kPagePreShare] = static_cast<float>(pre / page_words);
  page[kPageListShare] = static_cast<float>(list / page_words);
  page[kPageTableShare] = static_cast<float>(table / page_words);
  page[kUrlKnown] = shape.known;
  page[kUrlDepth] = static_cast<float>(shape.depth);
  page[kUrlForum] = shape.forum;
  page[kUrlProduct] = shape.product;
  page[kUrlCollection] = shape.collection;
  page[kUrlArticle] = shape.article;
  page[kUrlDocs] = shape.docs;
  page[kPageCandidateShare] = static_cast<float>(candidate_words / page_words);

  for (std::size_t i = 0; i < n; ++i) {
    float* r = x.data() + i * cols;
    std::copy(page, page + kWords, r);
    const Block& b = blocks.blocks[i];
    const BlockFeatures& f = b.features;
    const TextStats& ts = stats[i];
    r[kWords] = log1p_f(f.words);
    r[kLinkDensity] = f.link_density;
    r[kTextDensity] = f.text_density;
    r[kLocalLinkRatio] = f.words ? static_cast<float>(f.local_link_words) / static_cast<float>(f.words) : 0.0f;
    r[kAvgWordLen] = ts.avg_word_len;
    r[kEndsSentence] = ts.ends_sentence;
    r[kPunctPerWord] = ts.punct_per_word;
    r[kDigitRatio] = ts.digit_ratio;
    r[kCapRatio] = ts.cap_ratio;
    r[kHasPrice] = ts.price;
    r[kHasYear] = ts.year;
    r[kHeading] = f.heading;
    r[kIsTitle] = b.text == blocks.first_h1 || b.text == blocks.og_title || b.text == blocks.title_tag;
    r[kDuplicates] = log1p_f(text_count[b.text] - 1.0);
    r[kPosition] = static_cast<float>(i) / static_cast<float>(n);
    r[kWordPosition] = static_cast<float>(words[i] / page_words);
    const Tag t = f.tag;
    r[kTagP] = t == Tag::kP;
    r[kTagLi] = t == Tag::kLi;
    r[kTagCell] = t == Tag::kTd || t == Tag::kTh;
    r[kTagPre] = (f.flags & kBlockPre) != 0;
    r[kTagDl] = t == Tag::kDt || t == Tag::kDd || t == Tag::kDl;
    r[kTagQuote] = (f.flags & kBlockQuote) != 0;
    r[kTagCaption] = (f.flags & kBlockCaption) != 0;
    r[kTagGeneric] = t == Tag::kDiv || t == Tag::kSection || t == Tag::kSpan || t == Tag::kUnknown || t == Tag::kBody;
    r[kInForm] = (f.flags & kBlockForm) != 0;
    r[kInAddress] = (f.flags & kBlockAddress) != 0;
    // boilerpipe's context: the neighbours, and a window of three each side.
    const BlockFeatures* prev = i > 0 ? &blocks.blocks[i - 1].features : nullptr;
    const BlockFeatures* next = i + 1 < n ? &blocks.blocks[i + 1].features : nullptr;
    r[kPrevWords] = prev ? log1p_f(prev->words) : 0.0f;
    r[kNextWords] = next ? log1p_f(next->words) : 0.0f;
    r[kPrevLinkDensity] = prev ? prev->link_density : 1.0f;
    r[kNextLinkDensity] = next ? next->link_density : 1.0f;
    const std::size_t lo = i >= 3 ? i - 3 : 0, hi = std::min(n, i + 4);
    const double window_words = words[hi] - words[lo];
    r[kWindowLinkDensity] = window_words > 0 ? static_cast<float>((links[hi] - links[lo]) / window_words) : 0.0f;
    r[kWindowWords] = log1p_f(window_words);
    // Where the block sits.
    const uint32_t e = b.element < m ? b.element : 0;
    const Element& el = elements[e];
    const uint32_t a = ancestry[e];
    r[kDepth] = el.depth;
    r[kInMain] = (a & kMain) != 0;
    r[kInFurniture] = (a & kFurniture) != 0;
    r[kInHeader] = (a & kHeader) != 0;
    r[kInFooter] = (a & kFooter) != 0;
    r[kInNav] = (a & kNav) != 0;
    r[kInAside] = (a & kAside) != 0;
    r[kListDepth] = list_depth[e];
    r[kInTable] = (a & kTable) != 0;
    r[kDensityKeep] = i < density.keep.size() && density.keep[i];
    const uint32_t parent = el.parent == Element::kNone ? e : el.parent;
    const uint32_t grandparent = elements[parent].parent == Element::kNone ? parent : elements[parent].parent;
    r[kParentLinkDensity] = subtree_ld(parent);
    r[kGrandparentLinkDensity] = subtree_ld(grandparent);
    r[kParentShare] = static_cast<float>(subtree_words(parent) / page_words);
    r[kParentBlocks] = log1p_f(elements[parent].end_block - elements[parent].first_block);
    r[kPathRepeat] = log1p_f(path_count[path[e]] - 1.0);
    r[kSameSiblings] = log1p_f(siblings_of(e) - 1.0);
    r[kInSchemaArticle] = (a & kMarkedArticle) != 0;
    r[kInSchemaProduct] = (a & kMarkedProduct) != 0;
    r[kInSchemaReview] = (a & kMarkedReview) != 0;
    r[kInSchemaComment] = (a & kMarkedComment) != 0;
    r[kInSchemaBreadcrumb] = (a & kMarkedBreadcrumb) != 0;
    r[kInSchemaListItem] = (a & kMarkedListItem) != 0;
    r[kInArticleBody] = (a & kArticleBody) != 0;
    r[kInDescription] = (a & kDescription) != 0;
    r[kInAriaHidden] = (a & kAriaHidden) != 0;
    r[kFromJsonLd] = (a & kStructured) != 0;
    uint32_t stopwords = 0, titled = 0, total_words = 0;
    each_lower_word(b.text, [&](std::string_view w) {
      ++total_words;
      stopwords += languages.stopwords.contains(w);
      titled += title_words.contains(bare_word(w));
    });
    r[kStopwordRatio] = total_words ? static_cast<float>(stopwords) / static_cast<float>(total_words) : 0.0f;
    r[kHasUrl] = b.text.find("://") != std::string::npos || b.text.find("www.") != std::string::npos;
    r[kTitleOverlap] = total_words ? static_cast<float>(titled) / static_cast<float>(total_words) : 0.0f;
    r[kBeforeH1] = h1 < n && i < h1;
    r[kH1Distance] = h1 < n ? static_cast<float>(i > h1 ? i - h1 : h1 - i) / static_cast<float>(n) : 1.0f;
    r[kIsEndMarker] = marker[i];
    r[kAfterEndMarker] = end_marker < n && i > end_marker;
    if (item[e] != Element::kNone) {
      const uint32_t it = item[e];
      const uint32_t count = siblings_of(it);
      r[kItemCount] = log1p_f(count);
      r[kItemPosition] = static_cast<float>(ordinal[it]) / static_cast<float>(std::max<uint32_t>(1, count));
      r[kItemWords] = log1p_f(subtree_words(it));
      r[kItemLinkDensity] = subtree_ld(it);
      r[kItemDistance] = item_distance[e] + 1.0f;
      r[kItemFirstBlock] = elements[it].first_block == i;
    }
    r[kInCandidate] = candidate != Element::kNone && i >= elements[candidate].first_block &&
                      i < elements[candidate].end_block;
    r[kCandidateKeep] = joined[e];
    r[kAncestorScore] = std::min(1.0f, ancestor_score[e]);
    for (std::size_t fam = 0; fam < families; ++fam) {
      const uint16_t d = near[e * families + fam];
      const uint32_t at = near_at[e * families + fam];
      r[kFirstFamily + 2 * fam] = d == kFar ? 0.0f : 1.0f / (1.0f + static_cast<float>(d));
      r[kFirstFamily + 2 * fam + 1] = at == Element::kNone ? 0.0f : static_cast<float>(subtree_words(at) / page_words);
    }
  }
  return x;
}

}  // namespace husk
