// libFuzzer entry: arbitrary bytes as what the metadata reads: a date, a
// JSON-LD script (broken JSON included) and a page head, so the date
// patterns, the JSON repair and the precedence rules all see them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "husk/html.h"
#include "husk/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)husk::parse_date(text);
  (void)husk::primary_language(text);
  (void)husk::identify_language(text, text.substr(0, 8));
  for (const std::string& page : {"<html><head><script type=\"application/ld+json\">" + text +
                                      "</script></head><body><h1>t</h1><p>By A B</p></body></html>",
                                  "<html><head>" + text + "</head><body>" + text + "</body></html>"}) {
    husk::Result<husk::Dom> dom = husk::parse(page);
    if (!dom.ok()) continue;
    husk::Blocks blocks = husk::segment(*dom);
    std::vector<uint8_t> keep(blocks.blocks.size(), 1);
    (void)husk::extract_metadata(blocks, keep, "https://fuzz.example/2024/05/12/x");
  }
  return 0;
}
