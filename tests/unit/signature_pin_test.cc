// Signatures of a fixed corpus are pinned in tests/signatures_pinned.jsonl:
// any change of a signer, its parameters, the normalisation or the
// language data shows up here. Re-pinning is deliberate: run the test with
// HUSK_REPIN=1, review the diff, and say why in the commit.
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "husk/sign.h"
#include "unit/test_util.h"

namespace husk {
namespace {

const std::string kPinFile = std::string(HUSK_SOURCE_DIR) + "/tests/signatures_pinned.jsonl";

// The texts: the gold articles of fixtures/demo plus three more scripts.
std::vector<std::pair<std::string, std::string>> corpus() {
  std::vector<std::pair<std::string, std::string>> texts;
  auto gold = nlohmann::json::parse(test::read_file(std::string(HUSK_SOURCE_DIR) + "/fixtures/demo/gold.json"));
  for (const auto& [id, value] : gold.items()) texts.emplace_back(id, value["articleBody"].get<std::string>());
  texts.emplace_back("el", "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Ο Σωκράτης ήταν φιλόσοφος, όπως και ο Πλάτων. "
                           "Το μουσείο της Ακρόπολης άνοιξε το 2009.");
  texts.emplace_back("tr", "İstanbul ve Ankara, Türkiye'nin en büyük şehirleridir. Iğdır ılık, Ağrı soğuk. "
                           "Toplantı 14:30'da başlayacak.");
  texts.emplace_back("ja", "私はガラスを食べられます。それは私を傷つけません。東京は日本の首都です。");
  return texts;
}

TEST(SignaturePin, FixedCorpusSignaturesAreUnchanged) {
  std::vector<std::pair<std::string, std::string>> texts = corpus();
  // Collection statistics of the corpus itself; with 8 documents the
  // lexicon needs every term seen at least once.
  DfCounter counter;
  for (const auto& [id, text] : texts) counter.add_document(normalize(text).terms);
  CollectionStats stats = counter.finish();
  SignOptions plain;
  SignOptions with_idf;
  with_idf.lexicon_min_df = 1;
  with_idf.lexicon_max_df_share = 0.5;

  std::vector<std::string> lines;
  for (const auto& [id, text] : texts) {
    nlohmann::ordered_json j;
    j["id"] = id;
    j["text"] = text;
    j["sig"] = nlohmann::json::parse(signatures_json(sign(normalize(text), plain, nullptr)));
    j["sig_idf"] = nlohmann::json::parse(signatures_json(sign(normalize(text), with_idf, &stats)));
    lines.push_back(j.dump());
  }
  const char* repin = std::getenv("HUSK_REPIN");
  if (repin != nullptr && std::string(repin) == "1") {
    std::ofstream out(kPinFile, std::ios::binary | std::ios::trunc);
    for (const std::string& line : lines) out << line << '\n';
    GTEST_SKIP() << "re-pinned " << kPinFile;
  }
  std::vector<std::string> pinned = test::lines(test::read_file(kPinFile));
  ASSERT_EQ(pinned.size(), lines.size()) << kPinFile << " is missing or has another corpus";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto expect = nlohmann::json::parse(pinned[i]);
    auto got = nlohmann::json::parse(lines[i]);
    for (const char* field : {"sig", "sig_idf"})
      for (const auto& [signer, value] : expect[field].items())
        EXPECT_EQ(got[field][signer], value) << texts[i].first << " " << field << "." << signer << " changed";
    EXPECT_EQ(got["sig"].size(), expect["sig"].size()) << texts[i].first << ": a signer appeared or vanished";
    EXPECT_EQ(got["sig_idf"].size(), expect["sig_idf"].size()) << texts[i].first;
  }
}

}  // namespace
}  // namespace husk
