#include "extractors/registry.h"

namespace husk {

std::vector<std::string> extractor_names() { return {"auto", "density", "fulltext"}; }

Result<std::unique_ptr<Extractor>> make_extractor(std::string_view name, const ExtractConfig& config) {
  // auto: density until the template and xpath extractors exist.
  if (name == "auto" || name == "density") return make_density_extractor(config);
  if (name == "fulltext") return make_fulltext_extractor();
  std::string known;
  for (const std::string& n : extractor_names()) known += (known.empty() ? "" : ", ") + n;
  return Status(Code::kInvalidArgument, "unknown extractor \"" + std::string(name) + "\" (known: " + known + ")");
}

}  // namespace husk
