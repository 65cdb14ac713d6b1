// mpirun -np 1|2|3 husk dedup gives the plain run's clusters and pairs
// byte for byte: on the near-duplicate dev set (its clean texts, and its
// whole texts with URLs, whose frame lines every rank counts), with the
// containment measure, on a generated 50,000-document corpus, and with a
// budget small enough to spill every rank's keys.
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "husk/ingest.h"
#include "unit/test_util.h"

namespace husk {
namespace {

using test::run_command;
using test::run_husk;
using test::TempDir;

// mpirun, or "" (a failure under CI, where make deps installs it).
std::string mpirun() {
  if (run_command("command -v mpirun >/dev/null 2>&1").exit_code == 0)
    // Root may run ranks here (CI runs as root); two cores take three ranks.
    return "mpirun --allow-run-as-root --oversubscribe ";
  test::missing("mpirun (make deps installs openmpi-bin)");
  return "";
}

// The clusters and pairs of `husk dedup OPTIONS input` on 1, 2 and 3 ranks,
// 3 with a budget that spills every rank's keys (the corpus engine only),
// are the plain run's. Three ranks split the input unevenly; more ranks on
// the 2-core CI machine cost ~1.5 s of start-up each and test nothing new.
void expect_same_clusters_on_any_ranks(const std::string& input, const std::string& dir, const std::string& launcher,
                                       std::size_t min_clusters, const std::string& options = "") {
  const std::string plain = dir + "/plain.jsonl", plain_pairs = dir + "/plain-pairs.jsonl";
  ASSERT_EQ(run_husk("dedup " + options + input + " -o " + plain + " --pairs " + plain_pairs + " 2>/dev/null").exit_code, 0);
  const std::string expected = test::read_file(plain);
  ASSERT_GE(test::lines(expected).size(), min_clusters);
  const std::vector<std::string> runs =
      options.empty() ? std::vector<std::string>{"-np 1", "-np 2", "-np 3 --memory 64K"} : std::vector<std::string>{"-np 2", "-np 3"};
  for (const std::string& run : runs) {
    std::string np(run), memory;
    if (auto at = np.find(" --memory"); at != std::string::npos) {
      memory = np.substr(at);
      np = np.substr(0, at);
    }
    const std::string out = dir + "/mpi.jsonl", pairs = dir + "/mpi-pairs.jsonl";
    auto r = run_command(launcher + np + " " + HUSK_BINARY + " dedup -j1" + memory + " " + options + input + " -o " +
                         out + " --pairs " + pairs + " 2>" + dir + "/mpi.log");
    ASSERT_EQ(r.exit_code, 0) << run << ": " << test::read_file(dir + "/mpi.log");
    EXPECT_TRUE(test::read_file(out) == expected) << run << ": clusters differ from the plain run";
    EXPECT_TRUE(test::read_file(pairs) == test::read_file(plain_pairs)) << run << ": pairs differ from the plain run";
    if (!memory.empty()) {
      EXPECT_EQ(test::read_file(dir + "/mpi.log").find(" 0.0 MB spilled"), std::string::npos) << run << " must spill";
    }
  }
}

TEST(DedupMpi, SameClustersAsOneProcessOnTheNearDuplicateDevSet) {
  std::string launcher = mpirun();
  if (launcher.empty()) GTEST_SKIP() << "mpirun is absent";
  std::string root = test::dataset("near-dup-html-pairs");
  if (root.empty()) GTEST_SKIP() << "../shared/datasets/near-dup-html-pairs is absent";
  TempDir dir;
  ASSERT_EQ(run_husk("extract " + root + "/html -o " + dir.file("pages.jsonl") + " 2>/dev/null").exit_code, 0);
  expect_same_clusters_on_any_ranks(dir.file("pages.jsonl"), dir.path().string(), launcher, 100);
  // Text reuse: each rank reads and signs its share, rank 0 runs the
  // containment search in memory; clusters and pairs (with which text is
  // contained) are one process's.
  expect_same_clusters_on_any_ranks(dir.file("pages.jsonl"), dir.path().string(), launcher, 100, "--measure containment ");
  EXPECT_NE(test::read_file(dir.file("plain-pairs.jsonl")).find("\"contained\""), std::string::npos);
  // The pages' whole texts with their URLs: the frame lines each rank
  // counts are summed over the ranks before any text is signed.
  std::map<std::string, std::string> urls;
  for (const std::string& line : test::lines(test::read_file(root + "/pairs.jsonl"))) {
    auto pair = nlohmann::json::parse(line);
    for (const char* side : {"a", "b"}) urls[pair[side]["id"]] = pair[side]["url"];
  }
  std::string with_urls;
  ingest({root + "/html"}, IngestOptions{}, [&](RawPage&& page) {
    const std::string id = page.id.substr(0, page.id.find(".html"));
    with_urls += nlohmann::json({{"id", id}, {"url", urls[id]}, {"html", page.bytes}})
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    return true;
  });
  test::write_file(dir.file("in.jsonl"), with_urls);
  ASSERT_EQ(run_husk("extract --extractor fulltext " + dir.file("in.jsonl") + " -o " + dir.file("full.jsonl") +
                     " 2>/dev/null").exit_code, 0);
  auto plain = run_husk("dedup " + dir.file("full.jsonl") + " -o /dev/null 2>&1");
  ASSERT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.out.find(" 0 frame lines"), std::string::npos) << plain.out;
  expect_same_clusters_on_any_ranks(dir.file("full.jsonl"), dir.path().string(), launcher, 100);
}

TEST(DedupMpi, SameClustersAsOneProcessOnAGeneratedCorpus) {
  std::string launcher = mpirun();
  if (launcher.empty()) GTEST_SKIP() << "mpirun is absent";
  const std::string gen = std::string(HUSK_BUILD_DIR) + "/tests/bench/husk_corpus_gen";
  if (run_command("test -x " + gen).exit_code != 0) {
    test::missing("husk_corpus_gen (built unless HUSK_BUILD_BENCH=OFF)");
    GTEST_SKIP() << "husk_corpus_gen is not built (HUSK_BUILD_BENCH=OFF)";
  }
  TempDir dir;
  ASSERT_EQ(run_command(gen + " --docs 50000 -o " + dir.file("docs.jsonl")).exit_code, 0);
  expect_same_clusters_on_any_ranks(dir.file("docs.jsonl"), dir.path().string(), launcher, 2000);
}

TEST(DedupMpi, OtherMethodsSayTheyRunAsOneProcess) {
  std::string launcher = mpirun();
  if (launcher.empty()) GTEST_SKIP() << "mpirun is absent";
  TempDir dir;
  test::write_file(dir.file("a.jsonl"), "{\"id\":\"a\",\"text\":\"one two three four five six\"}\n");
  auto r = run_command(launcher + "-np 2 " + HUSK_BINARY + " dedup --method simhash " + dir.file("a.jsonl") + " 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("only --method minhash runs across MPI ranks"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace husk
