// mpirun -np 1|2|4 husk dedup gives the plain run's clusters byte for
// byte: on the near-duplicate dev set, on a generated 50,000-document
// corpus, and with a budget small enough to spill every rank's keys.
#include <cstdlib>

#include "unit/test_util.h"

namespace husk {
namespace {

using test::run_command;
using test::run_husk;
using test::TempDir;

// mpirun, or "" (a failure under CI, where make deps installs it).
std::string mpirun() {
  if (run_command("command -v mpirun >/dev/null 2>&1").exit_code == 0)
    // Root may run ranks here (CI runs as root); two cores take four ranks.
    return "mpirun --allow-run-as-root --oversubscribe ";
  test::missing("mpirun (make deps installs openmpi-bin)");
  return "";
}

void expect_same_clusters_on_any_ranks(const std::string& input, const std::string& dir, const std::string& launcher,
                                       std::size_t min_clusters) {
  const std::string plain = dir + "/plain.jsonl";
  ASSERT_EQ(run_husk("dedup " + input + " -o " + plain + " 2>/dev/null").exit_code, 0);
  const std::string expected = test::read_file(plain);
  ASSERT_GE(test::lines(expected).size(), min_clusters);
  for (const char* run : {"-np 1", "-np 2", "-np 4", "-np 2 --memory 256K", "-np 3 --memory 64K"}) {
    std::string np(run), memory;
    if (auto at = np.find(" --memory"); at != std::string::npos) {
      memory = np.substr(at);
      np = np.substr(0, at);
    }
    const std::string out = dir + "/mpi.jsonl";
    auto r = run_command(launcher + np + " " + HUSK_BINARY + " dedup -j1" + memory + " " + input + " -o " + out +
                         " 2>" + dir + "/mpi.log");
    ASSERT_EQ(r.exit_code, 0) << run << ": " << test::read_file(dir + "/mpi.log");
    EXPECT_TRUE(test::read_file(out) == expected) << run << ": clusters differ from the plain run";
    if (!memory.empty())
      EXPECT_EQ(test::read_file(dir + "/mpi.log").find(" 0.0 MB spilled"), std::string::npos) << run << " must spill";
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
  EXPECT_NE(r.out.find("only --method minhash with --measure jaccard runs across MPI ranks"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace husk
