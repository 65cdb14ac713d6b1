// WARC 1.0/1.1 reading (ISO 28500): the `response` records that carry HTML.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ingest/gz_reader.h"
#include "husk/ingest.h"
#include "husk/status.h"

namespace husk {

struct HttpResponse {
  int status_code = 0;
  std::string content_type;
  std::string content_language;
  std::string body;  // de-chunked and content-decoded
};

// Parses an HTTP/1.x response message as stored in a WARC response block.
// Transfer-Encoding: chunked and Content-Encoding: gzip/deflate are undone;
// a body that inflates beyond max_body_bytes is an error (a gzip bomb: a
// megabyte can inflate to gigabytes), found before more is inflated.
Result<HttpResponse> parse_http_response(std::string_view message, std::size_t max_header_bytes,
                                         std::size_t max_body_bytes = SIZE_MAX);

// True when a Content-Type names HTML (text/html, application/xhtml+xml).
bool is_html_content_type(std::string_view content_type);

// Streams the records of one WARC file into sink. Returns false when the
// sink asked to stop.
bool read_warc(GzReader& reader, const std::string& source,
               const IngestOptions& options, IngestStats& stats,
               const PageSink& sink);

}  // namespace husk
