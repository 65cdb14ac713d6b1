// Loading per-site XPath rules (husk/extract.h, "Per-site XPath rules").
#include <algorithm>
#include <filesystem>

#include "base/toml_config.h"
#include "base/url.h"
#include "extract/xpath_page.h"

namespace husk {

SiteRules::~SiteRules() = default;

const SiteRules::Compiled& SiteRules::compiled(const SiteRule& rule) const {
  return *compiled_[static_cast<std::size_t>(&rule - rules_.data())];
}

namespace {

Status compile_xpaths(const toml::node& node, const std::string& source, const char* key,
                      std::vector<std::string>& texts, std::vector<pugi::xpath_query>& out) {
  const toml::array* list = node.as_array();
  if (list == nullptr)
    return Status(Code::kInvalidArgument, toml_where(source, node) + ": " + key + " must be a list of XPaths");
  for (const toml::node& item : *list) {
    std::optional<std::string> xpath = item.value<std::string>();
    if (!xpath) return Status(Code::kInvalidArgument, toml_where(source, item) + ": " + key + " holds a non-string");
    Result<pugi::xpath_query> query = compile_xpath(*xpath);
    if (!query.ok()) return Status(Code::kInvalidArgument, toml_where(source, item) + ": " + query.status().message());
    out.push_back(std::move(*query));
    texts.push_back(*xpath);
  }
  return Status();
}

}  // namespace

Status SiteRules::add(std::string_view text, const std::string& source) {
  Result<toml::table> parsed = parse_toml(std::string(text), source);
  if (!parsed.ok()) return parsed.status();
  for (const auto& [key, node] : *parsed) {
    const toml::array* list = node.is_array_of_tables() ? node.as_array() : nullptr;
    if (key.str() != "rule" || list == nullptr)
      return Status(Code::kInvalidArgument,
                    toml_where(source, node) + ": expected [[rule]] tables, found " + std::string(key.str()));
    for (const toml::node& item : *list) {
      const toml::table& t = *item.as_table();
      SiteRule rule;
      rule.file = source;
      rule.line = static_cast<int>(t.source().begin.line);
      auto compiled = std::make_unique<Compiled>();
      for (const auto& [field, value] : t) {
        Status st;
        if (field.str() == "host" || field.str() == "match") {
          std::optional<std::string> v = value.value<std::string>();
          if (!v) {
            st = Status(Code::kInvalidArgument, toml_where(source, value) + ": " + std::string(field.str()) + " must be a string");
          } else if (field.str() == "host") {
            rule.host = *v;
          } else {
            rule.match = *v;
            RE2::Options options;
            options.set_log_errors(false);
            compiled->match = std::make_unique<RE2>(rule.match, options);
            if (!compiled->match->ok())
              st = Status(Code::kInvalidArgument, toml_where(source, value) + ": bad match pattern: " + compiled->match->error());
          }
        } else if (field.str() == "include") {
          st = compile_xpaths(value, source, "include", rule.include, compiled->include);
        } else if (field.str() == "exclude") {
          st = compile_xpaths(value, source, "exclude", rule.exclude, compiled->exclude);
        } else {
          st = Status(Code::kInvalidArgument, toml_where(source, value) + ": unknown key " + std::string(field.str()) +
                                                  " (known: host, match, include, exclude)");
        }
        if (!st.ok()) return st;
      }
      if (rule.host.empty() && rule.match.empty())
        return Status(Code::kInvalidArgument, toml_where(source, t) + ": a rule needs host or match");
      if (rule.include.empty() && rule.exclude.empty())
        return Status(Code::kInvalidArgument, toml_where(source, t) + ": a rule needs include or exclude XPaths");
      rules_.push_back(std::move(rule));
      compiled_.push_back(std::move(compiled));
    }
  }
  return Status();
}

Result<std::shared_ptr<const SiteRules>> SiteRules::parse(const std::string& text, const std::string& source) {
  std::shared_ptr<SiteRules> rules(new SiteRules());
  if (Status st = rules->add(text, source); !st.ok()) return st;
  return std::shared_ptr<const SiteRules>(std::move(rules));
}

Result<std::shared_ptr<const SiteRules>> SiteRules::load_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status(Code::kNotFound, dir + ": no such directory of site rules");
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".toml") files.push_back(it->path());
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::shared_ptr<SiteRules> rules(new SiteRules());
  for (const fs::path& f : files) {
    Result<std::string> text = read_config_file(f.string());
    if (!text.ok()) return text.status();
    if (Status st = rules->add(*text, f.string()); !st.ok()) return st;
  }
  return std::shared_ptr<const SiteRules>(std::move(rules));
}

const SiteRule* SiteRules::find(std::string_view url, std::string_view id) const {
  std::string host = url_host(url);
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const SiteRule& r = rules_[i];
    if (!r.host.empty() && r.host != host) continue;
    if (compiled_[i]->match && !RE2::PartialMatch(url.empty() ? id : url, *compiled_[i]->match)) continue;
    return &r;
  }
  return nullptr;
}

}  // namespace husk
