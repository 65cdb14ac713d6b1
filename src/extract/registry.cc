#include "extract/registry.h"

namespace husk {

std::vector<std::string> extractor_names() { return {"auto", "learned", "density", "fulltext", "xpath", "template"}; }

Result<std::unique_ptr<Extractor>> make_extractor(std::string_view name, const ExtractConfig& config) {
  if (name == "density") return make_density_extractor(config);
  if (name == "fulltext") return make_fulltext_extractor();
  if (name == "xpath") return make_xpath_extractor();
  if (name == "template") {
    // The page's own evidence: the learned extractor, density without one.
    Result<std::unique_ptr<Extractor>> page = make_learned_extractor(config);
    return make_template_extractor(page.ok() ? std::move(*page) : make_density_extractor(config));
  }
  if (name == "learned") return make_learned_extractor(config);
  std::string known;
  for (const std::string& n : extractor_names()) known += (known.empty() ? "" : ", ") + n;
  return Status(Code::kInvalidArgument, "unknown extractor \"" + std::string(name) + "\" (known: " + known + ")");
}

}  // namespace husk
