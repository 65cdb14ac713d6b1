// What a page says about itself in structured data: the schema.org types
// of its JSON-LD and microdata, og:type, its canonical URL, and the
// product description a shop puts in JSON-LD when its page shows it only
// in a tab a script fills.
#pragma once

#include <string>
#include <vector>

#include "husk/html.h"

namespace husk {

// The schema.org types and OpenGraph type a page declares, in JSON-LD
// (@type anywhere, @graph and arrays included; tolerant of broken JSON),
// microdata itemtype and og:type ("og:product"), each once, bare
// ("https://schema.org/Product" -> "Product").
std::vector<std::string> declared_types(const Blocks& blocks);

// The URL a page gives for itself: <link rel=canonical>, else og:url.
std::string declared_url(const Blocks& blocks);

// The longest description of a Product (or ProductGroup) in the page's
// JSON-LD, as given (it may hold markup), or empty.
std::string product_description(const std::vector<std::string>& json_ld);

// Adds the JSON-LD product description to the blocks when the page's own
// text does not hold most of it: its paragraphs become blocks of one new
// element under <body>, flagged kElemStructured, after the page's blocks.
void add_product_description(Blocks& blocks, const SegmentOptions& options);

}  // namespace husk
