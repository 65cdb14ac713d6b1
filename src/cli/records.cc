#include "cli/records.h"

#include "gz_reader.h"
#include "text_util.h"

namespace husk::cli {

std::vector<Status> for_each_line(const std::vector<std::string>& inputs,
                                  const std::function<void(RecordLine&&)>& sink) {
  std::vector<Status> errors;
  for (const std::string& input : inputs) {
    GzReader reader;
    if (Status st = reader.open(input); !st.ok()) {
      errors.push_back(st);
      continue;
    }
    std::string line;
    std::size_t line_no = 0;
    while (reader.read_line(line, std::size_t(1) << 30)) {
      ++line_no;
      if (trim(line).empty()) continue;
      sink(RecordLine{input + ":" + std::to_string(line_no), std::move(line)});
      line = std::string();
    }
    if (!reader.status().ok()) errors.push_back(reader.status());
  }
  return errors;
}

}  // namespace husk::cli
