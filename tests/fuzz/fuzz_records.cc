// libFuzzer entry: arbitrary bytes as the JSON records husk reads: a page
// object ({"url", "html", "id"}: the JSONL input of extract, the hook's
// lines, the service's bodies) and a signature object (husk sign's "sig",
// dedup's input).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "husk/ingest.h"
#include "husk/sign.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)husk::page_from_json(text);
  husk::Result<husk::Signatures> sig = husk::parse_signatures(text);
  if (sig.ok()) (void)husk::signatures_json(*sig);
  return 0;
}
