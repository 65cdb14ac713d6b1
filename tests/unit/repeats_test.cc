// Repeated text (src/extract/repeats.h): the later copy of a passage a page
// carries twice leaves the text; the labels a page repeats on purpose stay.
#include "extract/repeats.h"

#include <random>

#include "husk/processor.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// The rule written the slow way: for every kept block, count the kept
// blocks of its text and of its words, and look back for an earlier kept
// copy.
std::vector<uint32_t> repeats_brute_force(const std::vector<uint64_t>& keys, const std::vector<double>& words,
                                          std::vector<uint8_t>& keep) {
  const std::vector<uint8_t> kept = keep;
  std::vector<uint32_t> out(keep.size(), kNotARepeat);
  for (std::size_t b = 0; b < keep.size(); ++b) {
    if (!kept[b] || words[b] < kRepeatMinWords) continue;
    uint32_t copies = 0;
    for (std::size_t c = 0; c < keep.size(); ++c) copies += kept[c] && keys[c] == keys[b];
    if (copies > kRepeatMaxCopies) continue;
    for (std::size_t c = 0; c < b; ++c)
      if (kept[c] && keys[c] == keys[b]) {
        out[b] = static_cast<uint32_t>(c);
        keep[b] = 0;
        break;
      }
  }
  return out;
}

TEST(Repeats, TheLaterCopyOfAPassageLeaves) {
  const std::vector<std::string> texts = {"Harbour festival opens on Friday", "Reply", "Three stages of music",
                                          "Harbour festival opens on Friday", "Reply", "Three stages of music"};
  std::vector<uint64_t> keys;
  for (const std::string& t : texts) keys.push_back(repeat_key(t));
  const std::vector<double> words = {5, 1, 4, 5, 1, 4};
  std::vector<uint8_t> keep(6, 1);
  const std::vector<uint32_t> out = take_out_repeats(keys, words, keep);
  EXPECT_EQ(keep, (std::vector<uint8_t>{1, 1, 1, 0, 1, 0}));
  EXPECT_EQ(out, (std::vector<uint32_t>{kNotARepeat, kNotARepeat, kNotARepeat, 0, kNotARepeat, 2}));
  // The same bytes, less the spaces around them, are the same text.
  EXPECT_EQ(repeat_key("  Three stages of music\n"), keys[2]);
  EXPECT_NE(repeat_key("three stages of music"), keys[2]);
}

// What the stage did not keep is no first copy, and a text kept four times
// is a label of a repeated structure: all four stay.
TEST(Repeats, OnlyKeptCopiesCountAndAStructuresLabelsStay) {
  const uint64_t a = repeat_key("Eat every two or three hours"), b = repeat_key("Breakfast with oats and fruit");
  std::vector<uint64_t> keys = {b, b, a, a, a, a};
  const std::vector<double> words = {5, 5, 6, 6, 6, 6};
  std::vector<uint8_t> keep = {0, 1, 1, 1, 1, 1};
  const std::vector<uint32_t> out = take_out_repeats(keys, words, keep);
  EXPECT_EQ(keep, (std::vector<uint8_t>{0, 1, 1, 1, 1, 1}));
  for (uint32_t o : out) EXPECT_EQ(o, kNotARepeat);
}

TEST(Repeats, AgreesWithItsBruteForceTwin) {
  std::mt19937_64 random(7);
  for (int page = 0; page < 300; ++page) {
    const std::size_t n = 1 + random() % 60;
    std::vector<uint64_t> keys(n);
    std::vector<double> words(n);
    std::vector<uint8_t> keep(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = random() % 8;  // few texts: many repeats
      words[i] = static_cast<double>(1 + keys[i] % 5);
      keep[i] = random() % 4 != 0;
    }
    std::vector<uint8_t> fast = keep, slow = keep;
    EXPECT_EQ(take_out_repeats(keys, words, fast), repeats_brute_force(keys, words, slow)) << "page " << page;
    EXPECT_EQ(fast, slow) << "page " << page;
  }
}

// Through the pipeline: a page that writes its article twice, once for
// small screens and once for large ones, gives the article once.
TEST(Repeats, APageRenderedTwiceGivesItsTextOnce) {
  std::string article = "<h1>Harbour festival opens</h1>";
  for (int i = 0; i < 4; ++i)
    article += "<p>The harbour festival opens on Friday with music on three stages and food from every quarter, "
               "paragraph " + std::to_string(i) + ".</p>";
  const std::string page = "<html><body><div class=\"mobile\"><article>" + article +
                           "</article></div><div class=\"desktop\"><article>" + article +
                           "</article></div></body></html>";
  for (const char* extractor : {"learned", "density"}) {
    const std::string text = test::extract_text(page, extractor);
    for (int i = 0; i < 4; ++i) {
      const std::string paragraph = "from every quarter, paragraph " + std::to_string(i) + ".";
      const std::size_t first = text.find(paragraph);
      ASSERT_NE(first, std::string::npos) << extractor << ": " << text;
      EXPECT_EQ(text.find(paragraph, first + 1), std::string::npos) << extractor << ": " << text;
    }
  }
}

}  // namespace
}  // namespace husk
