// Pages fetched by URL (husk extract https://..., --url-list): one HTTP GET
// each through libcurl, redirects followed, the body bounded, the
// response's Content-Type (its charset outranks the page's <meta>) and
// Content-Language kept with the page as a WARC response's would be.
#pragma once

#include <string>
#include <string_view>

#include "husk/ingest.h"

namespace husk {

// Whether an input names a page on the web (http:// or https://).
bool is_url(std::string_view input);

// The page at `url`: its bytes, the URL it ended at, its HTTP status and
// headers; a page that could not be fetched whole (no answer within the
// timeout, over max_page_bytes, a status other than 2xx unless
// all_statuses) carries the reason in its status. Never throws.
RawPage fetch_page(const std::string& url, const IngestOptions& options);

}  // namespace husk
