// libFuzzer entry: arbitrary bytes as a WARC file (plain, or gzip when
// they start with its magic), read as husk ingest reads files, each page
// then processed. The bytes go through a file because WARC is read from
// files and streams.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "husk/ingest.h"
#include "husk/processor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const husk::Processor processor = *husk::Processor::make(husk::ProcessorOptions{});
  static const std::string path = "/tmp/husk-fuzz-" + std::to_string(getpid()) + ".warc";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  husk::IngestOptions options;
  options.max_page_bytes = 1u << 20;
  husk::ingest({path}, options, [&](husk::RawPage&& page) {
    (void)husk::to_jsonl(processor.process(page));
    return true;
  });
  return 0;
}
