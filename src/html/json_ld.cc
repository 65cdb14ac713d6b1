#include "html/json_ld.h"

#include <re2/re2.h>

#include "base/text_util.h"
#include "html/structured.h"

namespace husk {

namespace {

using json = nlohmann::json;

// Bounds: a page could declare thousands of nodes, or nest without end.
constexpr std::size_t kMaxNodes = 256;
constexpr int kMaxDepth = 16;
constexpr int kMaxNodeDepth = 12;
// Names and values sit a level or two down.
constexpr int kMaxValueDepth = 8;

// @type values anywhere in a JSON-LD value (objects, arrays, @graph).
void collect_types(const json& j, std::vector<std::string>& out, int depth) {
  if (depth > kMaxDepth || out.size() >= JsonLd::kMaxTypes) return;
  if (j.is_array()) {
    for (const auto& v : j) collect_types(v, out, depth + 1);
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key == "@type") {
        if (value.is_string() && out.size() < JsonLd::kMaxTypes) out.push_back(value.get<std::string>());
        if (value.is_array())
          for (const auto& t : value)
            if (t.is_string() && out.size() < JsonLd::kMaxTypes) out.push_back(t.get<std::string>());
      } else {
        collect_types(value, out, depth + 1);
      }
    }
  }
}

// A script no repair makes JSON still names its types: "@type": "X"
// wherever it stands.
void scan_types(std::string_view text, std::vector<std::string>& out) {
  static const RE2 kType("\"@type\"\\s*:\\s*(?:\\[\\s*)?\"([^\"]{1,64})\"");
  re2::StringPiece input(text.data(), text.size());
  std::string type;
  while (out.size() < JsonLd::kMaxTypes && RE2::FindAndConsume(&input, kType, &type)) out.push_back(type);
}

void collect_descriptions(const json& j, std::string& longest, int depth) {
  if (depth > kMaxDepth) return;
  if (j.is_array()) {
    for (const auto& v : j) collect_descriptions(v, longest, depth + 1);
  } else if (j.is_object()) {
    auto description = j.find("description");
    if ((JsonLd::classes(j) & kSchemaProduct) && description != j.end() && description->is_string() &&
        description->get_ref<const std::string&>().size() > longest.size())
      longest = description->get<std::string>();
    for (const auto& [key, value] : j.items())
      if (value.is_structured()) collect_descriptions(value, longest, depth + 1);
  }
}

}  // namespace

std::shared_ptr<const JsonLd> JsonLd::parse(const std::vector<std::string>& scripts) {
  auto ld = std::make_shared<JsonLd>();
  for (const std::string& script : scripts) {
    json j = json::parse(script, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) j = json::parse(repair_json(script), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      scan_types(script, ld->types_);
      continue;
    }
    collect_types(j, ld->types_, 0);
    ld->docs_.push_back(std::move(j));
  }
  // The documents stay where they are from here on: nodes point into them.
  for (const json& d : ld->docs_) ld->flatten(d, 0);
  auto first = [&](auto wanted) {
    for (const json* n : ld->nodes_)
      if (wanted(*n)) return n;
    return static_cast<const json*>(nullptr);
  };
  ld->main_ = first([](const json& n) { return (classes(n) & (kSchemaArticle | kSchemaWork)) != 0; });
  if (ld->main_ == nullptr) ld->main_ = first([](const json& n) { return (classes(n) & kSchemaWebPage) != 0; });
  if (ld->main_ == nullptr)
    ld->main_ = first([](const json& n) { return n.contains("@type") && !(classes(n) & kSchemaFurniture); });
  return ld;
}

const JsonLd& JsonLd::empty() {
  static const JsonLd none;
  return none;
}

const JsonLd& json_ld_of(const Blocks& blocks) { return blocks.json_ld ? *blocks.json_ld : JsonLd::empty(); }

uint32_t JsonLd::classes(const json& node) {
  auto it = node.find("@type");
  if (it == node.end()) return 0;
  uint32_t out = 0;
  if (it->is_string()) out |= schema_classes(it->get_ref<const std::string&>());
  if (it->is_array())
    for (const json& t : *it)
      if (t.is_string()) out |= schema_classes(t.get_ref<const std::string&>());
  return out;
}

const JsonLd::json* JsonLd::get(const json* node, const char* key) const {
  if (node == nullptr || !node->is_object()) return nullptr;
  auto it = node->find(key);
  if (it == node->end() || it->is_null()) return nullptr;
  return resolve(&*it);
}

