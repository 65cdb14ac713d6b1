// The installed package as a C++ crawler uses it: `cmake --install` into a
// fresh prefix, then a ten-line program built against it twice, with
// find_package(husk) and with pkg-config, extracts and signs a page.
#include <filesystem>

#include "unit/test_util.h"

namespace husk {
namespace {

constexpr const char* kProgram = R"(#include <husk/husk.h>
#include <cstdio>
int main() {
  husk::ProcessorOptions options;
  options.sign = true;
  auto processor = husk::Processor::make(options);
  if (!processor.ok()) return 1;
  husk::PageResult page = processor->process("https://example.org/a", "<html><body><nav><a href='/'>Home</a></nav><article><p>The harbour council met on Tuesday and voted to rebuild the old pier before the summer season.</p></article></body></html>");
  if (!page.status.ok() || !page.signatures || !page.signatures->simhash) return 1;
  std::printf("%s\n%016llx\n", page.text.c_str(), static_cast<unsigned long long>(*page.signatures->simhash));
}
)";

int sh(const std::string& command) { return std::system(("(" + command + ") >/dev/null 2>&1").c_str()); }

TEST(Install, ATenLineProgramBuildsAgainstTheInstalledPackage) {
  if (test::kSanitized) GTEST_SKIP() << "a sanitized build installs a library only sanitized programs can link";
  test::TempDir dir;
  const std::string prefix = dir.file("prefix");
  ASSERT_EQ(sh("cmake --install " + std::string(HUSK_BUILD_DIR) + " --prefix " + prefix), 0);
  for (const char* installed : {"include/husk/husk.h", "include/husk/processor.h", "lib/libhusk.a",
                                "lib/cmake/husk/huskConfig.cmake", "lib/pkgconfig/husk.pc", "bin/husk"})
    EXPECT_TRUE(std::filesystem::exists(prefix + "/" + installed)) << installed;
  // No parser, ICU, XPath or LMDB type reaches the public headers.
  EXPECT_NE(sh("grep -rlE '#include <(gumbo|unicode/|pugixml|lmdb|toml)|Gumbo[A-Z][a-z]|pugi::|icu::|MDB_(env|txn|val|dbi)' " +
               prefix + "/include/husk"),
            0);

  test::write_file(dir.file("app/main.cc"), kProgram);
  test::write_file(dir.file("app/CMakeLists.txt"),
                   "cmake_minimum_required(VERSION 3.25)\nproject(app CXX)\nset(CMAKE_CXX_STANDARD 20)\n"
                   "find_package(husk REQUIRED)\nadd_executable(app main.cc)\ntarget_link_libraries(app husk::husk)\n");
  ASSERT_EQ(sh("cmake -S " + dir.file("app") + " -B " + dir.file("app/build") + " -DCMAKE_PREFIX_PATH=" + prefix +
               " && cmake --build " + dir.file("app/build")),
            0);
  test::CommandResult cmake_built;
  {
    FILE* pipe = popen(dir.file("app/build/app").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) cmake_built.out.append(buf, n);
    cmake_built.exit_code = pclose(pipe);
  }
  EXPECT_EQ(cmake_built.exit_code, 0);
  EXPECT_EQ(cmake_built.out.rfind("The harbour council met on Tuesday", 0), 0u) << cmake_built.out;
  EXPECT_EQ(cmake_built.out.find("Home"), std::string::npos) << cmake_built.out;

  ASSERT_EQ(sh("PKG_CONFIG_PATH=" + prefix + "/lib/pkgconfig g++ -std=c++20 " + dir.file("app/main.cc") + " -o " +
               dir.file("app/pc") + " $(PKG_CONFIG_PATH=" + prefix + "/lib/pkgconfig pkg-config --cflags --libs husk)"),
            0);
  EXPECT_EQ(sh(dir.file("app/pc") + " | grep -q 'harbour council'"), 0);
}

// The Python package as README promises it: pip installs it offline into a
// fresh venv of Debian's python3 (the extension built in this build
// directory), husk.__version__ is the project's, README's Python example
// runs, and python3 -m build makes a wheel.
TEST(Install, PipInstallsThePythonPackageIntoAFreshVenv) {
  if (test::kSanitized) GTEST_SKIP() << "a sanitized build installs a library only sanitized programs can link";
  if (sh("/usr/bin/python3 -c 'import ensurepip, venv'") != 0) {
    test::missing("python3-venv");
    GTEST_SKIP() << "no python3-venv";
  }
  test::TempDir dir;
  const std::string source = HUSK_SOURCE_DIR, venv = dir.file("v");
  const std::string env = "HUSK_BUILD_DIR=" + std::string(HUSK_BUILD_DIR) + " ";
  ASSERT_EQ(sh("/usr/bin/python3 -m venv " + venv), 0);
  ASSERT_EQ(sh(env + venv + "/bin/pip install --no-build-isolation --no-index " + source), 0);
  std::string cmake_lists = test::read_file(source + "/CMakeLists.txt");
  const std::string marker = "project(husk VERSION ";
  const std::size_t at = cmake_lists.find(marker) + marker.size();
  const std::string version = cmake_lists.substr(at, cmake_lists.find(' ', at) - at);
  test::CommandResult imported = test::run_command("cd " + dir.path().string() + " && " + venv +
                                                   "/bin/python -c 'import husk; print(husk.__version__)'");
  EXPECT_EQ(imported.out, version + "\n");
  // README's Python example, run as written from the source tree.
  const std::string readme = test::read_file(source + "/README.md");
  const std::size_t section = readme.find("## From Python");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = readme.find("```python\n", section);
  ASSERT_NE(begin, std::string::npos);
  const std::size_t body = begin + 10;
  test::write_file(dir.file("example.py"), readme.substr(body, readme.find("```", body) - body));
  test::CommandResult example =
      test::run_command("cd " + source + " && " + venv + "/bin/python " + dir.file("example.py"));
  EXPECT_EQ(example.exit_code, 0);
  // Five demo pages in five languages; of the English article and its
  // syndicated copy only the first read is kept.
  EXPECT_EQ(test::lines(example.out).size(), 5u) << example.out;
  const std::string headline = " en Harbour warehouses to become a public library";
  EXPECT_NE(example.out.find(headline), std::string::npos) << example.out;
  EXPECT_EQ(example.out.find(headline), example.out.rfind(headline)) << example.out;
  if (sh("/usr/bin/python3 -c 'import build'") != 0) {
    test::missing("python3-build");
    return;
  }
  // Run outside the tree: there its build/ directory would shadow the module.
  EXPECT_EQ(sh("cd " + dir.path().string() + " && " + env + "/usr/bin/python3 -m build --no-isolation --wheel --outdir " +
               dir.file("dist") + " " + source),
            0);
  bool wheel = false;
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("dist")))
    wheel = wheel || entry.path().extension() == ".whl";
  EXPECT_TRUE(wheel);
}

}  // namespace
}  // namespace husk
