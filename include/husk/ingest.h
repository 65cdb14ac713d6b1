// Ingest: turns INPUT arguments into a stream of RawPage, in stable order.
//
// An input is a file (.html, .htm, .xhtml, any of them .gz; .warc or
// .warc.gz; .jsonl/.ndjson, optionally .gz), a directory (walked
// recursively, files sorted by relative path) or "-" for stdin (WARC, JSONL
// or HTML, sniffed from the first bytes). All files are read through zlib's
// gz reader, so any of them may be gzip-compressed, including WARC files
// made of one gzip member per record.
//
// A record that cannot be read whole (truncated gzip, truncated WARC record,
// invalid JSON line) becomes a RawPage with `error` set; an input that cannot
// be opened at all is reported through IngestStats and the run goes on.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "husk/page.h"
#include "husk/status.h"

namespace husk {

struct IngestOptions {
  // A page larger than this is reported with an error instead of being read
  // (64 MiB: ten times the largest page seen in the benchmark corpora, and
  // small enough that --jobs N keeps N of them in memory comfortably).
  std::size_t max_page_bytes = 64u << 20;
  // WARC and HTTP header blocks longer than this are treated as corrupt.
  std::size_t max_header_bytes = 1u << 20;
};

struct IngestStats {
  std::size_t pages = 0;           // RawPages handed to the sink (with or without error)
  std::size_t skipped = 0;         // WARC records that are not HTML responses
  std::vector<Status> input_errors;  // inputs that could not be opened or walked
};

// Returns false from the sink to stop early.
using PageSink = std::function<bool(RawPage&&)>;

IngestStats ingest(const std::vector<std::string>& inputs,
                   const IngestOptions& options, const PageSink& sink);

}  // namespace husk
