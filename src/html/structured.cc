#include "html/structured.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "base/text_util.h"

namespace husk {

namespace {

// @type values anywhere in a JSON-LD value (objects, arrays, @graph).
void collect_types(const nlohmann::json& j, std::vector<std::string>& out, int depth) {
  if (depth > 16 || out.size() > 64) return;
  if (j.is_array()) {
    for (const auto& v : j) collect_types(v, out, depth + 1);
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key == "@type") {
        if (value.is_string()) out.push_back(value.get<std::string>());
        if (value.is_array())
          for (const auto& t : value)
            if (t.is_string()) out.push_back(t.get<std::string>());
      } else {
        collect_types(value, out, depth + 1);
      }
    }
  }
}

// Broken JSON-LD (trailing commas, raw newlines in strings, two objects
// pasted together) still names its types: "@type": "X" wherever it stands.
void scan_types(std::string_view text, std::vector<std::string>& out) {
  static const RE2 kType("\"@type\"\\s*:\\s*(?:\\[\\s*)?\"([^\"]{1,64})\"");
  re2::StringPiece input(text.data(), text.size());
  std::string type;
  while (out.size() <= 64 && RE2::FindAndConsume(&input, kType, &type)) out.push_back(type);
}

// "https://schema.org/Product" -> "Product".
std::string bare_type(std::string t) {
  if (std::size_t slash = t.find_last_of("/#:"); slash != std::string::npos) t.erase(0, slash + 1);
  return t;
}

bool is_product(const nlohmann::json& type) {
  auto one = [](const nlohmann::json& t) {
    if (!t.is_string()) return false;
    std::string bare = bare_type(t.get<std::string>());
    return bare == "Product" || bare == "ProductGroup" || bare == "IndividualProduct";
  };
  if (one(type)) return true;
  if (type.is_array())
    for (const auto& t : type)
      if (one(t)) return true;
  return false;
}

void collect_descriptions(const nlohmann::json& j, std::string& longest, int depth) {
  if (depth > 16) return;
  if (j.is_array()) {
    for (const auto& v : j) collect_descriptions(v, longest, depth + 1);
  } else if (j.is_object()) {
    auto type = j.find("@type");
    auto description = j.find("description");
    if (type != j.end() && is_product(*type) && description != j.end() && description->is_string() &&
        description->get_ref<const std::string&>().size() > longest.size())
      longest = description->get<std::string>();
    for (const auto& [key, value] : j.items())
      if (value.is_structured()) collect_descriptions(value, longest, depth + 1);
  }
}

// Hashes of the word 3-grams of a text (its words as the segmenter
// collapsed them), one word alone when it has fewer than three.
void word_grams(std::string_view text, std::vector<uint64_t>& out) {
  std::vector<uint64_t> words;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = text.find(' ', i);
    if (j == std::string_view::npos) j = text.size();
    if (j > i) words.push_back(std::hash<std::string_view>{}(text.substr(i, j - i)));
    i = j + 1;
  }
  if (words.size() < 3) {
    out.insert(out.end(), words.begin(), words.end());
    return;
  }
  for (std::size_t i = 0; i + 2 < words.size(); ++i)
    out.push_back(words[i] ^ (words[i + 1] * 0x9E3779B97F4A7C15ull) ^ (words[i + 2] * 0xC2B2AE3D27D4EB4Full));
}

// A description longer than this is not a product's description.
constexpr std::size_t kMaxDescriptionBytes = 64 * 1024;
// Below this many words it adds nothing a title would not.
constexpr std::size_t kMinDescriptionWords = 8;
// The page shows it when this share of its 3-grams is in the page's text.
constexpr double kShownShare = 0.5;

}  // namespace

std::vector<std::string> declared_types(const Blocks& blocks) {
  std::vector<std::string> raw;
  for (const std::string& script : blocks.json_ld) {
    nlohmann::json j = nlohmann::json::parse(script, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      scan_types(script, raw);
    } else {
      collect_types(j, raw, 0);
    }
  }
  for (const std::string& t : blocks.schema_types) raw.push_back(t);
  for (const auto& [key, value] : blocks.meta)
    if (key == "og:type") raw.push_back("og:" + ascii_lower(value));
  std::vector<std::string> out;
  for (std::string& t : raw) {
    std::string bare = t.rfind("og:", 0) == 0 ? t : bare_type(t);
    if (!bare.empty() && std::find(out.begin(), out.end(), bare) == out.end()) out.push_back(std::move(bare));
  }
  return out;
}

std::string declared_url(const Blocks& blocks) {
  if (!blocks.canonical.empty()) return blocks.canonical;
  for (const auto& [key, value] : blocks.meta)
    if (key == "og:url") return value;
  return {};
}

std::string product_description(const std::vector<std::string>& json_ld) {
  std::string longest;
  for (const std::string& script : json_ld) {
    nlohmann::json j = nlohmann::json::parse(script, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) collect_descriptions(j, longest, 0);
  }
  return longest;
}

void add_product_description(Blocks& blocks, const SegmentOptions& options) {
  if (blocks.json_ld.empty() || blocks.elements.empty()) return;
  std::string description = product_description(blocks.json_ld);
  if (description.empty() || description.size() > kMaxDescriptionBytes) return;
  // The description may hold markup or entities; either way the
  // segmenter makes blocks of it, paragraphs and lists as on a page.
  Result<Dom> dom = parse("<body>" + description + "</body>");
  if (!dom.ok()) return;
  SegmentOptions inner = options;
  inner.product_description = false;
  Blocks parsed = segment(*dom, inner);
  std::size_t words = 0;
  std::vector<uint64_t> grams;
  for (const Block& b : parsed.blocks) {
    words += b.features.words;
    word_grams(b.text, grams);
  }
  if (words < kMinDescriptionWords) return;
  std::vector<uint64_t> page;
  for (const Block& b : blocks.blocks) word_grams(b.text, page);
  std::unordered_set<uint64_t> shown(page.begin(), page.end());
  std::size_t found = 0;
  for (uint64_t g : grams) found += shown.count(g);
  if (static_cast<double>(found) >= kShownShare * static_cast<double>(grams.size())) return;

  Element wrapper;
  wrapper.parent = 0;
  wrapper.tag = Tag::kDiv;
  wrapper.depth = 1;
  wrapper.flags = kElemStructured | kElemDescription;
  wrapper.first_block = static_cast<uint32_t>(blocks.blocks.size());
  const auto index = static_cast<uint32_t>(blocks.elements.size());
  for (Block& b : parsed.blocks) {
    b.element = index;
    b.features.position = static_cast<uint32_t>(blocks.blocks.size());
    blocks.blocks.push_back(std::move(b));
  }
  wrapper.end_block = static_cast<uint32_t>(blocks.blocks.size());
  blocks.elements.push_back(std::move(wrapper));
  blocks.elements[0].end_block = static_cast<uint32_t>(blocks.blocks.size());
}

}  // namespace husk
