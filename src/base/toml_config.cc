#include "base/toml_config.h"

#include <fstream>
#include <sstream>

namespace husk {

Result<std::string> read_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(Code::kNotFound, path + ": cannot open configuration file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<toml::table> parse_toml(const std::string& text, const std::string& source) {
  try {
    return toml::parse(std::string_view(text), std::string_view(source));
  } catch (const toml::parse_error& err) {
    return Status(Code::kInvalidArgument, source + ":" + std::to_string(err.source().begin.line) + ":" +
                                              std::to_string(err.source().begin.column) + ": " +
                                              std::string(err.description()));
  }
}

std::string toml_where(const std::string& source, const toml::node& node) {
  return source + ":" + std::to_string(node.source().begin.line);
}

}  // namespace husk
