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

namespace {

// RFC 3986 5.2.4: removes "." and ".." segments from a path.
std::string remove_dot_segments(std::string_view path) {
  std::string out;
  while (!path.empty()) {
    if (path.starts_with("../")) {
      path.remove_prefix(3);
    } else if (path.starts_with("./")) {
      path.remove_prefix(2);
    } else if (path.starts_with("/./")) {
      path.remove_prefix(2);
    } else if (path == "/.") {
      path = "/";
    } else if (path.starts_with("/../") || path == "/..") {
      path = path.size() == 3 ? std::string_view("/") : path.substr(3);
      std::size_t cut = out.rfind('/');
      out.resize(cut == std::string::npos ? 0 : cut);
    } else if (path == "." || path == "..") {
      path = {};
    } else {
      std::size_t next = path.find('/', 1);
      if (next == std::string_view::npos) next = path.size();
      out.append(path.substr(0, next));
      path.remove_prefix(next);
    }
  }
  return out;
}

// The scheme of a URL ("https"), or empty when it has none.
std::string_view scheme_of(std::string_view url) {
  for (std::size_t i = 0; i < url.size(); ++i) {
    char c = url[i];
    if (c == ':') return i > 0 ? url.substr(0, i) : std::string_view();
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return {};
  }
  return {};
}

}  // namespace

std::string resolve_url(std::string_view base, std::string_view reference) {
  reference = trim(reference);
  if (!scheme_of(reference).empty()) return std::string(reference);
  std::string_view scheme = scheme_of(base);
  if (scheme.empty()) return std::string(reference);
  std::string_view rest = base.substr(scheme.size() + 1);
  std::string_view authority;
  if (rest.starts_with("//")) {
    std::size_t end = rest.find_first_of("/?#", 2);
    if (end == std::string_view::npos) end = rest.size();
    authority = rest.substr(0, end);
    rest.remove_prefix(end);
  }
  std::string_view base_path = rest.substr(0, rest.find_first_of("?#"));
  std::string_view base_query = rest.substr(base_path.size());
  base_query = base_query.substr(0, base_query.find('#'));
  std::string prefix = std::string(scheme) + ":";
  if (reference.starts_with("//")) return prefix + std::string(reference);
  prefix += authority;
  if (reference.empty()) return prefix + std::string(base_path) + std::string(base_query);
  if (reference[0] == '#') return prefix + std::string(base_path) + std::string(base_query) + std::string(reference);
  if (reference[0] == '?') return prefix + std::string(base_path) + std::string(reference);
  std::size_t tail_at = reference.find_first_of("?#");
  std::string_view ref_path = reference.substr(0, tail_at);
  std::string_view tail = tail_at == std::string_view::npos ? std::string_view() : reference.substr(tail_at);
  std::string merged;
  if (ref_path.starts_with("/")) {
    merged = std::string(ref_path);
  } else if (!authority.empty() && base_path.empty()) {
    merged = "/" + std::string(ref_path);
  } else {
    std::size_t slash = base_path.rfind('/');
    merged = std::string(slash == std::string_view::npos ? std::string_view() : base_path.substr(0, slash + 1));
    merged += ref_path;
  }
  return prefix + remove_dot_segments(merged) + std::string(tail);
}

}  // namespace husk
