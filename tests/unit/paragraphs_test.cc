// Segment-level dedup (SeenParagraphs) against a brute-force twin that
// keeps every earlier text.
#include <random>
#include <set>

#include "base/text_util.h"
#include "husk/dedup.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::vector<std::string> split_paragraphs(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find("\n\n", at);
    if (end == std::string::npos) end = text.size();
    std::string p = text.substr(at, end - at);
    if (!trim(p).empty()) out.push_back(p);
    at = end + 2;
  }
  return out;
}

// The twin: a paragraph goes when at least `repeats` earlier texts held it
// (white space collapsed); a text's own repeats go or stay with the first.
std::string brute_filter(const std::string& text, const std::vector<std::string>& earlier, uint32_t repeats) {
  std::string out;
  for (const std::string& p : split_paragraphs(text)) {
    uint32_t held = 0;
    for (const std::string& e : earlier) {
      for (const std::string& q : split_paragraphs(e))
        if (collapse_space(q) == collapse_space(p)) {
          ++held;
          break;
        }
    }
    if (held >= repeats) continue;
    out += (out.empty() ? "" : "\n\n") + p;
  }
  return out;
}

TEST(SeenParagraphs, AgreesWithTheBruteForceTwin) {
  std::mt19937 rng(11);
  const std::vector<std::string> pool = {"Subscribe to our newsletter.", "All rights reserved.", "The council met.",
                                         "Rain is expected  tomorrow.", "The mayor spoke.", "Read more",
                                         "A new library opens.", "Prices rose again."};
  for (uint32_t repeats : {1u, 2u, 3u}) {
    SeenParagraphs seen(repeats);
    std::vector<std::string> earlier;
    for (int page = 0; page < 60; ++page) {
      std::string text;
      const int n = 1 + static_cast<int>(rng() % 5);
      for (int k = 0; k < n; ++k) text += (k ? "\n\n" : "") + pool[rng() % pool.size()];
      std::string filtered = text;
      seen.filter(filtered);
      // Unchanged texts stay byte for byte; changed ones are the twin's.
      const std::string want = brute_filter(text, earlier, repeats);
      EXPECT_EQ(collapse_space(filtered), collapse_space(want)) << "repeats " << repeats << ", page " << page;
      earlier.push_back(text);
    }
  }
}

TEST(SeenParagraphs, DropsOnlyWhatEarlierPagesHeld) {
  SeenParagraphs seen(1);
  std::string first = "Story one.\n\nNewsletter: sign up.";
  std::string second = "Story two.\n\nNewsletter:  sign up.\n\nStory two again.\n\nStory two again.";
  EXPECT_EQ(seen.filter(first), 0u);
  EXPECT_EQ(first, "Story one.\n\nNewsletter: sign up.");
  EXPECT_EQ(seen.filter(second), 1u);
  EXPECT_EQ(second, "Story two.\n\nStory two again.\n\nStory two again.");
  // Beyond its capacity new paragraphs are not remembered, so never dropped.
  SeenParagraphs small(1, 1);
  std::string a = "Alpha.\n\nBeta.", b = "Alpha.\n\nBeta.";
  small.filter(a);
  EXPECT_EQ(small.remembered(), 1u);
  EXPECT_EQ(small.filter(b), 1u);
  EXPECT_EQ(b, "Beta.");
}

}  // namespace
}  // namespace husk
