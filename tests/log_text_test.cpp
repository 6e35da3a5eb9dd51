// The text scanners of src/diagnose/log_text.h that the diagnoser's speed rests on, against
// plain reference implementations on seeded random text.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "../src/diagnose/log_text.h"

using namespace oomkit::diagnose_detail;

namespace {

// ASCII-lowercase `s` (what ifind() compares against).
std::string ascii_lower(std::string s) {
  for (char& c : s) c = lower_char(c);
  return s;
}

}  // namespace

// ifind() (eight bytes at a time for a letter first) finds what a search of the lowercased text
// finds, from every offset: letters of both cases, digits, punctuation and bytes >= 0x80 ('X' | 0x20
// is 'x', but 0xd8 | 0x20 is no letter), needles starting with a letter or not, matches at the
// ends and across the eight-byte blocks.
TEST(LogText, IfindEqualsASearchOfTheLowercasedText) {
  std::mt19937 rng(20261202);
  const std::string alphabet = "aAbBxXyY09 .:_\xd8\xf8\xc1\x80";
  const std::string needle_alphabet = "abxy09 .:_\xd8";
  for (int round = 0; round < 4000; ++round) {
    std::string hay(rng() % 70, ' ');
    for (char& c : hay) c = alphabet[rng() % alphabet.size()];
    std::string needle(1 + rng() % 4, ' ');
    for (char& c : needle) c = needle_alphabet[rng() % needle_alphabet.size()];
    const std::string lowered = ascii_lower(hay);
    for (size_t from = 0; from <= hay.size(); from += 1 + rng() % 5) {
      const size_t want = needle.size() <= hay.size() ? lowered.find(needle, from) : std::string::npos;
      ASSERT_EQ(ifind(hay, needle, from), want) << "hay '" << hay << "' needle '" << needle << "' from " << from;
    }
  }
  EXPECT_EQ(ifind("xxxxxxxxxxxxxxxxCUDA out of memory", "cuda"), 16u);
  EXPECT_EQ(ifind("0123456789abcdefA", "a"), 10u);
  EXPECT_EQ(ifind("0123456789", "a"), std::string::npos);
  EXPECT_EQ(ifind("", "a"), std::string::npos);
  EXPECT_EQ(ifind("abc", ""), 0u);
  EXPECT_EQ(ifind("abc", "a", 5), std::string::npos);
  EXPECT_EQ(ifind("abcdefghABCDEFGH", "h", 8), 15u);  // two blocks long, the match last
  EXPECT_EQ(ifind("abcdefghABCDEFGH", "gh", 7), 14u);
}
