// Per-site XPath rules (config/sites/*.toml): what is content on a site and
// what is template inside it, an operator's exact tool (DESIGN.md "XPath").
//
//   [[rule]]
//   host = "docs.python.org"          # the page URL's host, or
//   match = "python3.11/html/"        # an RE2 pattern over the URL, or over
//                                     # the file path when it has no URL
//   include = ["//div[@role='main']"] # content: blocks inside these nodes
//   exclude = ["//div[@class='headerlink']"]  # template inside the content
//
// A rule applies when every matcher it gives matches. Rules are compiled at
// load: a bad XPath is reported with file, line and the offset pugixml
// gives, a bad pattern with file and line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "husk/status.h"

namespace husk {

struct SiteRule {
  std::string file;
  int line = 0;
  std::string host;
  std::string match;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

class SiteRules {
 public:
  // Every *.toml file of dir, in name order.
  static Result<std::shared_ptr<const SiteRules>> load_dir(const std::string& dir);
  // One TOML text (tests, husk tune's proposals).
  static Result<std::shared_ptr<const SiteRules>> parse(const std::string& text, const std::string& source);

  ~SiteRules();
  const std::vector<SiteRule>& rules() const { return rules_; }
  // The first rule for a page, or null.
  const SiteRule* find(std::string_view url, std::string_view id) const;

  struct Compiled;
  const Compiled& compiled(std::size_t rule) const;

 private:
  SiteRules() = default;
  Status add(std::string_view text, const std::string& source);
  std::vector<SiteRule> rules_;
  std::vector<std::unique_ptr<Compiled>> compiled_;
};

// The host of a URL ("https://a.b:80/x" -> "a.b"), lower-cased.
std::string url_host(std::string_view url);

}  // namespace husk
