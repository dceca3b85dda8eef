#pragma once
// Text that comes from outside kbo (an objective's stderr, failure reasons, study names, worker names) on its
// way into storage, and stored text on its way to a terminal. Every backend passes every text it writes through
// stored_text(), so a store never holds bytes that PostgreSQL refuses ("invalid byte sequence for encoding
// UTF8"), that end a C string early (NUL) or that JSON output and Python cannot decode.
#include <cstddef>
#include <string>
#include <string_view>

namespace kbo {

/// The longest failure reason stored (bytes, marker included): a reason is one line for a human.
inline constexpr std::size_t kStoredReasonBytes = 2000;
/// Appended to a text cut to its cap, so that a reader sees that something is missing.
inline constexpr std::string_view kTruncationMarker = "\xE2\x80\xA6[truncated]";  // "…[truncated]"

/// `text` as storage keeps it: valid UTF-8 (each maximal invalid subsequence becomes U+FFFD, as the Unicode
/// standard recommends: replaced, not refused), no NUL byte (each becomes U+FFFD), and — if max_bytes > 0 and
/// the text is longer — cut at a character boundary with kTruncationMarker appended, max_bytes in all.
/// Valid text within the cap is returned unchanged.
std::string stored_text(std::string_view text, std::size_t max_bytes = 0);

/// A failure reason as stored: stored_text capped at kStoredReasonBytes.
inline std::string stored_reason(std::string_view reason) { return stored_text(reason, kStoredReasonBytes); }

/// Stored text for a terminal: control characters (C0 including newline and tab, DEL, and the C1 range
/// U+0080–U+009F, which terminals may take as escape sequences) are shown as \xHH or \u00HH, so a name or
/// reason can neither move the cursor, recolour the screen nor forge another line.
/// Invalid UTF-8 is replaced first (stored_text).
std::string terminal_text(std::string_view text);

}  // namespace kbo
