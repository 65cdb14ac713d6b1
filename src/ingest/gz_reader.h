// GzReader: buffered reading of plain or gzip files (any number of gzip
// members) through zlib's gz interface, with bounded line and block reads.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <memory>
#include <string>

#include "husk/status.h"

namespace husk {

class GzReader {
 public:
  GzReader() = default;
  ~GzReader();
  GzReader(const GzReader&) = delete;
  GzReader& operator=(const GzReader&) = delete;

  // path "-" reads standard input.
  Status open(const std::string& path);

  // Appends up to n bytes to out; returns false at a clean end of input.
  // A read error or truncated gzip stream sets status().
  bool read(std::size_t n, std::string& out);
  // Reads one line without its "\n" (and "\r"); false at end of input.
  // A line over max_bytes is consumed, returned empty, and flagged by
  // line_over(); reading goes on with the next line.
  bool read_line(std::string& line, std::size_t max_bytes);
  bool line_over() const { return line_over_; }
  // Reads all remaining input, up to max_bytes; more sets a kLimit status.
  void read_all(std::string& out, std::size_t max_bytes);
  // Peeks at up to n leading bytes without consuming them.
  std::string peek(std::size_t n);

  const Status& status() const { return status_; }
  // Uncompressed bytes consumed so far.
  std::size_t offset() const { return offset_; }

 private:
  bool fill();
  // After gzread found nothing more: the end, or the error status() names.
  void end_of_input();

  gzFile file_ = nullptr;
  std::string path_;
  std::string buffer_;
  std::unique_ptr<char[]> chunk_;  // read_all's, not zeroed
  std::size_t pos_ = 0;
  std::size_t offset_ = 0;
  bool eof_ = false;
  bool line_over_ = false;
  Status status_;
};

}  // namespace husk
