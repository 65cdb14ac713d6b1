// Title choice. og:title is what the publisher names the story; the first
// <h1> is the visible headline; <title> usually carries the site name too
// ("Story - Site"), so it comes last and loses what follows the last
// separator when that separator sits past the first third of it.
#include <string>

#include "husk/html.h"

namespace husk {

namespace {

// Separators sites put between story and site name in <title>.
constexpr std::string_view kSeparators[] = {" | ", " - ", " – ", " — ", " :: ", " · ", " » "};

}  // namespace

std::string choose_title(const Blocks& blocks) {
  if (!blocks.og_title.empty()) return blocks.og_title;
  if (!blocks.first_h1.empty() && blocks.first_h1.size() <= 300) return blocks.first_h1;
  std::string title = blocks.title_tag;
  for (std::string_view sep : kSeparators) {
    std::size_t pos = title.rfind(sep);
    if (pos != std::string::npos && pos > title.size() / 3) {
      title.resize(pos);
      break;
    }
  }
  return title;
}

}  // namespace husk
