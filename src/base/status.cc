#include "husk/status.h"

#include <cstdio>
#include <cstdlib>

namespace husk {

const char* code_name(Code code) {
  switch (code) {
    case Code::kOk: return "ok";
    case Code::kInvalidArgument: return "invalid argument";
    case Code::kNotFound: return "not found";
    case Code::kIo: return "io";
    case Code::kCorrupt: return "corrupt";
    case Code::kLimit: return "limit";
    case Code::kUnsupported: return "unsupported";
    case Code::kInternal: return "internal";
    case Code::kTimeout: return "timeout";
  }
  return "unknown";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  std::string out = std::string(code_name(code_)) + ": " + message_;
  if (offset_ != kNoOffset) out += " (at byte " + std::to_string(offset_) + ")";
  return out;
}

void die_unchecked(const Status& status) {
  std::fprintf(stderr, "husk: the value of a failed Result was read: %s\n", status.to_string().c_str());
  std::abort();
}

}  // namespace husk
