// libFuzzer entry: arbitrary bytes as a page, through the whole processor
// (decode, parse, segment, the cascade, metadata, language, Markdown and
// HTML, normalisation and every signer).
// The first byte picks the extractor and whether a Content-Type header with
// a charset comes along, so charset conversion is fuzzed as well.
#include <cstddef>
#include <cstdint>

#include "husk/processor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const husk::Processor density = [] {
    husk::ProcessorOptions options;
    options.sign = true;
    return *husk::Processor::make(options);
  }();
  // Every output: Markdown and HTML with links and images, comments apart.
  static const husk::Processor fulltext = [] {
    husk::ProcessorOptions options;
    options.extractor = "fulltext";
    options.sign = true;
    options.markdown = options.html = options.comments = true;
    options.format.links = options.format.images = true;
    return *husk::Processor::make(options);
  }();
  if (size == 0) return 0;
  static const char* kTypes[] = {"", "text/html; charset=windows-1251", "text/html; charset=shift_jis",
                                 "text/html; charset=utf-16le"};
  husk::RawPage page;
  page.id = "fuzz";
  page.content_type = kTypes[data[0] & 3];
  page.bytes.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  husk::PageResult r = ((data[0] >> 2) & 1 ? fulltext : density).process(page);
  (void)husk::to_jsonl(r);
  if (r.signatures) (void)husk::signatures_json(*r.signatures);
  return 0;
}
