// Learned templates kept between runs (--state DIR): one LMDB environment,
// key = site group ("host/dir/"), value = the serialised TemplateModel.
// A template run stores what it learns (a refresh replaces the old model);
// a later run uses the stored model for pages of a known site, even one
// page alone. LMDB commits are durable: a killed run loses nothing it
// committed.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "husk/status.h"
#include "husk/template.h"

namespace husk {

class TemplateStore {
 public:
  static Result<std::unique_ptr<TemplateStore>> open(const std::string& dir);
  ~TemplateStore();

  Status put(const std::string& group, const TemplateModel& model);
  std::optional<TemplateModel> get(const std::string& group) const;
  // The model of the most specific stored group of a page, climbing its
  // path as site_group() does.
  std::optional<TemplateModel> find(std::string_view url, std::string_view id) const;

 private:
  struct Env;
  explicit TemplateStore(std::unique_ptr<Env> env);
  std::unique_ptr<Env> env_;
};

std::string serialize(const TemplateModel& model);
std::optional<TemplateModel> deserialize_template(std::string_view bytes);

}  // namespace husk
