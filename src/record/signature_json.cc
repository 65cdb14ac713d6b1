// The "sig" object: the one JSON codec of a page's signatures, written by
// husk sign, the processor and the service, read back by husk dedup, the
// index and Python (docs/cli.md gives the encoding).
#include "record/signature_json.h"

#include <charconv>

#include "sign/hashing.h"

namespace husk {

std::string signatures_json(const Signatures& sig) { return signatures_to_json(sig).dump(); }

nlohmann::ordered_json signatures_to_json(const Signatures& sig) {
  nlohmann::ordered_json j;
  j["terms"] = sig.terms;
  auto hex_list = [](const auto& values, auto spell) {
    nlohmann::json a = nlohmann::json::array();
    for (auto v : values) a.push_back(spell(v));
    return a;
  };
  if (!sig.md5.empty()) j["md5"] = sig.md5;
  if (sig.tfidf) j["tfidf"] = hex32(*sig.tfidf);
  if (sig.long_sent) j["long_sent"] = hex32(*sig.long_sent);
  if (sig.heavy_sent) j["heavy_sent"] = hex32(*sig.heavy_sent);
  if (!sig.lexrand.empty())
    j["lexrand"] = hex_list(sig.lexrand, [](const std::pair<uint32_t, uint32_t>& p) {
      return std::to_string(p.first) + ":" + hex32(p.second);
    });
  if (!sig.imatch.empty()) j["imatch"] = sig.imatch;
  if (sig.simhash) j["simhash"] = hex64(*sig.simhash);
  if (sig.simhash_hyperplane) j["simhash_hyperplane"] = hex64(*sig.simhash_hyperplane);
  if (!sig.minhash.empty()) j["minhash"] = hex_list(sig.minhash, hex32);
  if (!sig.minhash_bands.empty()) j["minhash_bands"] = hex_list(sig.minhash_bands, hex64);
  if (!sig.shingles.empty()) j["shingles"] = hex_list(sig.shingles, hex32);
  if (!sig.supershingles.empty()) j["supershingles"] = hex_list(sig.supershingles, hex64);
  if (!sig.spotsigs.empty()) j["spotsigs"] = hex_list(sig.spotsigs, hex32);
  return j;
}

namespace {

bool parse_hex(const nlohmann::json& v, uint64_t& out, std::size_t digits) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() != digits) return false;
  out = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    out = out << 4 | static_cast<uint64_t>(d);
  }
  return true;
}

}  // namespace

Result<Signatures> signatures_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Status(Code::kCorrupt, "sig is not an object");
  Signatures s;
  auto bad = [](const char* field) { return Status(Code::kCorrupt, std::string("sig.") + field + " is malformed"); };
  uint64_t v = 0;
  if (auto it = j.find("terms"); it != j.end()) {
    if (!it->is_number_unsigned() || it->get<uint64_t>() > UINT32_MAX) return bad("terms");
    s.terms = static_cast<uint32_t>(it->get<uint64_t>());
  }
  if (auto it = j.find("md5"); it != j.end()) {
    if (!it->is_string() || it->get_ref<const std::string&>().size() != 32) return bad("md5");
    s.md5 = it->get<std::string>();
  }
  if (auto it = j.find("imatch"); it != j.end()) {
    if (!it->is_string() || it->get_ref<const std::string&>().size() != 40) return bad("imatch");
    s.imatch = it->get<std::string>();
  }
  struct Scalar32 {
    const char* name;
    std::optional<uint32_t> Signatures::*field;
  };
  for (const Scalar32& f : {Scalar32{"tfidf", &Signatures::tfidf}, Scalar32{"long_sent", &Signatures::long_sent},
                            Scalar32{"heavy_sent", &Signatures::heavy_sent}}) {
    if (auto it = j.find(f.name); it != j.end()) {
      if (!parse_hex(*it, v, 8)) return bad(f.name);
      s.*f.field = static_cast<uint32_t>(v);
    }
  }
  struct Scalar64 {
    const char* name;
    std::optional<uint64_t> Signatures::*field;
  };
  for (const Scalar64& f : {Scalar64{"simhash", &Signatures::simhash},
                            Scalar64{"simhash_hyperplane", &Signatures::simhash_hyperplane}}) {
    if (auto it = j.find(f.name); it != j.end()) {
      if (!parse_hex(*it, v, 16)) return bad(f.name);
      s.*f.field = v;
    }
  }
  // A list of fixed-width hex values, as wide as the vector's type.
  auto list = [&]<typename T>(const char* name, std::vector<T>& out) {
    auto it = j.find(name);
    if (it == j.end()) return true;
    if (!it->is_array()) return false;
    for (const auto& item : *it) {
      if (!parse_hex(item, v, 2 * sizeof(T))) return false;
      out.push_back(static_cast<T>(v));
    }
    return true;
  };
  if (!list("minhash", s.minhash)) return bad("minhash");
  if (!list("spotsigs", s.spotsigs)) return bad("spotsigs");
  if (!list("minhash_bands", s.minhash_bands)) return bad("minhash_bands");
  if (!list("shingles", s.shingles)) return bad("shingles");
  if (!std::is_sorted(s.shingles.begin(), s.shingles.end())) return bad("shingles");
  if (!list("supershingles", s.supershingles)) return bad("supershingles");
  // Duplicates are keyed by every pair of a page's super-shingles
  // (src/dedup/find_pairs.cc): the signer writes six, and a list of
  // thousands would make that step quadratic.
  if (s.supershingles.size() > kMaxSupershingles)
    return Status(Code::kLimit, "sig.supershingles holds " + std::to_string(s.supershingles.size()) +
                                    " values; at most " + std::to_string(kMaxSupershingles) + " are read");
  if (auto it = j.find("lexrand"); it != j.end()) {
    if (!it->is_array()) return bad("lexrand");
    for (const auto& item : *it) {
      if (!item.is_string()) return bad("lexrand");
      const std::string& text = item.get_ref<const std::string&>();
      std::size_t colon = text.find(':');
      uint32_t copy = 0;
      if (colon == std::string::npos || colon == 0 || !parse_hex(nlohmann::json(text.substr(colon + 1)), v, 8))
        return bad("lexrand");
      auto [end, ec] = std::from_chars(text.data(), text.data() + colon, copy);
      if (ec != std::errc() || end != text.data() + colon) return bad("lexrand");
      s.lexrand.emplace_back(copy, static_cast<uint32_t>(v));
    }
  }
  return s;
}

Result<Signatures> parse_signatures(std::string_view json_text) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded()) return Status(Code::kCorrupt, "sig is not JSON");
  return signatures_from_json(j);
}

}  // namespace husk
