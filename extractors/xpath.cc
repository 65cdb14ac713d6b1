// The xpath extractor: a page's content is what its site's rule includes,
// less what the rule excludes (husk/site_rules.h). Blocks are the unit: a
// block belongs to a selected node when its block-level element is that
// node or inside it; a selected inline node stands for the block around it.
#include <pugixml.hpp>
#include <gumbo.h>
#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "extractors/registry.h"
#include "extractors/xpath_rules.h"
#include "husk/site_rules.h"
#include "toml_config.h"
#include "xml_dom.h"

namespace husk {

struct SiteRules::Compiled {
  std::unique_ptr<RE2> match;
  std::vector<pugi::xpath_query> include;
  std::vector<pugi::xpath_query> exclude;
};

SiteRules::~SiteRules() = default;

const SiteRules::Compiled& SiteRules::compiled(std::size_t rule) const { return *compiled_[rule]; }

std::string url_host(std::string_view url) {
  std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  url.remove_prefix(scheme + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (std::size_t at = url.rfind('@'); at != std::string_view::npos) url.remove_prefix(at + 1);
  if (std::size_t colon = url.rfind(':'); colon != std::string_view::npos && url.find(']') == std::string_view::npos)
    url = url.substr(0, colon);
  std::string host(url);
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
}

namespace {

Status compile_xpaths(const toml::node& node, const std::string& where, const char* key,
                      std::vector<std::string>& texts, std::vector<pugi::xpath_query>& out) {
  const toml::array* list = node.as_array();
  if (list == nullptr) return Status(Code::kInvalidArgument, where + ": " + key + " must be a list of XPaths");
  for (const toml::node& item : *list) {
    std::optional<std::string> xpath = item.value<std::string>();
    std::string at = toml_where(where.substr(0, where.rfind(':')), item);
    if (!xpath) return Status(Code::kInvalidArgument, at + ": " + key + " holds a non-string");
    try {
      out.emplace_back(xpath->c_str());
    } catch (const pugi::xpath_exception& e) {
      return Status(Code::kInvalidArgument, at + ": bad XPath \"" + *xpath + "\": " + e.result().description() +
                                                " at offset " + std::to_string(e.result().offset));
    }
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
      return Status(Code::kInvalidArgument, toml_where(source, node) + ": expected [[rule]] tables, found " + std::string(key.str()));
    for (const toml::node& item : *list) {
      const toml::table& t = *item.as_table();
      SiteRule rule;
      rule.file = source;
      rule.line = static_cast<int>(t.source().begin.line);
      auto compiled = std::make_unique<Compiled>();
      const std::string where = toml_where(source, t);
      for (const auto& [field, value] : t) {
        if (field.str() == "host") {
          rule.host = value.value<std::string>().value_or("");
        } else if (field.str() == "match") {
          rule.match = value.value<std::string>().value_or("");
          RE2::Options options;
          options.set_log_errors(false);
          compiled->match = std::make_unique<RE2>(rule.match, options);
          if (!compiled->match->ok())
            return Status(Code::kInvalidArgument, toml_where(source, value) + ": bad match pattern: " + compiled->match->error());
        } else if (field.str() == "include") {
          if (Status st = compile_xpaths(value, toml_where(source, value), "include", rule.include, compiled->include); !st.ok())
            return st;
        } else if (field.str() == "exclude") {
          if (Status st = compile_xpaths(value, toml_where(source, value), "exclude", rule.exclude, compiled->exclude); !st.ok())
            return st;
        } else {
          return Status(Code::kInvalidArgument, toml_where(source, value) + ": unknown key " + std::string(field.str()) +
                                                    " (known: host, match, include, exclude)");
        }
      }
      if (rule.host.empty() && rule.match.empty())
        return Status(Code::kInvalidArgument, where + ": a rule needs host or match");
      if (rule.include.empty() && rule.exclude.empty())
        return Status(Code::kInvalidArgument, where + ": a rule needs include or exclude XPaths");
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
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
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

XpathPage::XpathPage(const Blocks& blocks, const Dom& dom) : blocks_(blocks) {
  build_xml_view(dom, view_);
  for (uint32_t e = 0; e < blocks.elements.size(); ++e)
    if (blocks.elements[e].source) element_of_[blocks.elements[e].source] = e;
}

int64_t XpathPage::element_of(const pugi::xml_node& node) const {
  auto origin = view_.origin.find(node.internal_object());
  if (origin == view_.origin.end()) return -1;
  // The node itself when block-level, else its nearest block-level
  // ancestor (Gumbo's parents).
  for (auto* n = static_cast<const GumboNode*>(origin->second); n != nullptr; n = n->parent) {
    auto it = element_of_.find(n);
    if (it != element_of_.end()) return it->second;
  }
  return -1;
}

bool XpathPage::is_block(const pugi::xml_node& node) const {
  auto origin = view_.origin.find(node.internal_object());
  return origin != view_.origin.end() && element_of_.count(origin->second) > 0;
}

Extraction XpathPage::select(const std::vector<pugi::xpath_query>& include, const std::vector<pugi::xpath_query>& exclude,
                             const std::vector<std::string>& include_text, const std::vector<std::string>& exclude_text,
                             const std::string& where) const {
  Extraction out;
  auto mark = [&](const std::vector<pugi::xpath_query>& queries, const std::vector<std::string>& texts,
                  std::vector<uint8_t>& marked) {
    for (std::size_t q = 0; q < queries.size(); ++q) {
      pugi::xpath_node_set nodes = queries[q].evaluate_node_set(view_.doc);
      std::size_t hits = 0;
      for (const pugi::xpath_node& xn : nodes) {
        int64_t e = element_of(xn.node() ? xn.node() : xn.parent());
        if (e < 0) continue;
        const Element& el = blocks_.elements[static_cast<std::size_t>(e)];
        for (uint32_t b = el.first_block; b < el.end_block; ++b) marked[b] = 1;
        ++hits;
      }
      if (hits == 0) out.warnings.push_back("xpath rule " + where + ": \"" + texts[q] + "\" matched nothing");
    }
  };
  std::vector<uint8_t> included(blocks_.blocks.size(), include.empty() ? 1 : 0);
  std::vector<uint8_t> excluded(blocks_.blocks.size(), 0);
  mark(include, include_text, included);
  mark(exclude, exclude_text, excluded);
  out.keep.resize(blocks_.blocks.size());
  for (std::size_t b = 0; b < out.keep.size(); ++b) out.keep[b] = included[b] && !excluded[b];
  return out;
}

namespace {

class XpathExtractor final : public Extractor {
 public:
  // `asked`: the user named xpath, so a page without a rule is worth a
  // warning; under auto it is the ordinary case.
  XpathExtractor(const ExtractConfig& config, bool asked)
      : sites_(config.sites), fallback_(make_density_extractor(config)), asked_(asked) {}

  std::string_view name() const override { return "xpath"; }

  Extraction extract(const PageView& page) const override {
    const SiteRule* rule = sites_ ? sites_->find(page.url, page.id) : nullptr;
    if (rule == nullptr || page.dom == nullptr) {
      Extraction out = fallback_->extract(page);
      out.extractor = "density";
      if (asked_) out.warnings.push_back("no site rule matches this page; density used");
      return out;
    }
    const auto& c = sites_->compiled(static_cast<std::size_t>(rule - sites_->rules().data()));
    return XpathPage(page.blocks, *page.dom)
        .select(c.include, c.exclude, rule->include, rule->exclude, rule->file + ":" + std::to_string(rule->line));
  }

 private:
  std::shared_ptr<const SiteRules> sites_;
  std::unique_ptr<Extractor> fallback_;
  bool asked_;
};

}  // namespace

std::unique_ptr<Extractor> make_xpath_extractor(const ExtractConfig& config, bool asked) {
  return std::make_unique<XpathExtractor>(config, asked);
}

}  // namespace husk
