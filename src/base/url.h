// The parts of a URL husk groups pages by: host and path.
#pragma once

#include <string>
#include <string_view>

namespace husk {

// "https://user@a.b:80/x/y?q#f" -> host "a.b" (lower-cased, no user or
// port), path "/x/y" (no query or fragment). Without "://", the whole text
// is a path and the host is empty.
struct UrlParts {
  std::string host;
  std::string_view path;
};

UrlParts split_url(std::string_view url);

// The host alone (lower-cased), or empty.
inline std::string url_host(std::string_view url) { return split_url(url).host; }

// A reference resolved against a base URL by RFC 3986 section 5.2
// (liburiparser): scheme-relative "//host/x", absolute path "/x", relative
// path "x/y" with "." and ".." segments removed, query-only "?q",
// fragment-only "#f". Bytes no URI may hold (spaces, non-ASCII text) are
// percent-encoded first, as browsers do. An absolute reference is returned
// as it is; so is any reference when the base has no scheme or either does
// not parse. White space around the reference is dropped.
std::string resolve_url(std::string_view base, std::string_view reference);

}  // namespace husk
