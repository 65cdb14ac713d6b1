#include "base/url.h"

#include <uriparser/Uri.h>

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

namespace {

// The bytes RFC 3986 admits nowhere in a URI but pages put in their hrefs
// as they stand (spaces, non-ASCII text, "|", "{"): percent-encoded, as a
// browser encodes them when it resolves the reference (WHATWG URL
// Standard, "path percent-encode set"), so that the parser takes it.
std::string encoded_for_parsing(std::string_view s) {
  static constexpr std::string_view kUnsafe = " \"<>\\^`{|}";
  std::string out;
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80 || b < 0x21 || b == 0x7F || kUnsafe.find(c) != std::string_view::npos) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    } else {
      out += c;
    }
  }
  return out;
}

// A URI parsed by uriparser, freed when it goes.
struct Uri {
  UriUriA uri{};
  bool ok = false;
  explicit Uri(const std::string& text) {
    const char* error = nullptr;
    ok = uriParseSingleUriExA(&uri, text.data(), text.data() + text.size(), &error) == URI_SUCCESS;
  }
  Uri() = default;
  Uri(const Uri&) = delete;
  Uri& operator=(const Uri&) = delete;
  ~Uri() { uriFreeUriMembersA(&uri); }
};

}  // namespace

std::string resolve_url(std::string_view base, std::string_view reference) {
  reference = trim(reference);
  const std::string ref_text = encoded_for_parsing(reference);
  Uri ref(ref_text);
  if (!ref.ok) return std::string(reference);
  if (ref.uri.scheme.first != nullptr) return std::string(reference);  // absolute already
  const std::string base_text = encoded_for_parsing(trim(base));
  Uri base_uri(base_text);
  if (!base_uri.ok || base_uri.uri.scheme.first == nullptr) return std::string(reference);
  Uri resolved;
  if (uriAddBaseUriExA(&resolved.uri, &ref.uri, &base_uri.uri, URI_RESOLVE_STRICTLY) != URI_SUCCESS)
    return std::string(reference);
  int chars = 0;
  if (uriToStringCharsRequiredA(&resolved.uri, &chars) != URI_SUCCESS) return std::string(reference);
  std::string out(static_cast<std::size_t>(chars) + 1, '\0');
  if (uriToStringA(out.data(), &resolved.uri, chars + 1, nullptr) != URI_SUCCESS) return std::string(reference);
  out.resize(static_cast<std::size_t>(chars));
  return out;
}

}  // namespace husk
