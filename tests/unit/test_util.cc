#include "unit/test_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <zlib.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "base/text_util.h"

namespace husk::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("husk-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string gzip(const std::string& bytes) {
  z_stream zs{};
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, bytes.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

CommandResult run_husk(const std::string& args) { return run_command(std::string(HUSK_BINARY) + " " + args); }

CommandResult run_command(const std::string& cmd) {
  CommandResult result;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) result.out.append(buf.data(), n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string token(std::string_view prefix, long long n) { return std::string(prefix).append(std::to_string(n)); }

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0)
    port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

std::string test_name(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

std::vector<uint64_t> planted_fingerprints(std::size_t n, uint32_t spread, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fp;
  while (fp.size() < n) {
    uint64_t centre = rng();
    fp.push_back(centre);
    std::size_t members = rng() % 6;
    for (std::size_t m = 0; m < members && fp.size() < n; ++m) {
      uint64_t v = centre;
      uint32_t flips = static_cast<uint32_t>(rng() % (spread + 1));
      for (uint32_t f = 0; f < flips; ++f) v ^= 1ull << (rng() % 64);
      fp.push_back(v);
    }
  }
  return fp;
}

std::vector<std::vector<std::string>> table_rows_after(const std::string& doc, const std::string& header) {
  std::vector<std::vector<std::string>> rows;
  std::size_t at = doc.find(header);
  if (at == std::string::npos) return rows;
  std::istringstream in(doc.substr(at));
  std::string line;
  std::getline(in, line);  // the header
  std::getline(in, line);  // |---|
  while (std::getline(in, line) && !line.empty() && line[0] == '|') {
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      std::string clean;
      for (char c : cell)
        if (c != '*') clean.push_back(c);
      const std::size_t b = clean.find_first_not_of(' '), e = clean.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : clean.substr(b, e - b + 1));
    }
    if (!cells.empty()) rows.push_back(std::move(cells));
  }
  return rows;
}

std::map<std::string, std::vector<std::string>> table_after(const std::string& doc, const std::string& header) {
  std::map<std::string, std::vector<std::string>> rows;
  for (const std::vector<std::string>& cells : table_rows_after(doc, header))
    rows[cells[0].substr(0, cells[0].find(' '))] = std::vector<std::string>(cells.begin() + 1, cells.end());
  return rows;
}

std::vector<std::string> row_containing(const std::vector<std::vector<std::string>>& rows, std::string_view label) {
  for (const std::vector<std::string>& cells : rows)
    if (cells[0].find(label) != std::string::npos) return std::vector<std::string>(cells.begin() + 1, cells.end());
  return {};
}

bool says(const std::string& doc, std::string_view phrase) {
  std::string plain;  // bold marks dropped
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (doc.compare(i, 2, "**") == 0) {
      ++i;
      continue;
    }
    plain.push_back(doc[i]);
  }
  return collapse_space(plain).find(collapse_space(phrase)) != std::string::npos;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(line);
  return out;
}

Blocks blocks_of(const std::string& html) {
  Result<Dom> dom = parse(html);
  EXPECT_TRUE(dom.ok());
  return segment(*dom);
}

std::string extract_text(const std::string& html, const std::string& extractor) {
  ProcessorOptions options;
  options.extractor = extractor;
  Result<Processor> processor = Processor::make(options);
  EXPECT_TRUE(processor.ok());
  RawPage page;
  page.id = "inline";
  page.bytes = html;
  PageResult r = processor->process(page);
  EXPECT_TRUE(r.status.ok()) << r.status.to_string();
  return r.text;
}

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

void missing(const std::string& what) {
  if (under_ci()) ADD_FAILURE() << what << " is missing; under CI make test provides it";
}

namespace {

std::string shared_path(const fs::path& path) {
  if (fs::exists(path)) return path.string();
  if (under_ci()) ADD_FAILURE() << path << " is missing; CI always has ../shared beside the checkout";
  return "";
}

}  // namespace

std::string blog_post_with_replies(int replies) {
  std::string page =
      "<html><head><title>Why the bus timetable changed | The Commuter's Notebook</title></head><body>"
      "<header><h1 id=\"site-title\"><a href=\"/\">The Commuter's Notebook</a></h1></header>"
      "<article class=\"post\"><h1 class=\"entry-title\">Why the bus timetable changed</h1>"
      "<div class=\"entry-meta\">Posted on <time datetime=\"2012-03-04\">March 4, 2012</time> by "
      "<span class=\"author vcard\">Tom</span></div><div class=\"entry-content\">"
      "<p>From Monday the number 12 bus leaves the station every fifteen minutes instead of every ten, and several "
      "readers have written to ask why the council agreed to cut the service on one of the busiest routes.</p>"
      "<p>The answer, according to the minutes of last month's transport committee, is money. The operator lost "
      "its subsidy for evening journeys and chose to spread the remaining buses across the whole day.</p>"
      "<p>Still, the morning peak will be more crowded. If you can travel before half past seven or after nine, "
      "you will probably find a seat; between those times, expect to stand from the ring road onwards.</p>"
      "</div></article><div id=\"comments\"><h2 id=\"comments-title\">" +
      std::to_string(replies) + " thoughts on \"Why the bus timetable changed\"</h2><ol class=\"commentlist\">";
  for (int i = 0; i < replies; ++i)
    page += "<li class=\"comment\"><article id=\"comment-" + std::to_string(i) + "\" class=\"comment\">"
            "<footer class=\"comment-meta\"><div class=\"comment-author vcard\"><span class=\"fn\">Reader " +
            std::to_string(i) + "</span> on <time>March 4, 2012 at 10:00 am</time> <span class=\"says\">said:"
            "</span></div></footer><div class=\"comment-content\"><p>Thanks for explaining this. I take the bus "
            "every morning and nobody at the stop knew why the change was happening at all.</p></div>"
            "<div class=\"reply\"><a class=\"comment-reply-link\" href=\"#\">Reply</a></div></article></li>";
  page += "</ol></div></body></html>";
  return page;
}

std::string dataset(const std::string& name) { return shared_path(fs::path(HUSK_SHARED) / "datasets" / name); }

std::string repro(const std::string& name) { return shared_path(fs::path(HUSK_SHARED) / "repro" / name); }

}  // namespace husk::test
