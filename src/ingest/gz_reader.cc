#include "ingest/gz_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace husk {

namespace {
constexpr std::size_t kChunk = 256u << 10;
}

GzReader::~GzReader() {
  if (file_ != nullptr) gzclose(file_);
}

Status GzReader::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    int fd = dup(STDIN_FILENO);
    if (fd >= 0) file_ = gzdopen(fd, "rb");
  } else {
    file_ = gzopen(path.c_str(), "rb");
  }
  if (file_ == nullptr) {
    return Status(Code::kIo, path + ": " + std::strerror(errno ? errno : ENOENT));
  }
  gzbuffer(file_, kChunk);
  return Status();
}

bool GzReader::fill() {
  if (eof_ || !status_.ok()) return false;
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  std::size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  int got = gzread(file_, buffer_.data() + old, kChunk);
  if (got < 0) got = 0;
  buffer_.resize(old + static_cast<std::size_t>(got));
  if (got == 0) {
    end_of_input();
    return false;
  }
  return true;
}

void GzReader::end_of_input() {
  int err = Z_OK;
  const char* msg = gzerror(file_, &err);
  if (err != Z_OK && err != Z_STREAM_END) {
    std::string what = err == Z_BUF_ERROR ? "truncated gzip stream" : msg;
    // zlib's message opens with the name it was opened under ("PATH: ",
    // or "<fd:N>: " for stdin); the status names the input once.
    const std::string zlib_name = path_ == "-" ? what.substr(0, what.find(">: ") + 1) : path_;
    if (what.starts_with(zlib_name + ": ")) what.erase(0, zlib_name.size() + 2);
    status_ = Status(Code::kCorrupt, path_ + ": " + what, offset_ + buffer_.size());
  }
  eof_ = true;
}

bool GzReader::read(std::size_t n, std::string& out) {
  std::size_t wanted = n;
  while (wanted > 0) {
    if (pos_ == buffer_.size() && !fill()) break;
    std::size_t take = std::min(wanted, buffer_.size() - pos_);
    out.append(buffer_, pos_, take);
    pos_ += take;
    offset_ += take;
    wanted -= take;
  }
  return wanted < n || n == 0;
}

bool GzReader::read_line(std::string& line, std::size_t max_bytes) {
  line.clear();
  bool any = false;
  bool over = false;
  for (;;) {
    if (pos_ == buffer_.size() && !fill()) break;
    any = true;
    const char* start = buffer_.data() + pos_;
    std::size_t avail = buffer_.size() - pos_;
    const void* nl = std::memchr(start, '\n', avail);
    std::size_t take = nl ? static_cast<const char*>(nl) - start : avail;
    if (!over) {
      if (line.size() + take > max_bytes) {
        over = true;
        line.clear();
      } else {
        line.append(start, take);
      }
    }
    pos_ += take;
    offset_ += take;
    if (nl) {
      ++pos_;
      ++offset_;
      break;
    }
  }
  line_over_ = over;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

// What is buffered, then zlib's output as it comes through a chunk that is
// never zeroed: fill() sizes the buffer for each read, which zeroes 256 KB
// every time, the last read that only finds the end included (2% of husk
// extract's instructions on AEB, callgrind).
void GzReader::read_all(std::string& out, std::size_t max_bytes) {
  out.append(buffer_, pos_);
  offset_ += buffer_.size() - pos_;
  buffer_.clear();
  pos_ = 0;
  if (!chunk_) chunk_ = std::make_unique_for_overwrite<char[]>(kChunk);
  while (out.size() <= max_bytes) {
    if (eof_ || !status_.ok()) return;
    const int got = gzread(file_, chunk_.get(), kChunk);
    if (got <= 0) {
      end_of_input();
      return;
    }
    out.append(chunk_.get(), static_cast<std::size_t>(got));
    offset_ += static_cast<std::size_t>(got);
  }
  if (status_.ok()) {
    status_ = Status(Code::kLimit, path_ + ": larger than the limit of " + std::to_string(max_bytes) + " bytes");
  }
}

std::string GzReader::peek(std::size_t n) {
  while (buffer_.size() - pos_ < n && fill()) {
  }
  return buffer_.substr(pos_, n);
}

}  // namespace husk
