#include "cli/common.h"

#include <filesystem>

#include "base/text_util.h"

namespace husk::cli {

int fail(const char* command, const std::string& message, int code) {
  std::fprintf(stderr, "husk %s: %s\n", command, message.c_str());
  return code;
}

Status not_an_input(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty() || path == "-") return Status();  // nothing written, or stdout
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (input != "-" && std::filesystem::equivalent(path, input, ec))
      return Status(Code::kInvalidArgument, path + " is also an input: writing it would empty it before it is read");
  }
  return Status();
}

Status Output::open(const std::string& path, const std::vector<std::string>& inputs) {
  if (path == "-") return Status();
  if (Status st = not_an_input(path, inputs); !st.ok()) return st;
  file_.open(path, std::ios::binary | std::ios::trunc);
  if (!file_) return Status(Code::kIo, path + ": cannot open for writing");
  out_ = &file_;
  return Status();
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    if (comma > pos) out.push_back(text.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

std::string not_records(std::string_view first_line) {
  std::string_view t = trim(first_line);  // the line reader has dropped a byte order mark
  if (starts_with_ci(t, "WARC/")) return "this is a WARC file, not husk extract's records: run husk extract first";
  if (!t.empty() && t.front() == '<') return "this is HTML, not husk extract's records: run husk extract first";
  return {};
}

std::vector<Document> analyze_all(const std::vector<std::string>& inputs, const IngestOptions& ingest_options,
                                  const Processor& processor, unsigned jobs, bool keep_dom, IngestStats& stats) {
  std::vector<Document> documents;
  OrderedBatches<RawPage, Document> analyze(
      OrderedBatches<RawPage, Document>::resolve_jobs(jobs),
      [&](const RawPage& page) { return processor.analyze(page, keep_dom); },
      [&](const RawPage&, Document& d) { documents.push_back(std::move(d)); });
  stats = ingest(inputs, ingest_options, [&](RawPage&& page) {
    std::size_t size = page.bytes.size();
    analyze.push(std::move(page), size);
    return true;
  });
  analyze.finish();
  return documents;
}

}  // namespace husk::cli
