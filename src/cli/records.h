// Reading JSONL record files (husk extract / husk sign output) line by
// line, plain or gzip, "-" for stdin.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "husk/status.h"

namespace husk::cli {

struct RecordLine {
  std::string source;  // "file:line" for messages
  std::string text;    // the line, without its newline
};

// Calls sink for every non-blank line of every input, in order. Inputs that
// cannot be opened or read whole are returned as errors; the others go on.
std::vector<Status> for_each_line(const std::vector<std::string>& inputs,
                                  const std::function<void(RecordLine&&)>& sink);

}  // namespace husk::cli
