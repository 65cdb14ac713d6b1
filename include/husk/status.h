// Status and Result<T>: how husk's library reports failure.
//
// Library code never throws across its public surface and never exits; it
// returns a Status (code, message, byte offset where one is meaningful).
// Both types are [[nodiscard]]: a dropped error is a compile-time warning.
// Only the CLI turns them into exit codes and messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace husk {

enum class Code {
  kOk = 0,
  kInvalidArgument,  // the caller's options or input are unusable
  kNotFound,         // a file, record or key is absent
  kIo,               // the operating system refused a read or write
  kCorrupt,          // input is malformed (truncated gzip, bad WARC header)
  kLimit,            // a configured limit (bytes, depth, time) was hit
  kUnsupported,      // a valid input husk does not handle (unknown charset)
  kInternal,         // a fault inside husk or a library it calls, caught at a page's boundary
  kTimeout,          // a page took longer than its time budget (ProcessorOptions::page_timeout_ms)
};

const char* code_name(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message, std::size_t offset = kNoOffset)
      : code_(code), message_(std::move(message)), offset_(offset) {}

  static constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::size_t offset() const { return offset_; }
  // "corrupt: truncated gzip stream (at byte 1234)"; "ok" when ok.
  std::string to_string() const;
  // Marks a status as deliberately not acted on.
  void ignore() const {}

 private:
  Code code_ = Code::kOk;
  std::string message_;
  std::size_t offset_ = kNoOffset;
};

// Ends the process with the status text on stderr: what reading the value
// of a failed Result does in every build. Reaching it is a bug in the
// caller (it did not check ok()), never a consequence of input.
[[noreturn]] void die_unchecked(const Status& status);

// A value or the Status that explains its absence. The accessors check
// ok(): reading the value of a failed Result aborts with its status text
// (in release builds too) instead of reading an empty optional.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {
    if (status_.ok()) status_ = Status(Code::kInternal, "a Result was built from an ok status without a value");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return checked(); }
  const T& value() const { return checked(); }
  T& operator*() { return checked(); }
  const T& operator*() const { return checked(); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &checked(); }

 private:
  T& checked() {
    if (!value_) die_unchecked(status_);
    return *value_;
  }
  const T& checked() const {
    if (!value_) die_unchecked(status_);
    return *value_;
  }
  std::optional<T> value_;
  Status status_;
};

}  // namespace husk
