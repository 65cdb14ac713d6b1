// RawPage: one fetched page as it arrives, before any decoding.
#pragma once

#include <string>

namespace husk {

struct RawPage {
  std::string id;            // path relative to the input directory, WARC-Record-ID, or JSONL id
  std::string url;           // target URI when known (WARC, JSONL), else empty
  std::string source;        // where it was read, for messages: "a.warc.gz: record 12"
  std::string bytes;         // the page as fetched, any charset
  std::string content_type;  // HTTP Content-Type when known; its charset outranks <meta>
  bool is_unicode = false;   // bytes are already UTF-8 text (JSONL strings): no charset step
  std::string error;         // set when the record could not be read whole
};

}  // namespace husk
