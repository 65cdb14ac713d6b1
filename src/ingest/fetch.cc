#include "ingest/fetch.h"

#include <curl/curl.h>

#include "base/shared_library.h"
#include "base/text_util.h"

namespace husk {

namespace {

struct Body {
  std::string* bytes;
  std::size_t limit;
  bool over = false;
};

std::size_t append(char* data, std::size_t size, std::size_t count, void* user) {
  auto& body = *static_cast<Body*>(user);
  const std::size_t n = size * count;
  if (body.bytes->size() + n > body.limit) {
    body.over = true;
    return 0;  // libcurl stops the transfer: CURLE_WRITE_ERROR
  }
  body.bytes->append(data, n);
  return n;
}

// libcurl, opened at the first URL (base/shared_library.h), its global
// state set up once before the first handle.
struct Curl {
  SharedLibrary library{"libcurl.so.4"};
  decltype(&curl_global_init) global_init = HUSK_LIBRARY_SYMBOL(library, curl_global_init);
  decltype(&curl_easy_init) easy_init = HUSK_LIBRARY_SYMBOL(library, curl_easy_init);
  decltype(&curl_easy_setopt) easy_setopt = HUSK_LIBRARY_SYMBOL(library, curl_easy_setopt);
  decltype(&curl_easy_perform) easy_perform = HUSK_LIBRARY_SYMBOL(library, curl_easy_perform);
  decltype(&curl_easy_getinfo) easy_getinfo = HUSK_LIBRARY_SYMBOL(library, curl_easy_getinfo);
  decltype(&curl_easy_header) easy_header = HUSK_LIBRARY_SYMBOL(library, curl_easy_header);
  decltype(&curl_easy_strerror) easy_strerror = HUSK_LIBRARY_SYMBOL(library, curl_easy_strerror);
  decltype(&curl_easy_cleanup) easy_cleanup = HUSK_LIBRARY_SYMBOL(library, curl_easy_cleanup);
  CURLcode global = library.ok() ? global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
};

const Curl& curl_library() { return opened<Curl>(); }

std::string header_of(const Curl& lib, CURL* curl, const char* name) {
  curl_header* h = nullptr;
  if (lib.easy_header(curl, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK || h == nullptr) return {};
  return h->value;
}

}  // namespace

bool is_url(std::string_view input) { return starts_with_ci(input, "http://") || starts_with_ci(input, "https://"); }

RawPage fetch_page(const std::string& url, const IngestOptions& options) {
  const Curl& lib = curl_library();
  RawPage page;
  page.id = url;
  page.url = url;
  page.source = url;
  if (!lib.library.ok() || lib.global != CURLE_OK) {
    page.status = Status(Code::kUnsupported,
                         url + ": " + (lib.library.ok() ? std::string("libcurl cannot start") : lib.library.error()));
    return page;
  }
  CURL* curl = lib.easy_init();
  if (curl == nullptr) {
    page.status = Status(Code::kInternal, url + ": cannot start an HTTP transfer");
    return page;
  }
  Body body{&page.bytes, options.max_page_bytes};
  char error[CURL_ERROR_SIZE] = {0};
  lib.easy_setopt(curl, CURLOPT_URL, url.c_str());
  lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");  // never file:// or others, redirects included
  lib.easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  lib.easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
  lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl decodes (gzip, deflate, br)
  lib.easy_setopt(curl, CURLOPT_USERAGENT, "husk/0.1 (+boilerplate removal)");
  lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.fetch_timeout_ms));
  lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.fetch_timeout_ms));
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe on worker threads
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, &append);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode rc = lib.easy_perform(curl);
  long status = 0;
  lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  page.http_status = static_cast<int>(status);
  char* effective = nullptr;
  if (lib.easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK && effective != nullptr)
    page.url = effective;
  if (rc == CURLE_OK) {
    page.content_type = header_of(lib, curl, "Content-Type");
    page.content_language = header_of(lib, curl, "Content-Language");
  }
  lib.easy_cleanup(curl);
  if (body.over) {
    page.status = Status(Code::kLimit, url + ": the page is over " + std::to_string(options.max_page_bytes) + " bytes");
  } else if (rc != CURLE_OK) {
    page.status = Status(rc == CURLE_OPERATION_TIMEDOUT ? Code::kTimeout : Code::kIo,
                         url + ": " + (error[0] != '\0' ? std::string(error) : std::string(lib.easy_strerror(rc))));
  } else if ((status < 200 || status > 299) && !options.all_statuses) {
    page.status = Status(Code::kNotFound, url + ": HTTP " + std::to_string(status));
  }
  if (!page.status.ok()) page.bytes.clear();
  return page;
}

}  // namespace husk
