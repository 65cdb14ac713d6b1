#include "ingest/warc.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/text_util.h"

namespace husk {

namespace {

// Splits "Name: value" header lines of a block into (lower-cased name, value).
struct HeaderBlock {
  std::vector<std::pair<std::string, std::string>> fields;
  std::string get(std::string_view name) const {
    for (const auto& [k, v] : fields)
      if (k == name) return v;
    return {};
  }
  void add_line(std::string_view line) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) return;
    fields.emplace_back(ascii_lower(trim(line.substr(0, colon))),
                        std::string(trim(line.substr(colon + 1))));
  }
};

Result<std::string> dechunk(std::string_view body) {
  std::string out;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t eol = body.find('\n', pos);
    if (eol == std::string_view::npos) return Status(Code::kCorrupt, "truncated chunk header", pos);
    std::string_view size_line = trim(body.substr(pos, eol - pos));
    size_line = size_line.substr(0, size_line.find(';'));
    std::size_t size = 0;
    auto [ptr, ec] = std::from_chars(size_line.data(), size_line.data() + size_line.size(), size, 16);
    if (ec != std::errc()) return Status(Code::kCorrupt, "bad chunk size", pos);
    pos = eol + 1;
    if (size == 0) break;
    if (size > body.size() - pos) return Status(Code::kCorrupt, "truncated chunk", pos);
    out.append(body.substr(pos, size));
    pos += size;
    while (pos < body.size() && (body[pos] == '\r' || body[pos] == '\n')) ++pos;
  }
  return out;
}

// Inflates body with zlib's window_bits convention; false unless the stream
// ends cleanly. Stops (false, `over` set) once the output passes `limit`.
bool inflate_with(int window_bits, std::string_view body, std::string& out, std::size_t limit, bool& over) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return false;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  int rc = Z_OK;
  char buf[1 << 16];
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
    if (out.size() > limit) {
      over = true;
      break;
    }
  }
  inflateEnd(&zs);
  return rc == Z_STREAM_END;
}

Result<std::string> inflate_body(std::string_view body, bool raw_deflate_fallback, std::size_t limit) {
  std::string out;
  bool over = false;
  // 15 + 32: zlib or gzip header, detected automatically.
  if (inflate_with(15 + 32, body, out, limit, over)) return out;
  // "deflate" bodies are sometimes raw DEFLATE without the zlib header.
  if (!over && raw_deflate_fallback && out.empty() && inflate_with(-15, body, out, limit, over)) return out;
  if (over)
    return Status(Code::kLimit, "compressed body inflates beyond the page limit of " + std::to_string(limit) + " bytes");
  return Status(Code::kCorrupt, "truncated or invalid compressed body");
}

}  // namespace

bool is_html_content_type(std::string_view content_type) {
  std::string ct = ascii_lower(content_type);
  return ct.find("text/html") != std::string::npos ||
         ct.find("application/xhtml") != std::string::npos;
}

Result<HttpResponse> parse_http_response(std::string_view message, std::size_t max_header_bytes,
                                         std::size_t max_body_bytes) {
  if (!starts_with_ci(message, "HTTP/")) return Status(Code::kCorrupt, "not an HTTP response");
  std::size_t header_end = message.find("\r\n\r\n");
  std::size_t body_start = header_end == std::string_view::npos ? 0 : header_end + 4;
  if (header_end == std::string_view::npos) {
    header_end = message.find("\n\n");
    if (header_end == std::string_view::npos) return Status(Code::kCorrupt, "HTTP headers never end");
    body_start = header_end + 2;
  }
  if (header_end > max_header_bytes) return Status(Code::kCorrupt, "HTTP headers too long");
  std::string_view head = message.substr(0, header_end);
  HttpResponse response;
  HeaderBlock headers;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= head.size()) {
    std::size_t eol = head.find('\n', pos);
    if (eol == std::string_view::npos) eol = head.size();
    std::string_view line = trim(head.substr(pos, eol - pos));
    if (first) {
      std::size_t sp = line.find(' ');
      if (sp != std::string_view::npos) {
        std::string_view code = line.substr(sp + 1, 3);
        std::from_chars(code.data(), code.data() + code.size(), response.status_code);
      }
      first = false;
    } else {
      headers.add_line(line);
    }
    pos = eol + 1;
  }
  response.content_type = headers.get("content-type");
  response.content_language = headers.get("content-language");
  std::string body(message.substr(body_start));
  if (ascii_lower(headers.get("transfer-encoding")).find("chunked") != std::string::npos) {
    auto plain = dechunk(body);
    if (!plain.ok()) return plain.status();
    body = std::move(*plain);
  }
  std::string encoding = ascii_lower(headers.get("content-encoding"));
  if (encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate") {
    auto plain = inflate_body(body, encoding == "deflate", max_body_bytes);
    if (!plain.ok()) return plain.status();
    body = std::move(*plain);
  } else if (!encoding.empty() && encoding != "identity") {
    return Status(Code::kUnsupported, "Content-Encoding " + encoding);
  }
  response.body = std::move(body);
  return response;
}

