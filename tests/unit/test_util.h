// Helpers shared by the tests: temporary directories, files, gzip, the
// husk binary, and the shared datasets (skipped outside CI when absent).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "husk/processor.h"

namespace husk::test {

// Whether the tests (and husk with them) were built with a sanitizer (make
// sanitize): peak-memory bounds do not hold there (shadow memory, the
// quarantine of freed blocks), and a program built without the sanitizer
// cannot link the installed library.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
// ThreadSanitizer in particular: its runtime, shared by every thread,
// spends CPU time on a thread that the thread's own work does not (the
// more threads, the more), so a page's CPU-time budget there depends on
// --jobs.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitized = true;
#else
inline constexpr bool kThreadSanitized = false;
#endif

// A fresh directory removed when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

void write_file(const std::string& path, const std::string& bytes);
std::string read_file(const std::string& path);
std::string gzip(const std::string& bytes);

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
};
// Runs `husk ARGS` with stdout captured (stderr goes to the test log).
CommandResult run_husk(const std::string& args);
// Runs a shell command the same way.
CommandResult run_command(const std::string& cmd);

// A parameterised test's name from free text: non-alphanumerics become '_'.
std::string test_name(std::string text);

// A made-up term: `prefix` then the number ("w17"). Built by appending:
// GCC 12 warns falsely (-Wrestrict) on "literal" + std::to_string(n).
std::string token(std::string_view prefix, long long n);
// A loopback TCP port no one listens on now (the kernel's choice for port
// 0), for a server a test starts through a script that takes a port.
int free_port();

// Random 64-bit fingerprints in planted clusters: each centre is followed
// by up to five members with up to `spread` random bits flipped.
std::vector<uint64_t> planted_fingerprints(std::size_t n, uint32_t spread, uint64_t seed);

// One JSON line per element.
std::vector<std::string> lines(const std::string& text);

// The rows of the markdown table that follows `header` in `doc`, every
// cell of each with bold marks dropped.
std::vector<std::vector<std::string>> table_rows_after(const std::string& doc, const std::string& header);
// The same rows keyed by the first word of the first cell -> the other cells.
std::map<std::string, std::vector<std::string>> table_after(const std::string& doc, const std::string& header);
// The cells after the first of the first row whose first cell contains
// `label`; empty when no row does.
std::vector<std::string> row_containing(const std::vector<std::vector<std::string>>& rows, std::string_view label);
// Whether `doc` says `phrase`, its white space runs (line wraps) read as
// one space and its bold marks dropped.
bool says(const std::string& doc, std::string_view phrase);

// Blocks of an inline HTML page.
Blocks blocks_of(const std::string& html);
// The text the pipeline extracts from an inline page.
std::string extract_text(const std::string& html, const std::string& extractor = "density");

// A blog post of three paragraphs in WordPress's default markup (its
// byline "Tom") over a thread of `replies` replies, each an author line,
// a "said:", a paragraph and a reply link: a page the page-type classifier
// takes for a forum.
std::string blog_post_with_replies(int replies);

// Whether CI=true (CI, where make deps and make test provide every tool,
// target and data set the tests use).
bool under_ci();
// Called before a test skips for want of `what` (a tool, an optional build
// target): under CI the test fails instead of skipping silently.
void missing(const std::string& what);

// ../shared/datasets/NAME, or "" after GTEST_SKIP-worthy absence; fails the
// test instead of skipping when CI=true.
std::string dataset(const std::string& name);
// ../shared/repro/NAME (inputs that once crashed, hung or lost data), the
// same way.
std::string repro(const std::string& name);

}  // namespace husk::test
