#include <zlib.h>

#include "base/shared_library.h"
#include "sign/hashing.h"
#include "unit/test_util.h"

namespace husk {
namespace {

// A library opened on use gives the functions its header declares; a
// library or a function that is not there is an error naming it, not a
// crash at start or at the call.
TEST(SharedLibrary, FunctionsAreTheLibrarysAndWhatIsMissingIsNamed) {
  SharedLibrary zlib("libz.so.1");
  ASSERT_TRUE(zlib.ok()) << zlib.error();
  auto version = HUSK_LIBRARY_SYMBOL(zlib, zlibVersion);
  ASSERT_NE(version, nullptr);
  EXPECT_STREQ(version(), zlibVersion());
  EXPECT_EQ(zlib.symbol<void (*)()>("husk_no_such_function"), nullptr);
  EXPECT_FALSE(zlib.ok());
  EXPECT_EQ(zlib.error(), "libz.so.1 has no husk_no_such_function");

  SharedLibrary missing("libhusk-not-installed.so.7");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("libhusk-not-installed.so.7 cannot be loaded"), std::string::npos) << missing.error();
  EXPECT_EQ(HUSK_LIBRARY_SYMBOL(missing, zlibVersion), nullptr);
}

// The binary names none of the libraries it opens on use: each would be
// loaded at every start again (docs/architecture.md, "Libraries opened on
// use").
TEST(SharedLibrary, TheBinaryDoesNotLoadWhatItOpensOnUse) {
  test::CommandResult r = test::run_command(std::string("readelf -d ") + HUSK_BINARY);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_NE(r.out.find("libgumbo"), std::string::npos) << r.out;  // the listing is the binary's
  for (const char* opened : {"libcurl", "libmicrohttpd", "libxgboost", "libmpi", "libcrypto"})
    EXPECT_EQ(r.out.find(opened), std::string::npos) << opened;
}

// MD5 and SHA-1 come from libcrypto opened on first use: the test vectors
// of RFC 1321 (A.5) and FIPS 180-2 (appendix A.1).
TEST(SharedLibrary, DigestsAreOpenSSLsOpenedOnUse) {
  ASSERT_TRUE(crypto_loaded().ok()) << crypto_loaded().message();
  EXPECT_EQ(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

}  // namespace
}  // namespace husk
