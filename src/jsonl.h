// Reading JSONL files of JSON objects (plain or gzip) for the evaluators.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "husk/status.h"

namespace husk {

// Calls `each` with every non-blank line parsed as a JSON object and its
// line number; a line that is not an object, or a non-ok Status from
// `each`, stops the reading with that error ("path:line: ...").
Status for_each_json_object(const std::string& path,
                            const std::function<Status(const nlohmann::json&, std::size_t)>& each);

}  // namespace husk
