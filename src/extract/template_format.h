// The template store's value format (template_store.cc): a magic, the
// learner, then the model's arrays.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "husk/extract.h"

namespace husk {

std::string serialize(const TemplateModel& model);
std::optional<TemplateModel> deserialize_template(std::string_view bytes);

}  // namespace husk
