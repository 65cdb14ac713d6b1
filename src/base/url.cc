#include "base/url.h"

#include "base/text_util.h"

namespace husk {

UrlParts split_url(std::string_view url) {
  UrlParts parts;
  std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) {
    parts.path = url.substr(0, url.find_first_of("?#"));
    return parts;
  }
  std::string_view rest = url.substr(scheme + 3);
  std::size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  if (end != std::string_view::npos && rest[end] == '/') parts.path = rest.substr(end, rest.find_first_of("?#", end) - end);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  if (std::size_t colon = authority.rfind(':');
      colon != std::string_view::npos && authority.find(']') == std::string_view::npos)
    authority = authority.substr(0, colon);
  parts.host = ascii_lower(authority);
  return parts;
}

}  // namespace husk
