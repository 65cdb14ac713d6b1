// A page's JSON-LD, parsed once when the page is segmented (Blocks::json_ld)
// into the one model that the features, the metadata and the product
// description read.
//
// One tolerance policy for every reader: a script is parsed as JSON; if
// that fails, again after repair_json; if that fails too, its "@type"
// values are still read from the text (types()), and nothing else of it.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "husk/html.h"

namespace husk {

class JsonLd {
 public:
  using json = nlohmann::json;

  // The model of a page's scripts (the bodies of its ld+json scripts).
  static std::shared_ptr<const JsonLd> parse(const std::vector<std::string>& scripts);
  // The model of a page with no JSON-LD.
  static const JsonLd& empty();

  // The @type values the scripts give, anywhere (objects, arrays, @graph),
  // as written, in document order: at most kMaxTypes.
  const std::vector<std::string>& types() const { return types_; }

  // The node that describes the page's main work: the first of schema.org
  // class kSchemaMainWork, else of kSchemaWebPage, else the first typed
  // node that is not site furniture (kSchemaFurniture); null when none.
  const json* main() const { return main_; }
  // Every object at the top of a script, in an array there or in @graph.
  const std::vector<const json*>& nodes() const { return nodes_; }

  // The schema.org classes (SchemaClass, html/structured.h) of a node's
  // @type values together.
  static uint32_t classes(const json& node);

  // A node's property, with a reference ({"@id": ...}) resolved.
  const json* get(const json* node, const char* key) const;
  const json* resolve(const json* v) const;
  // A property of the main node; else, when `any_node`, of the first node
  // that has it.
  const json* find(const char* key, bool any_node = true) const;

  // A text value: a string (character references decoded as the parser
  // decodes text, white space collapsed), a number, or an object's name /
  // @value / url; of an array, the first that has one.
  std::string text(const json* v) const;
  // Every text of a value that may be a list: at most kMaxList.
  std::vector<std::string> texts(const json* v) const;

  // The longest description of a product node (schema.org class
  // kSchemaProduct), as given (it may hold markup), or empty.
  std::string product_description() const;

  static constexpr std::size_t kMaxTypes = 64;
  static constexpr std::size_t kMaxList = 32;

 private:
  std::string text(const json* v, int depth) const;
  void flatten(const json& j, int depth);
  void index_ids(const json& j, int depth);

  std::vector<json> docs_;
  std::vector<std::string> types_;
  std::vector<const json*> nodes_;
  std::unordered_map<std::string, const json*> by_id_;
  const json* main_ = nullptr;
};

// The model a page's blocks carry, or the empty one.
const JsonLd& json_ld_of(const Blocks& blocks);

// Broken JSON as pages carry it in JSON-LD, made parseable where the damage
// is the usual kind: HTML comment or CDATA wrappers, raw control characters
// inside strings, trailing commas, several top-level values pasted together
// (they become one array).
std::string repair_json(std::string_view text);

}  // namespace husk
