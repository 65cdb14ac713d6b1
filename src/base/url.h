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

}  // namespace husk
