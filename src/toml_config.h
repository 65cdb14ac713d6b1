// Reading the TOML configuration files of config/: the file's text, the
// parse with errors as "file:line:column: message", and "file:line" of a
// node for the errors the caller finds.
#pragma once

#include <string>
#include <toml++/toml.h>

#include "husk/status.h"

namespace husk {

Result<std::string> read_config_file(const std::string& path);
Result<toml::table> parse_toml(const std::string& text, const std::string& source);
std::string toml_where(const std::string& source, const toml::node& node);

}  // namespace husk
