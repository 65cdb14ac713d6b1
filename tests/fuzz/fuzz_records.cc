// libFuzzer entry: arbitrary bytes as the JSON records husk reads: a page
// object ({"url", "html", "id"}: the JSONL input of extract, the hook's
// lines, the service's bodies), a JSONL line as the shared reader parses
// it (json_object: husk sign, dedup and the evaluators), written back as
// husk sign writes a record, and a signature object (husk sign's "sig",
// dedup's input).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "husk/ingest.h"
#include "husk/sign.h"
#include "ingest/lines.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)husk::page_from_json(text);
  husk::Result<nlohmann::json> record = husk::json_object(husk::Line{"fuzz:1", 1, std::string(text), husk::Status()});
  if (record.ok()) (void)record->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  husk::Result<husk::Signatures> sig = husk::parse_signatures(text);
  if (sig.ok()) (void)husk::signatures_json(*sig);
  return 0;
}
