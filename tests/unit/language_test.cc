// Language identification: CLD2 on fifteen languages of fixtures/languages,
// hints from <html lang>, and what a text too short to tell gets.
#include <filesystem>

#include "husk/metadata.h"
#include "unit/test_util.h"

namespace husk {
namespace {

TEST(Language, IdentifiesEveryFixture) {
  const std::filesystem::path dir = std::filesystem::path(HUSK_SOURCE_DIR) / "fixtures" / "languages";
  ProcessorOptions options;
  Result<Processor> processor = Processor::make(options);
  ASSERT_TRUE(processor.ok());
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".html") continue;
    const std::string want = entry.path().stem().string();
    PageResult r = processor->process("", test::read_file(entry.path().string()));
    EXPECT_EQ(primary_language(r.language.code), want) << entry.path();
    EXPECT_GT(r.language.confidence, 0.8) << entry.path();
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST(Language, ShortTextTakesTheDeclaredLanguageUnconfirmed) {
  Language l = identify_language("Hallo", "de-AT");
  EXPECT_EQ(l.code, "de");
  EXPECT_EQ(l.confidence, 0.0);
  Language none = identify_language("", "");
  EXPECT_EQ(none.code, "");
}

// Dedup's one rule: the record's tag as given, else CLD2 on the text.
TEST(Language, APageIsComparedUnderItsRecordsTagElseItsTextsLanguage) {
  const std::string german =
      "Die Stadtverwaltung hat am Montag bekanntgegeben, dass die Bauarbeiten an der neuen Brücke im Herbst "
      "beginnen werden und voraussichtlich zwei Jahre dauern.";
  EXPECT_EQ(page_language("en-US", german), "en-US");
  EXPECT_EQ(page_language("", german), "de");
  EXPECT_EQ(page_language("", ""), "");
}

TEST(Language, PrimarySubtags) {
  EXPECT_EQ(primary_language("en-US"), "en");
  EXPECT_EQ(primary_language("zh-Hant"), "zh");
  EXPECT_EQ(primary_language(" PT_br "), "pt");
  EXPECT_EQ(primary_language("iw"), "he");
  EXPECT_EQ(primary_language("nb"), "no");
}

}  // namespace
}  // namespace husk
