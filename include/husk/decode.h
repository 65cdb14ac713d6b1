// Decode: raw page bytes in any charset -> valid UTF-8.
//
// The charset is taken from, in order (WHATWG "encoding sniffing", HTML
// Living Standard 13.2.3.2): a byte order mark; the HTTP Content-Type
// header; a <meta charset> or <meta http-equiv=Content-Type> in the first
// `sniff_bytes`; otherwise the bytes themselves: valid UTF-8 is UTF-8, and
// anything else goes to ICU's charset detector. Labels are mapped the way
// browsers map them (ISO-8859-1 and ASCII are windows-1252, GB2312 and GBK
// are GB18030). Bytes that are invalid in the chosen charset become U+FFFD.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace husk {

struct DecodeOptions {
  // How far into the page <meta charset> is looked for. WHATWG says 1024;
  // 4096 also finds it behind the long inline scripts real pages put first.
  std::size_t sniff_bytes = 4096;
  // How many bytes ICU's detector reads when nothing declares a charset.
  std::size_t detect_bytes = 64u << 10;
  // ICU detector confidence (0-100) below which the fallback is used.
  int min_confidence = 10;
  // Used when detection is not confident: the web's most common legacy charset.
  std::string fallback_charset = "windows-1252";
};

struct Decoded {
  std::string html;            // valid UTF-8
  std::string charset;         // the charset the bytes were read as
  std::string charset_source;  // "bom", "http", "meta", "utf8", "detected" or "fallback"
  std::vector<std::string> warnings;
};

Decoded decode(std::string_view bytes, std::string_view content_type,
               const DecodeOptions& options = {});

// For text that is already Unicode (JSONL strings): only repairs invalid UTF-8.
Decoded decode_utf8(std::string_view text);

// Maps a charset label the way browsers do; empty when ICU cannot convert it.
std::string canonical_charset(std::string_view label);

// Replaces every ill-formed UTF-8 sequence with U+FFFD. Returns the number
// of replacements.
std::size_t repair_utf8(std::string& text);

}  // namespace husk
