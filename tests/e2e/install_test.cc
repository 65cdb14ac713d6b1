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
               dir.file("app/pc") + " $(PKG_CONFIG_PATH=" + prefix + "/lib/pkgconfig pkg-config --static --cflags --libs husk)"),
            0);
  EXPECT_EQ(sh(dir.file("app/pc") + " | grep -q 'harbour council'"), 0);
}

}  // namespace
}  // namespace husk
