// The files of config/ as compiled into the binary (generated from
// src/base/builtin_config.cc.in at build time).
#pragma once

#include <string>

namespace husk {

const std::string& builtin_extract_toml();
const std::string& builtin_languages_toml();

}  // namespace husk
