#include "ingest/fetch.h"

#include <curl/curl.h>

#include <mutex>

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

// libcurl's global state is set up once, before the first handle.
void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string header_of(CURL* curl, const char* name) {
  curl_header* h = nullptr;
  if (curl_easy_header(curl, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK || h == nullptr) return {};
  return h->value;
}

}  // namespace

bool is_url(std::string_view input) { return starts_with_ci(input, "http://") || starts_with_ci(input, "https://"); }

RawPage fetch_page(const std::string& url, const IngestOptions& options) {
  init_curl();
  RawPage page;
  page.id = url;
  page.url = url;
  page.source = url;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    page.status = Status(Code::kInternal, url + ": cannot start an HTTP transfer");
    return page;
  }
  Body body{&page.bytes, options.max_page_bytes};
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");  // never file:// or others, redirects included
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl decodes (gzip, deflate, br)
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "husk/0.1 (+boilerplate removal)");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.fetch_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.fetch_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe on worker threads
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  page.http_status = static_cast<int>(status);
  char* effective = nullptr;
  if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK && effective != nullptr)
    page.url = effective;
  if (rc == CURLE_OK) {
    page.content_type = header_of(curl, "Content-Type");
    page.content_language = header_of(curl, "Content-Language");
  }
  curl_easy_cleanup(curl);
  if (body.over) {
    page.status = Status(Code::kLimit, url + ": the page is over " + std::to_string(options.max_page_bytes) + " bytes");
  } else if (rc != CURLE_OK) {
    page.status = Status(rc == CURLE_OPERATION_TIMEDOUT ? Code::kTimeout : Code::kIo,
                         url + ": " + (error[0] != '\0' ? std::string(error) : std::string(curl_easy_strerror(rc))));
  } else if ((status < 200 || status > 299) && !options.all_statuses) {
    page.status = Status(Code::kNotFound, url + ": HTTP " + std::to_string(status));
  }
  if (!page.status.ok()) page.bytes.clear();
  return page;
}

}  // namespace husk