namespace {

// Reads lines up to the next WARC version line, which it consumes; false
// at the end of the input. Reading resumes there after a record whose
// Content-Length lies or cannot be read (resynchronisation): the records
// after it are not lost.
bool skip_to_version_line(GzReader& reader, std::string& line, std::size_t max_line_bytes) {
  while (reader.read_line(line, max_line_bytes))
    if (starts_with_ci(line, "WARC/1.")) return true;
  return false;
}

std::string resynchronised(bool found, const GzReader& reader) {
  return found ? "resynchronised at byte " + std::to_string(reader.offset()) : std::string("no later record");
}

}  // namespace

bool read_warc(GzReader& reader, const std::string& source, const IngestOptions& options,
               IngestStats& stats, const PageSink& sink) {
  std::string line;
  std::size_t record_no = 0;
  bool at_record = false;  // a resynchronisation has consumed the next version line
  for (;;) {
    if (!at_record) {
      // Skip blank lines between records, then expect the version line.
      bool got = false;
      while ((got = reader.read_line(line, options.max_header_bytes)) && trim(line).empty()) {
      }
      if (!got) {
        if (!reader.status().ok()) {
          RawPage page;
          page.id = source + "#" + std::to_string(record_no + 1);
          page.source = source;
          page.status = reader.status();
          ++stats.pages;
          return sink(std::move(page));
        }
        return true;
      }
    }
    ++record_no;
    std::string where = source + ": record " + std::to_string(record_no);
    if (!at_record && !starts_with_ci(line, "WARC/")) {
      // A Content-Length that lies leaves the reader inside a record. The
      // bytes up to the next version line are reported as one error.
      RawPage page;
      page.id = source + "#" + std::to_string(record_no);
      page.source = where;
      const std::size_t at = reader.offset();
      const bool found = skip_to_version_line(reader, line, options.max_header_bytes);
      page.status = Status(Code::kCorrupt, "expected a WARC/1.x version line at byte " + std::to_string(at) +
                                               " (a record's Content-Length is wrong); " +
                                               resynchronised(found, reader));
      ++stats.pages;
      if (!sink(std::move(page))) return false;
      if (!found) return true;
      ++record_no;
      where = source + ": record " + std::to_string(record_no);
    }
    at_record = false;
    HeaderBlock headers;
    std::size_t header_bytes = 0;
    while (reader.read_line(line, options.max_header_bytes) && !line.empty()) {
      header_bytes += line.size();
      if (header_bytes > options.max_header_bytes) break;
      headers.add_line(line);
    }
    std::size_t length = 0;
    std::string length_text = headers.get("content-length");
    auto [ptr, ec] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
    std::string type = ascii_lower(headers.get("warc-type"));
    std::string record_id = headers.get("warc-record-id");
    if (record_id.size() > 2 && record_id.front() == '<' && record_id.back() == '>')
      record_id = record_id.substr(1, record_id.size() - 2);

    RawPage page;
    page.id = record_id.empty() ? source + "#" + std::to_string(record_no) : record_id;
    page.url = headers.get("warc-target-uri");
    // WARC 1.0 wrote the URI in angle brackets, and wget still does:
    // "<http://example.org/>".
    if (page.url.size() >= 2 && page.url.front() == '<' && page.url.back() == '>')
      page.url = page.url.substr(1, page.url.size() - 2);
    page.source = where;
    if (ec != std::errc() || ptr != length_text.data() + length_text.size() || length_text.empty()) {
      // Missing, negative, not a number or past 64 bits: where the block
      // ends is unknown, so reading resumes at the next version line.
      const std::string given = length_text.empty() ? "none" : "\"" + length_text.substr(0, 40) + "\"";
      at_record = skip_to_version_line(reader, line, options.max_header_bytes);
      page.status = Status(Code::kCorrupt, "WARC record without a valid Content-Length (" + given + "); " +
                                               resynchronised(at_record, reader));
      ++stats.pages;
      if (!sink(std::move(page))) return false;
      if (!at_record) return true;
      continue;
    }
    // A response record is an HTTP message unless its Content-Type says
    // otherwise (text/dns, a WARC writer's own formats): writers that leave
    // the field out wrote the HTTP answer as it came, and a block that is no
    // HTTP message is reported as one, not skipped without a word.
    const std::string record_type = ascii_lower(headers.get("content-type"));
    bool wanted = type == "response" &&
                  (record_type.empty() || record_type.find("application/http") != std::string::npos);
    // A revisit record (wget --warc-dedup, Heritrix) stands for a page
    // already captured: it has no body to extract, but it is reported, with
    // the capture it points to, so that a crawl of revisits does not read
    // as an empty one.
    const bool revisit = type == "revisit";
    if (revisit) {
      std::string of = headers.get("warc-refers-to-target-uri");
      if (of.empty()) of = headers.get("warc-refers-to");
      if (of.size() >= 2 && of.front() == '<' && of.back() == '>') of = of.substr(1, of.size() - 2);
      page.status = Status(Code::kUnsupported, "revisit record" + (of.empty() ? std::string() : " of " + of) +
                                                   ": a page captured before, not extracted");
    }
    if (revisit || !wanted || length > options.max_page_bytes) {
      // Skip the block without keeping it.
      std::string sink_buf;
      std::size_t left = length;
      while (left > 0) {
        sink_buf.clear();
        std::size_t step = std::min<std::size_t>(left, 1u << 20);
        reader.read(step, sink_buf);
        if (sink_buf.size() < step) break;
        left -= step;
      }
      if (revisit) {
        ++stats.pages;
        if (!sink(std::move(page))) return false;
        continue;
      }
      if (!wanted) {
        ++stats.skipped;
        continue;
      }
      page.status = Status(Code::kLimit, "record of " + std::to_string(length) +
                                             " bytes is over the page limit of " +
                                             std::to_string(options.max_page_bytes));
      ++stats.pages;
      if (!sink(std::move(page))) return false;
      continue;
    }
    std::string block;
    reader.read(length, block);
    if (block.size() < length) {
      std::string what = "truncated WARC record (" + std::to_string(block.size()) + " of " +
                         std::to_string(length) + " bytes)";
      if (!reader.status().ok()) what += "; " + reader.status().to_string();
      page.status = Status(Code::kCorrupt, what);
      ++stats.pages;
      sink(std::move(page));
      return true;
    }
    auto http = parse_http_response(block, options.max_header_bytes, options.max_page_bytes);
    if (!http.ok()) {
      page.status = http.status();
    } else {
      const bool success = http->status_code >= 200 && http->status_code < 300;
      if (!is_html_content_type(http->content_type) || (!success && !options.all_statuses)) {
        ++stats.skipped;
        continue;
      }
      page.http_status = http->status_code;
      page.content_type = std::move(http->content_type);
      page.content_language = std::move(http->content_language);
      page.bytes = std::move(http->body);
    }
    ++stats.pages;
    if (!sink(std::move(page))) return false;
  }
}

}  // namespace husk
