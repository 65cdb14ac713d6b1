#include "record/signature_file.h"

#include <cstring>
#include <fstream>

#include "base/bytes.h"
#include "sign/hashing.h"

namespace husk {

namespace {

constexpr char kMagic[8] = {'H', 'U', 'S', 'K', 'S', 'I', 'G', '\n'};
constexpr uint32_t kVersion = 1;
// The largest payload read: a page's signatures are a few KB; a length
// beyond this is corruption, not a page.
constexpr uint32_t kMaxPayload = 64u << 20;

void put_string(std::string& out, const std::string& s) {
  put_bytes<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out += s;
}
template <typename T>
void put_optional(std::string& out, const std::optional<T>& v) {
  put_bytes<uint8_t>(out, v ? 1 : 0);
  put_bytes<T>(out, v.value_or(0));
}
template <typename T>
void put_list(std::string& out, const std::vector<T>& v) {
  put_bytes<uint32_t>(out, static_cast<uint32_t>(v.size()));
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}
template <typename T>
std::optional<T> take_optional(ByteReader& r) {
  auto present = r.take<uint8_t>();
  T v = r.take<T>();
  return present ? std::optional<T>(v) : std::nullopt;
}

// One record's payload; false when it is malformed.
bool decode_fields(std::string_view payload, DedupPage& page) {
  ByteReader r{payload};
  page.id = r.string();
  page.url = r.string();
  page.title = r.string();
  page.language = r.string();
  page.rank = r.take<double>();
  page.boilerplate = r.take<double>();
  Signatures& s = page.sig;
  s.terms = r.take<uint32_t>();
  s.md5 = r.string();
  s.imatch = r.string();
  s.tfidf = take_optional<uint32_t>(r);
  s.long_sent = take_optional<uint32_t>(r);
  s.heavy_sent = take_optional<uint32_t>(r);
  s.simhash = take_optional<uint64_t>(r);
  s.simhash_hyperplane = take_optional<uint64_t>(r);
  for (uint64_t v : r.list<uint64_t>()) s.lexrand.emplace_back(static_cast<uint32_t>(v >> 32), static_cast<uint32_t>(v));
  s.minhash = r.list<uint32_t>();
  s.minhash_bands = r.list<uint64_t>();
  s.shingles = r.list<uint32_t>();
  s.supershingles = r.list<uint64_t>();
  s.spotsigs = r.list<uint32_t>();
  return r.ok && r.in.empty();
}

// One record's payload against its check, decoded: what is wrong with it,
// the same for a file and for pages sent between ranks.
Status decode_payload(std::string_view payload, uint32_t check, DedupPage& page) {
  if (check != static_cast<uint32_t>(xxh64(payload, 0))) return Status(Code::kCorrupt, "checksum mismatch");
  page = DedupPage();
  if (!decode_fields(payload, page)) return Status(Code::kCorrupt, "malformed record");
  if (page.sig.supershingles.size() > kMaxSupershingles) return Status(Code::kCorrupt, "more than 64 super-shingles");
  return Status();
}

}  // namespace

std::string signature_file_header() {
  std::string out(kMagic, sizeof(kMagic));
  put_bytes<uint32_t>(out, kVersion);
  put_bytes<uint32_t>(out, 0);
  return out;
}

void append_signature_record(std::string& out, const DedupPage& page) {
  std::string p;
  for (const std::string* s : {&page.id, &page.url, &page.title, &page.language}) put_string(p, *s);
  put_bytes(p, page.rank);
  put_bytes(p, page.boilerplate);
  const Signatures& s = page.sig;
  put_bytes(p, s.terms);
  put_string(p, s.md5);
  put_string(p, s.imatch);
  put_optional(p, s.tfidf);
  put_optional(p, s.long_sent);
  put_optional(p, s.heavy_sent);
  put_optional(p, s.simhash);
  put_optional(p, s.simhash_hyperplane);
  std::vector<uint64_t> lexrand;
  for (const auto& [copy, hash] : s.lexrand) lexrand.push_back(static_cast<uint64_t>(copy) << 32 | hash);
  put_list(p, lexrand);
  put_list(p, s.minhash);
  put_list(p, s.minhash_bands);
  put_list(p, s.shingles);
  put_list(p, s.supershingles);
  put_list(p, s.spotsigs);
  put_bytes<uint32_t>(out, static_cast<uint32_t>(p.size()));
  out += p;
  put_bytes<uint32_t>(out, static_cast<uint32_t>(xxh64(p, 0)));
}

bool is_signature_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof(kMagic)] = {};
  return in.read(magic, sizeof(magic)) && std::memcmp(magic, kMagic, sizeof(kMagic)) == 0;
}

Status read_signature_file(const std::string& path, const std::function<void(DedupPage&&)>& each) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(Code::kNotFound, path + ": cannot open");
  auto bad = [&](uint64_t offset, const std::string& what) {
    return Status(Code::kCorrupt, path + ": offset " + std::to_string(offset) + ": " + what);
  };
  std::string header(signature_file_header().size(), '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size())) ||
      std::memcmp(header.data(), kMagic, sizeof(kMagic)) != 0)
    return bad(0, "not a husk signature file");
  uint32_t version = 0;
  std::memcpy(&version, header.data() + sizeof(kMagic), sizeof(version));
  if (version != kVersion)
    return bad(8, "signature file version " + std::to_string(version) + ", this husk reads version " +
                      std::to_string(kVersion));
  uint64_t offset = header.size();
  std::string payload;
  while (true) {
    uint32_t length = 0, check = 0;
    if (!in.read(reinterpret_cast<char*>(&length), sizeof(length))) {
      if (in.gcount() == 0) return Status();
      return bad(offset, "truncated record length");
    }
    if (length > kMaxPayload) return bad(offset, "record length " + std::to_string(length) + " is not plausible");
    payload.resize(length);
    if (!in.read(payload.data(), length) || !in.read(reinterpret_cast<char*>(&check), sizeof(check)))
      return bad(offset, "truncated record");
    DedupPage page;
    if (Status st = decode_payload(payload, check, page); !st.ok()) return bad(offset, st.message());
    each(std::move(page));
    offset += sizeof(length) + length + sizeof(check);
  }
}

Status take_signature_record(std::string_view& in, DedupPage& page) {
  uint32_t length = 0, check = 0;
  if (!take_bytes(in, length) || length > kMaxPayload || in.size() < std::size_t(length) + sizeof(check))
    return Status(Code::kCorrupt, "truncated record");
  const std::string_view payload = in.substr(0, length);
  in.remove_prefix(length);
  take_bytes(in, check);
  return decode_payload(payload, check, page);
}

}  // namespace husk
