// Text on its way into storage (stored_text) and out to a terminal (terminal_text), and what every backend keeps:
// the same rules on memory, SQLite and PostgreSQL for reasons with bytes that are not UTF-8, NUL bytes and
// over-long text, and for study names (refused with a NUL byte; replaced the same way when created and opened).
#include <gtest/gtest.h>

#include <filesystem>

#include "kbo/core/error.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/storage/stored_text.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

using namespace kbo;
namespace fs = std::filesystem;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";

/// Whether `s` is well-formed UTF-8 without NUL, decoded independently of stored_text (by the code-point ranges
/// of Unicode's table 3-7).
bool valid_utf8_without_nul(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    std::size_t n = 0;
    unsigned cp = 0;
    if (b(i) == 0) return false;
    if (b(i) < 0x80) n = 1, cp = b(i);
    else if ((b(i) & 0xE0) == 0xC0) n = 2, cp = b(i) & 0x1F;
    else if ((b(i) & 0xF0) == 0xE0) n = 3, cp = b(i) & 0x0F;
    else if ((b(i) & 0xF8) == 0xF0) n = 4, cp = b(i) & 0x07;
    else return false;
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((b(i + k) & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    const unsigned min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

StudyRecord text_study_record(const std::string& name) {
  StudyRecord r;
  r.name = name;
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  r.config = to_json(StrategyConfig{});
  return r;
}

}  // namespace

TEST(StoredText, ValidTextIsKeptAndInvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(stored_text("M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80"), "M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(stored_text("M\xFCller"), "M" + kFffd + "ller");  // Latin-1 ü
  EXPECT_EQ(stored_text(std::string("a\0b", 3)), "a" + kFffd + "b");
  EXPECT_EQ(stored_text("\xC0\xAF"), kFffd + kFffd);              // overlong '/': C0 never starts a character
  EXPECT_EQ(stored_text("\xED\xA0\x80"), kFffd + kFffd + kFffd);  // a surrogate
  EXPECT_EQ(stored_text("ab\xE2\x82"), "ab" + kFffd);              // a character cut short: one replacement
  EXPECT_EQ(stored_text("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // above U+10FFFF
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  EXPECT_TRUE(valid_utf8_without_nul(stored_text(all)));
}

TEST(StoredText, LongTextIsCutAtACharacterWithAVisibleMarker) {
  const std::string text(100, 'a');
  EXPECT_EQ(stored_text(text, 100), text);
  const std::string cut = stored_text(text + "\xC3\xBC", 50);
  EXPECT_LE(cut.size(), 50u);
  EXPECT_EQ(cut.substr(cut.size() - kTruncationMarker.size()), kTruncationMarker);
  // a two-byte character at the cut is dropped whole, never split
  const std::string umlauts = stored_text(std::string(30, 'x') + std::string(20, '\xC3'), 40);
  EXPECT_TRUE(valid_utf8_without_nul(umlauts));
  std::string many_u;
  for (int i = 0; i < 40; ++i) many_u += "\xC3\xBC";
  for (std::size_t cap = 15; cap < 40; ++cap) {
    const std::string c = stored_text(many_u, cap);
    EXPECT_LE(c.size(), cap);
    EXPECT_TRUE(valid_utf8_without_nul(c)) << cap;
  }
  EXPECT_EQ(stored_reason(std::string(5000, 'r')).size(), kStoredReasonBytes);
}

TEST(StoredText, TerminalTextEscapesControlCharacters) {
  EXPECT_EQ(terminal_text("plain M\xC3\xBCller"), "plain M\xC3\xBCller");
  EXPECT_EQ(terminal_text("red\x1b[31m\r\n\t\x7f"), "red\\x1b[31m\\x0d\\x0a\\x09\\x7f");
  EXPECT_EQ(terminal_text("csi\xC2\x9B" "2J"), "csi\\u009b2J");  // C1 CSI
  EXPECT_EQ(terminal_text("\xFC"), kFffd);
}

class StoredTextBackends : public ::testing::TestWithParam<std::string> {};

TEST_P(StoredTextBackends, ReasonsAndNamesFromOutsideAreStoredAsValidText) {
  std::string url = "memory";
  const fs::path dir = fs::temp_directory_path() / ("kbo_stored_text_" + std::to_string(::getpid()));
  if (GetParam() == "postgres") {
    KBO_REQUIRE_POSTGRES(server);
    url = server->new_database("storedtext");
  } else if (GetParam() == "sqlite") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    url = "sqlite:" + (dir / "t.db").string();
  }
  auto storage = open_storage(url);
  // A name with a byte that is not UTF-8 reaches its study however it is spelt.
  Study study = Study::create_or_open(storage, text_study_record("caf\xE9"));
  EXPECT_EQ(study.name(), "caf" + kFffd);
  EXPECT_EQ(Study::open(storage, "caf\xE9").name(), "caf" + kFffd);
  EXPECT_EQ(Study::open(storage, "caf" + kFffd).name(), "caf" + kFffd);
  EXPECT_THROW(Study::create_or_open(storage, text_study_record(std::string("a\0b", 3))), InputError);
  EXPECT_THROW(Study::open(storage, std::string("caf\0", 4)), InputError);

  struct Fixed : Strategy {
    Vec suggest(const Mat&, const Vec&, const Mat&, int i) override { return Vec{{i / 10.0, 0.5}}; }
    std::string name() const override { return "fixed"; }
  } strategy;
  const std::string reason = "M\xFCller " + std::string("x\0y", 3) + std::string(5000, 'z');
  const Trial t = study.ask(strategy, "ask@h:1");
  study.fail(t.id, reason);
  // Read back through another connection (memory storage is per object: the same one).
  const auto reader = url == "memory" ? storage : open_storage(url);
  const std::string stored = reader->trials(study.name())[t.id].reason;
  EXPECT_TRUE(valid_utf8_without_nul(stored));
  const std::string head = "M" + kFffd + "ller x" + kFffd + "y";
  EXPECT_EQ(stored.substr(0, head.size()), head);
  EXPECT_EQ(stored.size(), kStoredReasonBytes);
  EXPECT_EQ(stored.substr(stored.size() - kTruncationMarker.size()), kTruncationMarker);
  EXPECT_NO_THROW(study.to_json().dump());  // JSON output needs valid UTF-8
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoredTextBackends, ::testing::Values("memory", "sqlite", "postgres"));
