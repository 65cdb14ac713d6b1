#include "ingest/lines.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/text_util.h"

namespace husk {

Status for_each_line(const std::string& input, const std::function<bool(Line&&)>& sink, std::size_t max_line_bytes) {
  GzReader reader;
  if (Status st = reader.open(input); !st.ok()) return st;
  return for_each_line(reader, input, sink, max_line_bytes);
}

Status for_each_line(GzReader& reader, const std::string& input, const std::function<bool(Line&&)>& sink,
                     std::size_t max_line_bytes) {
  std::string text;
  std::size_t number = 0;
  while (reader.read_line(text, max_line_bytes)) {
    ++number;
    Line line;
    line.source = input + ":" + std::to_string(number);
    line.number = number;
    // A UTF-8 byte order mark (Windows editors write one) is no part of the
    // first record, and copied into an output it would sit mid-file.
    if (number == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    if (reader.line_over()) {
      line.status = Status(Code::kLimit, line.source + ": line longer than " + std::to_string(max_line_bytes) + " bytes");
    } else if (trim(text).empty()) {
      continue;
    } else {
      line.text = std::move(text);
      text = std::string();
    }
    if (!sink(std::move(line))) return Status();
  }
  return reader.status();
}

std::size_t json_depth(const nlohmann::json& root) {
  std::size_t deepest = 0;
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&root, 1}};
  while (!stack.empty()) {
    auto [j, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (j->is_structured())
      for (const nlohmann::json& child : *j) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

Result<nlohmann::json> json_object(const Line& line) {
  if (!line.status.ok()) return line.status;
  nlohmann::json j = nlohmann::json::parse(line.text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status(Code::kCorrupt, line.source + ": not a JSON object");
  if (json_depth(j) > kMaxJsonDepth)
    return Status(Code::kCorrupt, line.source + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  return j;
}

Status for_each_json_object(const std::string& path,
                            const std::function<Status(const nlohmann::json&, const Line&)>& each) {
  Status failed;
  Status read = for_each_line(path, [&](Line&& line) {
    Result<nlohmann::json> j = json_object(line);
    failed = j.ok() ? each(*j, line) : j.status();
    return failed.ok();
  });
  return failed.ok() ? read : failed;
}

}  // namespace husk
