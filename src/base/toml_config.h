// Reading the TOML configuration files of config/: the file's text, the
// parse with errors as "file:line:column: message", "file:line" of a node
// for the errors the caller finds, and one table-driven reader for the
// numeric fields of an options struct (re2.h's options table: each field
// once, with its name, for parsing and for describing the defaults).
#pragma once

#include <cstdint>
#include <string>
#include <toml++/toml.h>
#include <utility>
#include <variant>
#include <vector>

#include "husk/status.h"

namespace husk {

Result<std::string> read_config_file(const std::string& path);
Result<toml::table> parse_toml(const std::string& text, const std::string& source);
std::string toml_where(const std::string& source, const toml::node& node);

// A numeric field of options struct S, by its config name.
template <typename S>
struct TomlField {
  const char* name;
  std::variant<double S::*, uint32_t S::*, uint64_t S::*> member;
};

// Sets the fields a [section] table names; every value must be a
// non-negative number (an integer for integer fields). An unknown key or a
// bad value is an error naming the file, line and "section.key".
template <typename S, std::size_t N>
Status apply_toml_fields(const toml::table& table, const std::string& source, const std::string& section,
                         const TomlField<S> (&fields)[N], S& target) {
  for (const auto& [key, node] : table) {
    const TomlField<S>* field = nullptr;
    for (const TomlField<S>& f : fields)
      if (key.str() == f.name) field = &f;
    std::string name = section + "." + std::string(key.str());
    if (field == nullptr) return Status(Code::kInvalidArgument, toml_where(source, node) + ": unknown key " + name);
    if (auto* d = std::get_if<double S::*>(&field->member)) {
      std::optional<double> v = node.template value<double>();
      if (!v || *v < 0)
        return Status(Code::kInvalidArgument, toml_where(source, node) + ": " + name + " must be a non-negative number");
      target.**d = *v;
      continue;
    }
    std::optional<int64_t> v = node.template value<int64_t>();
    if (!v || *v < 0)
      return Status(Code::kInvalidArgument, toml_where(source, node) + ": " + name + " must be a non-negative integer");
    if (auto* u32 = std::get_if<uint32_t S::*>(&field->member)) {
      if (*v > UINT32_MAX) return Status(Code::kInvalidArgument, toml_where(source, node) + ": " + name + " is too large");
      target.**u32 = static_cast<uint32_t>(*v);
    } else {
      target.*std::get<uint64_t S::*>(field->member) = static_cast<uint64_t>(*v);
    }
  }
  return Status();
}

// Every field as ("prefix" + name, value), in table order.
template <typename S, std::size_t N>
std::vector<std::pair<std::string, double>> describe_toml_fields(const TomlField<S> (&fields)[N], const S& s,
                                                                 const std::string& prefix) {
  std::vector<std::pair<std::string, double>> out;
  for (const TomlField<S>& f : fields)
    out.emplace_back(prefix + f.name, std::visit([&](auto member) { return static_cast<double>(s.*member); }, f.member));
  return out;
}

}  // namespace husk