const JsonLd::json* JsonLd::resolve(const json* v) const {
  if (v->is_object() && v->size() == 1 && v->contains("@id")) {
    const json& id = (*v)["@id"];
    if (id.is_string())
      if (auto it = by_id_.find(id.get<std::string>()); it != by_id_.end()) return it->second;
  }
  return v;
}

const JsonLd::json* JsonLd::find(const char* key, bool any_node) const {
  if (const json* v = get(main_, key)) return v;
  if (!any_node) return nullptr;
  for (const json* n : nodes_)
    if (const json* v = get(n, key)) return v;
  return nullptr;
}

std::string JsonLd::text(const json* v) const { return text(v, 0); }

std::string JsonLd::text(const json* v, int depth) const {
  if (v == nullptr || depth > kMaxValueDepth) return {};
  v = resolve(v);
  // JSON-LD sits in a <script>, whose text the HTML parser leaves as it
  // is, yet pages escape it as HTML ("Tips &amp; Tricks", "Ren&eacute;e").
  if (v->is_string()) return collapse_space(decode_character_references(v->get_ref<const std::string&>()));
  if (v->is_number()) return v->dump();
  if (v->is_object()) {
    for (const char* key : {"name", "@value", "url", "contentUrl"})
      if (auto it = v->find(key); it != v->end()) {
        std::string t = text(&*it, depth + 1);
        if (!t.empty()) return t;
      }
  }
  if (v->is_array())
    for (const json& e : *v) {
      std::string t = text(&e, depth + 1);
      if (!t.empty()) return t;
    }
  return {};
}

std::vector<std::string> JsonLd::texts(const json* v) const {
  std::vector<std::string> out;
  if (v == nullptr) return out;
  v = resolve(v);
  if (v->is_array()) {
    for (const json& e : *v)
      if (std::string t = text(&e); !t.empty() && out.size() < kMaxList) out.push_back(std::move(t));
  } else if (std::string t = text(v); !t.empty()) {
    out.push_back(std::move(t));
  }
  return out;
}

std::string JsonLd::product_description() const {
  std::string longest;
  for (const json& d : docs_) collect_descriptions(d, longest, 0);
  return longest;
}

void JsonLd::flatten(const json& j, int depth) {
  if (depth > kMaxNodeDepth || nodes_.size() >= kMaxNodes) return;
  if (j.is_array()) {
    for (const json& e : j) flatten(e, depth + 1);
    return;
  }
  if (!j.is_object()) return;
  nodes_.push_back(&j);
  index_ids(j, depth);
  if (auto g = j.find("@graph"); g != j.end()) flatten(*g, depth + 1);
}

// Objects that carry an @id and more: what a reference can point to.
void JsonLd::index_ids(const json& j, int depth) {
  if (depth > kMaxNodeDepth || by_id_.size() >= kMaxNodes) return;
  if (j.is_object()) {
    if (auto id = j.find("@id"); id != j.end() && id->is_string() && j.size() > 1)
      by_id_.emplace(id->get<std::string>(), &j);
    for (const auto& [key, value] : j.items())
      if (value.is_structured() && key != "@graph") index_ids(value, depth + 1);
  } else if (j.is_array()) {
    for (const json& e : j) index_ids(e, depth + 1);
  }
}

std::string repair_json(std::string_view text) {
  text = trim(text);
  for (std::string_view wrap : {"<!--", "//<![CDATA[", "<![CDATA["})
    if (text.starts_with(wrap)) text = trim(text.substr(wrap.size()));
  for (std::string_view wrap : {"-->", "//]]>", "]]>"})
    if (text.ends_with(wrap)) text = trim(text.substr(0, text.size() - wrap.size()));
  std::string out;
  out.reserve(text.size() + 2);
  bool in_string = false, escaped = false;
  int depth = 0;
  int top_values = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        out.push_back(' ');
        continue;
      }
      out.push_back(c);
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (depth == 0 && top_values++ > 0) out.push_back(',');
      ++depth;
    } else if (c == '}' || c == ']') {
      // A trailing comma before the close goes.
      std::size_t k = out.size();
      while (k > 0 && is_ascii_space(out[k - 1])) --k;
      if (k > 0 && out[k - 1] == ',') out.erase(k - 1, 1);
      if (depth > 0) --depth;
    } else if (c == ';' && depth == 0) {
      continue;
    }
    out.push_back(c);
  }
  if (top_values > 1) return "[" + out + "]";
  return out;
}

}  // namespace husk
