// The record layer: one field table that every record follows, the
// docs' copy of it, and the cluster line.
#include "record/record.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "husk/corpus.h"
#include "husk/processor.h"
#include "unit/test_util.h"

namespace husk {
namespace {

std::vector<std::string> field_names() {
  std::vector<std::string> out;
  for (const RecordField& f : record_fields()) out.emplace_back(f.name);
  return out;
}

// Whether `record`'s keys are fields of the table, in the table's order.
void expect_table_order(const nlohmann::ordered_json& record) {
  const std::vector<std::string> names = field_names();
  std::size_t last = 0;
  for (const auto& [key, value] : record.items()) {
    auto at = std::find(names.begin(), names.end(), key);
    ASSERT_NE(at, names.end()) << key << " is written but not in the field table";
    const auto index = static_cast<std::size_t>(at - names.begin());
    EXPECT_GE(index, last) << key << " is out of the table's order";
    last = index;
  }
}

TEST(Record, TheFieldTableNamesEachFieldOnceInPartOrder) {
  const auto& fields = record_fields();
  ASSERT_FALSE(fields.empty());
  std::vector<std::string> names = field_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  for (std::size_t i = 1; i < fields.size(); ++i)
    EXPECT_LE(static_cast<int>(fields[i - 1].part), static_cast<int>(fields[i].part)) << fields[i].name;
  for (const RecordField& f : fields) {
    EXPECT_FALSE(f.type.empty()) << f.name;
    EXPECT_FALSE(f.present.empty()) << f.name;
  }
}

TEST(Record, EveryWriterFollowsTheTable) {
  ProcessorOptions options;
  options.markdown = true;
  options.html = true;
  Result<Processor> processor = Processor::make(options);
  ASSERT_TRUE(processor.ok()) << processor.status().to_string();
  PageResult page = processor->process(
      "https://news.example/a.html",
      "<html lang=en><head><title>Rivers rise | News</title><meta name=author content='Jane Roe'></head><body>"
      "<article><h1>Rivers rise</h1><p>The rivers of the valley rose by two metres overnight after a week of "
      "rain, and the town closed its lower bridge.</p></article></body></html>");
  page.warnings.push_back("a warning");
  nlohmann::ordered_json full = page_record(page);
  EXPECT_TRUE(full.contains("markdown"));
  EXPECT_TRUE(full.contains("html"));
  Verdict verdict;
  verdict.cluster = "c1";
  add_verdict(full, std::nullopt, &verdict);
  add_outcome(full, page.warnings, Status(Code::kCorrupt, "broken"));
  expect_table_order(full);
  EXPECT_EQ(full.size(), record_fields().size() - 1);  // all but comments, which the page has not

  // What husk extract writes (and Python reads) is the same record.
  nlohmann::ordered_json line = nlohmann::ordered_json::parse(to_jsonl(page));
  expect_table_order(line);
  for (const RecordField& f : record_fields())
    if (f.part == RecordPart::kPage && full.contains(std::string(f.name))) {
      EXPECT_EQ(line[std::string(f.name)], full[std::string(f.name)]) << f.name;
    }
  EXPECT_FALSE(page_record(page, /*with_text=*/false).contains("text"));
}

TEST(Record, TheDocsTableIsTheFieldTable) {
  std::ifstream in(std::string(HUSK_SOURCE_DIR) + "/docs/cli.md");
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const std::size_t header = text.find("| field | JSON type | part | present |");
  ASSERT_NE(header, std::string::npos) << "docs/cli.md's table of the record";
  std::istringstream rows(text.substr(header));
  std::string row;
  std::getline(rows, row);  // header
  std::getline(rows, row);  // rule
  const char* parts[] = {"page", "verdict", "outcome"};
  for (const RecordField& f : record_fields()) {
    ASSERT_TRUE(std::getline(rows, row)) << f.name << " is not in docs/cli.md";
    EXPECT_EQ(row, "| `" + std::string(f.name) + "` | " + std::string(f.type) + " | " +
                       parts[static_cast<int>(f.part)] + " | " + std::string(f.present) + " |");
  }
  ASSERT_TRUE(std::getline(rows, row));
  EXPECT_TRUE(row.empty()) << "docs/cli.md has a field the table lacks: " << row;
}

TEST(Record, OneClusterLineForTheCliPythonAndTheIndex) {
  CorpusCluster cluster{"a", {"a", "b"}, {"https://x.example/a", ""}};
  EXPECT_EQ(cluster_json(3, cluster),
            "{\"cluster\":3,\"size\":2,\"main\":\"a\",\"members\":[\"a\",\"b\"],\"urls\":[\"https://x.example/a\",\"\"]}\n");
  EXPECT_EQ(json_line(cluster_record("c7", "a", {"a"}, nullptr)),
            "{\"cluster\":\"c7\",\"size\":1,\"main\":\"a\",\"members\":[\"a\"]}\n");
  EXPECT_EQ(json_line(pair_record("a", "b", "", "", "jaccard", 0.5f, 2)),
            "{\"a\":\"a\",\"b\":\"b\",\"url_a\":\"\",\"url_b\":\"\",\"measure\":\"jaccard\",\"score\":0.5,\"contained\":\"b\"}\n");
}

}  // namespace
}  // namespace husk
