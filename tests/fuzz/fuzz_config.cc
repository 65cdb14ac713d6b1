// libFuzzer entry: arbitrary bytes as each configuration file husk reads:
// the extraction TOML, the signing TOML, an XPath site-rule file and an IDF
// file (read from a file, as husk sign --idf reads it). The first byte
// picks which.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "husk/extract.h"
#include "husk/sign.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] & 3) {
    case 0: (void)husk::parse_extract_config(text, "fuzz.toml"); break;
    case 1: (void)husk::parse_sign_config(text, "fuzz.toml"); break;
    case 2: (void)husk::SiteRules::parse(text, "fuzz.toml"); break;
    default: {
      static const std::string path = "/tmp/husk-fuzz-" + std::to_string(getpid()) + ".idf";
      FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr) return 0;
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
      (void)husk::load_collection_stats(path);
    }
  }
  return 0;
}
