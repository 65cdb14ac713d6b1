// Metadata: what a page says about itself (title, authors, dates, site,
// description, canonical URL, image, tags, categories, licence) and the
// language of its clean text.
//
// Sources, in order of precedence (the first that gives a valid value wins
// a field):
//   1. JSON-LD: the page's main node (an Article-like type first, then a
//      page, then any), @graph and arrays included, author and publisher
//      references by @id resolved; broken JSON (trailing commas, raw line
//      breaks in strings, objects pasted together, HTML comment wrappers)
//      is repaired first
//   2. microdata (itemprop author, datePublished, dateModified, ...)
//   3. OpenGraph and article:* properties, then Twitter cards
//   4. <meta name=author|date|description|keywords|...> and Dublin Core
//   5. <time datetime>, <link rel=author>/<a rel=author>, elements whose
//      class or id says author or byline
//   6. bylines in the text ("By …", "Von …", "Par …", "Автор: …")
//   7. a date in the URL (/2024/05/12/)
// Dates come out as ISO 8601 (the day, with the time and zone when the page
// gives them) and are checked: none more than a day in the future, none
// before 1990 unless structured markup (1-5) states it.
//
// The title is the page's headline: an <h1> that the <title> or og:title
// repeats (not the site's name or its logo), else the first <h1> in the
// kept text, else the first <h1>, else og:title or <title> without the
// site name ("Story | Site" -> "Story"); docs/architecture.md, "The title".
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "husk/html.h"

namespace husk {

// The metadata fields the page record carries after the page's own fields,
// in record order: the one list the Metadata struct below and the record's
// field table (husk/record.h) are made from, so that adding a field is a
// line here and its step in extract_metadata. Each is
//   X(member, record key, C++ type, JSON type, what it holds)
// and empty when the page does not say (null in the record).
#define HUSK_METADATA_FIELDS(X)                                                                 \
  X(authors, "author", std::vector<std::string>, "list of strings or null", "metadata")         \
  X(date_published, "date_published", std::string, "string or null", "metadata: ISO 8601")     \
  X(date_modified, "date_modified", std::string, "string or null", "metadata: ISO 8601")       \
  X(sitename, "sitename", std::string, "string or null", "metadata")                           \
  X(description, "description", std::string, "string or null", "metadata")                     \
  X(canonical_url, "canonical_url", std::string, "string or null", "metadata: absolute")       \
  X(image, "image", std::string, "string or null", "metadata: absolute")                       \
  X(tags, "tags", std::vector<std::string>, "list of strings or null", "metadata")             \
  X(categories, "categories", std::vector<std::string>, "list of strings or null", "metadata") \
  X(license, "license", std::string, "string or null", "metadata: a URL")

struct Metadata {
  std::string title;  // the headline; the record carries it among the page's own fields
#define HUSK_METADATA_MEMBER(member, key, type, json_type, present) type member;
  HUSK_METADATA_FIELDS(HUSK_METADATA_MEMBER)
#undef HUSK_METADATA_MEMBER
  // Where each field with a value was read, in the order the fields were
  // decided: (field, source), e.g. ("date_published", "JSON-LD
  // datePublished"). Not part of the record; husk explain shows it.
  std::vector<std::pair<std::string, std::string>> sources;
};

struct MetadataOptions {
  // "Now" for the future-date check, seconds since the epoch; 0: the clock.
  std::time_t now = 0;
  // Dates before this year are kept only from structured markup.
  int min_year = 1990;
};

// The metadata of a segmented page. `keep` are the extractor's labels (one
// per block; may be empty), `url` the page's address (relative links and
// the URL's date), `page_type` the page-type classifier's label for the
// page ("article", "service", ...; empty when not known): a service's
// <h1> is a slogan, its <title> names it.
Metadata extract_metadata(const Blocks& blocks, const std::vector<uint8_t>& keep, std::string_view url,
                          const MetadataOptions& options = {}, std::string_view page_type = {});

// A date or date-time as pages write it ("2024-05-12T10:00:00+02:00",
// "2024/05/12", "May 12, 2024", "12 May 2024", "12.05.2024") in ISO 8601:
// "2024-05-12", or "2024-05-12T10:00:00+02:00" when a time is given.
// Empty when it is not a date.
std::string parse_date(std::string_view text);

// ---- Language ----

struct Language {
  std::string code;         // ISO 639-1 where one exists ("en", "zh", "zh-Hant"); empty when unknown
  double confidence = 0;    // 0-1: the share of the text in that language, 0 when not reliable
};

// The language of a clean text, by CLD2 (the identifier Common Crawl uses
// for its language annotations), with the page's <html lang> and HTTP
// Content-Language as hints. A text too short to tell takes the declared
// language, with confidence 0.
Language identify_language(std::string_view text, std::string_view html_lang = {},
                           std::string_view content_language = {});

// The language a page is compared under in dedup, one rule for every way
// in (records, signature files, pages, Python): the tag its record gives,
// as given ("en-US" stays "en-US"; pages are matched by their primary
// subtags), else identify_language on its text; empty when it has neither.
// Applied in one stage, as dedup's input is read, and only when the run
// asks for it (husk sign and husk dedup --identify-languages, Python's
// identify_languages): a page's extraction has identified its language
// already, and a record that names none is otherwise compared with every
// page. No dedup engine identifies a language.
std::string page_language(std::string_view given, std::string_view text);

// The primary subtag of a language tag, lower-cased: "en-US" -> "en",
// "zh-Hant" -> "zh".
std::string primary_language(std::string_view tag);

// The one rule by which dedup matches languages, wherever a tag comes from
// (a record, a signature file, CLD2): the same primary subtag, so en-US
// matches en and zh-Hant matches zh. Records keep their tags as given.
bool same_language(std::string_view a, std::string_view b);

// Whether `code` (a primary subtag as primary_language writes it) is a
// language CLD2 can identify: the codes --languages accepts.
bool is_known_language(std::string_view code);

}  // namespace husk
