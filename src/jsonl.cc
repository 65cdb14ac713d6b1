#include "jsonl.h"

#include "gz_reader.h"
#include "text_util.h"

namespace husk {

Status for_each_json_object(const std::string& path,
                            const std::function<Status(const nlohmann::json&, std::size_t)>& each) {
  GzReader reader;
  if (Status st = reader.open(path); !st.ok()) return st;
  std::string line;
  std::size_t line_no = 0;
  while (reader.read_line(line, std::size_t(1) << 30)) {
    ++line_no;
    if (trim(line).empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return Status(Code::kCorrupt, path + ":" + std::to_string(line_no) + ": not a JSON object");
    if (Status st = each(j, line_no); !st.ok()) return st;
  }
  return reader.status();
}

}  // namespace husk
