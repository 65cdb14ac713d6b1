#include "husk/ingest.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "base/text_util.h"
#include "ingest/fetch.h"
#include "ingest/gz_reader.h"
#include "ingest/lines.h"
#include "ingest/warc.h"

namespace husk {

namespace fs = std::filesystem;

namespace {

enum class Format { kHtml, kWarc, kJsonl, kOther };

std::string_view strip_gz(std::string_view name) {
  if (ends_with_ci(name, ".gz")) name.remove_suffix(3);
  return name;
}

Format format_from_name(std::string_view name) {
  name = strip_gz(name);
  if (ends_with_ci(name, ".warc") || ends_with_ci(name, ".arc.warc")) return Format::kWarc;
  if (ends_with_ci(name, ".jsonl") || ends_with_ci(name, ".ndjson")) return Format::kJsonl;
  for (std::string_view ext : {".html", ".htm", ".xhtml", ".shtml"})
    if (ends_with_ci(name, ext)) return Format::kHtml;
  return Format::kOther;
}

// For "-" and files without a known extension: look at the first bytes.
Format sniff(GzReader& reader) {
  std::string head = reader.peek(64);
  if (starts_with_ci(head, "WARC/")) return Format::kWarc;
  std::string_view t = trim(head);
  // A UTF-8 byte order mark (Windows editors write one) before the first
  // record; the JSONL reader skips it.
  if (t.starts_with("\xEF\xBB\xBF")) t = trim(t.substr(3));
  if (!t.empty() && t.front() == '{') return Format::kJsonl;
  return Format::kHtml;
}

// Walks a directory tree (symbolic links to directories are not
// followed) for the files ingest reads, sorted by relative path. A
// subdirectory that cannot be read is reported in `errors` and the walk
// goes on with the rest.
std::vector<std::pair<std::string, fs::path>> page_files(const std::string& root, std::vector<Status>& errors,
                                                         const std::vector<std::string>& leave_out = {}) {
  // By name first, so that a walk stats no file twice.
  auto left_out = [&](const fs::path& file) {
    for (const std::string& out : leave_out) {
      std::error_code ec;
      if (fs::path(out).filename() == file.filename() && fs::equivalent(out, file, ec)) return true;
    }
    return false;
  };
  std::vector<std::pair<std::string, fs::path>> files;
  // Each directory beside its path under the root, which names its files:
  // fs::relative would resolve both paths through the file system (a
  // readlink for every component of each, eleven calls a page on the
  // development sets).
  std::vector<std::pair<fs::path, fs::path>> pending{{fs::path(root), fs::path()}};
  while (!pending.empty()) {
    auto [dir, under] = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      errors.emplace_back(Code::kIo, dir.string() + ": " + ec.message());
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        errors.emplace_back(Code::kIo, dir.string() + ": " + ec.message());
        break;
      }
      std::error_code kind_ec;
      if (it->is_directory(kind_ec) && !it->is_symlink(kind_ec)) {
        pending.emplace_back(it->path(), under / it->path().filename());
        continue;
      }
      if (!it->is_regular_file(kind_ec)) continue;
      std::string name = it->path().filename().string();
      if (format_from_name(name) == Format::kOther || left_out(it->path())) continue;
      files.emplace_back((under / name).generic_string(), it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Ingester {
 public:
  Ingester(const IngestOptions& options, const PageSink& sink) : options_(options), sink_(sink) {}

  // Returns false when the sink asked to stop.
  bool input(const std::string& arg) {
    if (arg == "-") return file("-", "-", Format::kOther);
    if (is_url(arg)) return emit(fetch_page(arg, options_));
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      stats_.input_errors.emplace_back(Code::kNotFound, arg + ": no such file or directory");
      return true;
    }
    if (fs::is_directory(st)) return directory(arg);
    return file(arg, arg, format_from_name(arg));
  }

  IngestStats& stats() { return stats_; }

 private:
  // A directory's page files, in order.
  bool directory(const std::string& root) {
    for (const auto& [rel, path] : page_files(root, stats_.input_errors, options_.leave_out))
      if (!file(path.string(), rel, format_from_name(rel))) return false;
    return true;
  }

  bool file(const std::string& path, const std::string& id, Format format) {
    GzReader reader;
    Status st = reader.open(path);
    if (!st.ok()) {
      stats_.input_errors.push_back(st);
      return true;
    }
    if (format == Format::kOther) format = sniff(reader);
    switch (format) {
      case Format::kWarc:
        return read_warc(reader, path, options_, stats_, sink_);
      case Format::kJsonl:
        return jsonl(reader, path);
      default:
        return html(reader, path, id);
    }
  }

  bool html(GzReader& reader, const std::string& path, const std::string& id) {
    RawPage page;
    page.id = id;
    page.source = path;
    reader.read_all(page.bytes, options_.max_page_bytes);
    if (!reader.status().ok()) {
      page.status = reader.status();
      page.bytes.clear();
    }
    return emit(std::move(page));
  }

  // One page per line; a line that is not a page is a page with an error.
  bool jsonl(GzReader& reader, const std::string& path) {
    bool go_on = true;
    std::size_t last_line = 0;
    Status read = for_each_line(
        reader, path,
        [&](Line&& line) {
          last_line = line.number;
          Result<RawPage> page = line.status.ok() ? page_from_json(line.text) : Result<RawPage>(line.status);
          RawPage out = page.ok() ? std::move(*page) : RawPage{};
          if (!page.ok()) out.status = page.status();
          if (out.id.empty()) out.id = line.source;
          out.source = line.source;
          go_on = emit(std::move(out));
          return go_on;
        },
        options_.max_page_bytes * 2);
    if (!read.ok()) {
      // The reader cannot continue past a broken stream: the failure is the
      // next record's.
      RawPage page;
      page.id = page.source = path + ":" + std::to_string(last_line + 1);
      page.status = read;
      return emit(std::move(page));
    }
    return go_on;
  }

  bool emit(RawPage&& page) {
    ++stats_.pages;
    return sink_(std::move(page));
  }

  const IngestOptions& options_;
  const PageSink& sink_;
  IngestStats stats_;
};

}  // namespace

Result<RawPage> page_from_json(std::string_view json_text) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status(Code::kCorrupt, "not a JSON object");
  RawPage page;
  for (auto [field, target] : {std::pair<const char*, std::string*>{"id", &page.id}, {"url", &page.url}}) {
    auto it = j.find(field);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_string()) return Status(Code::kInvalidArgument, std::string("\"") + field + "\" must be a string");
    *target = it->get<std::string>();
  }
  auto html = j.find("html");
  if (html == j.end() || !html->is_string()) return Status(Code::kInvalidArgument, "record has no \"html\" string");
  page.bytes = html->get<std::string>();
  page.is_unicode = true;
  return page;
}

IngestStats ingest(const std::vector<std::string>& inputs, const IngestOptions& options, const PageSink& sink) {
  Ingester ingester(options, sink);
  for (const std::string& input : inputs)
    if (!ingester.input(input)) break;
  return std::move(ingester.stats());
}

std::size_t count_pages(const std::vector<std::string>& inputs) {
  std::size_t pages = 0;
  for (const std::string& input : inputs) {
    if (input == "-") return 0;
    if (is_url(input)) {
      ++pages;  // one page each
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      std::vector<Status> ignored;
      for (const auto& [rel, path] : page_files(input, ignored)) {
        if (format_from_name(rel) != Format::kHtml) return 0;
        ++pages;
      }
    } else if (format_from_name(input) == Format::kHtml) {
      ++pages;
    } else if (fs::exists(input, ec)) {
      return 0;  // WARC, JSONL or a file sniffed when read
    }
  }
  return pages;
}

}  // namespace husk
