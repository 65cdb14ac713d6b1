// Ingest: INPUT arguments -> a stream of RawPage, in stable order.
//
// An input is a file (.html, .htm, .xhtml, any of them .gz; .warc or
// .warc.gz; .jsonl/.ndjson, optionally .gz), a directory (walked
// recursively, files sorted by relative path), "-" for stdin (WARC, JSONL
// or HTML, sniffed from the first bytes) or an http:// or https:// URL
// (fetched, redirects followed; its id is the URL given, its url the one
// it ended at). All files are read through zlib's
// gz reader, so any of them may be gzip-compressed, including WARC files
// made of one gzip member per record.
//
// A record that cannot be read whole (truncated gzip, truncated WARC record,
// invalid JSON line) becomes a RawPage whose status says why; an input that
// cannot be opened at all is reported through IngestStats and the run goes
// on.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "husk/status.h"

namespace husk {

// One fetched page as it arrives, before any decoding.
struct RawPage {
  std::string id;            // path relative to the input directory, WARC-Record-ID, or JSONL id
  std::string url;           // target URI when known (WARC, JSONL), else empty
  std::string source;        // where it was read, for messages: "a.warc.gz: record 12"
  std::string bytes;         // the page as fetched, any charset
  std::string content_type;  // HTTP Content-Type when known; its charset outranks <meta>
  std::string content_language;  // HTTP Content-Language when known: a hint for language identification
  int http_status = 0;       // the HTTP status of a WARC response record; 0 for other inputs
  bool is_unicode = false;   // bytes are already UTF-8 text (JSONL strings): no charset step
  Status status;             // not ok when the record could not be read whole
};

// A page from a JSON object {"url": ..., "html": ..., "id": ...} (the JSONL
// input of husk extract, the hook's lines, the service's JSON bodies): html
// is required, url and id are optional; each must be a string when present.
// The html is taken as Unicode text.
Result<RawPage> page_from_json(std::string_view json_text);

struct IngestOptions {
  // A page larger than this is reported with an error instead of being read
  // (64 MiB: ten times the largest page seen in the benchmark corpora, and
  // small enough that --jobs N keeps N of them in memory comfortably).
  std::size_t max_page_bytes = 64u << 20;
  // WARC and HTTP header blocks longer than this are treated as corrupt.
  std::size_t max_header_bytes = 1u << 20;
  // WARC responses whose HTTP status is not 2xx (a 404 page, a redirect,
  // robots.txt's "not found") are skipped unless this is set: they are not
  // the page the URL names.
  bool all_statuses = false;
  // A page fetched by URL (an input that starts with http:// or https://)
  // must arrive within this many milliseconds, connection included.
  long fetch_timeout_ms = 30000;
  // Files a directory walk leaves out (the same file by any path): the
  // command's own output, written inside an input directory, is no page.
  std::vector<std::string> leave_out;
};

struct IngestStats {
  std::size_t pages = 0;             // RawPages handed to the sink (read or failed)
  std::size_t skipped = 0;           // WARC records that are not HTML responses (or not 2xx)
  std::vector<Status> input_errors;  // inputs that could not be opened or walked
};

// Returns false from the sink to stop early.
using PageSink = std::function<bool(RawPage&&)>;

IngestStats ingest(const std::vector<std::string>& inputs, const IngestOptions& options, const PageSink& sink);

// How many pages the inputs hold when that is known without reading them:
// HTML files and directories holding only HTML files, one page each. 0 when
// any input is stdin, a WARC or JSONL file, or a file sniffed when read.
// Walks the directories a second time; for progress reports.
std::size_t count_pages(const std::vector<std::string>& inputs);

}  // namespace husk
