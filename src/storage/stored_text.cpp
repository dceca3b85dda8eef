// Sanitising text on its way into storage and out to a terminal (see include/kbo/storage/stored_text.hpp).
#include "kbo/storage/stored_text.hpp"

#include <cstdint>
#include <cstdio>

namespace kbo {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the well-formed UTF-8 character at s[i] (1–4), or 0 if none starts there; then `*prefix` is the
/// length of the maximal subpart (the bytes that could still have begun a character, at least 1), which is
/// replaced by one U+FFFD (Unicode 15, §3.9 "U+FFFD Substitution of Maximal Subparts").
std::size_t utf8_char(std::string_view s, std::size_t i, std::size_t* prefix) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t b0 = byte(i);
  *prefix = 1;
  if (b0 == 0) return 0;  // NUL is valid UTF-8, but never stored
  if (b0 < 0x80) return 1;
  std::size_t len;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) len = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;       // no overlong forms
    else if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;       // no overlong forms
    else if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong) or F5–FF
  }
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) return 0;
    const std::uint8_t b = byte(i + k);
    const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return 0;
    *prefix = k + 1;
  }
  return len;
}

}  // namespace

std::string stored_text(std::string_view text, std::size_t max_bytes) {
  // Fast path: valid, NUL-free text within the cap is the common case.
  bool clean = max_bytes == 0 || text.size() <= max_bytes;
  for (std::size_t i = 0, prefix = 0; clean && i < text.size();) {
    const std::size_t n = utf8_char(text, i, &prefix);
    if (n == 0) clean = false;
    i += n;
  }
  if (clean) return std::string(text);

  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    std::size_t prefix = 0;
    if (const std::size_t n = utf8_char(text, i, &prefix); n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append(kReplacement);
      i += prefix;
    }
  }
  if (max_bytes == 0 || out.size() <= max_bytes) return out;
  // Cut at a character boundary so that the text and the marker fit in max_bytes.
  std::size_t keep = max_bytes > kTruncationMarker.size() ? max_bytes - kTruncationMarker.size() : 0;
  while (keep > 0 && (static_cast<std::uint8_t>(out[keep]) & 0xC0) == 0x80) --keep;
  out.resize(keep);
  if (kTruncationMarker.size() <= max_bytes) out.append(kTruncationMarker);
  return out;
}

std::string terminal_text(std::string_view text) {
  const std::string valid = stored_text(text);
  std::string out;
  out.reserve(valid.size());
  char buf[8];
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto b = static_cast<std::uint8_t>(valid[i]);
    if (b < 0x20 || b == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      out += buf;
    } else if (b == 0xC2 && i + 1 < valid.size() && static_cast<std::uint8_t>(valid[i + 1]) <= 0x9F) {
      // U+0080–U+009F (C1 controls; e.g. U+009B is CSI on some terminals), encoded C2 80–C2 9F
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<std::uint8_t>(valid[i + 1])));
      out += buf;
      ++i;
    } else {
      out += static_cast<char>(b);
    }
  }
  return out;
}

}  // namespace kbo
