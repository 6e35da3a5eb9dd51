#include <gtest/gtest.h>

#include <random>

#include "oomkit/core/suggest.h"

using namespace oomkit;

// edit_distance is the optimal-string-alignment distance, case-insensitive. Golden values are the
// textbook ones: kitten -> sitting is 3 (Levenshtein 1966's example, no transpositions in it);
// one adjacent swap is 1 (Damerau 1964); "ca" -> "abc" is 3 under OSA (true Damerau gives 2:
// OSA never edits a substring twice).
TEST(Suggest, EditDistanceGolden) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("batch-szie", "batch-size"), 1u);
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);
  EXPECT_EQ(edit_distance("A100-SXM4-80GB", "a100-sxm4-80gb"), 0u);
  EXPECT_EQ(edit_distance("estimat", "estimate"), 1u);
}

// Metric properties on seeded random strings: symmetric, zero only for equal strings (ignoring
// case), bounded by the longer length and below by the length difference.
TEST(Suggest, EditDistanceProperties) {
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<int> len(0, 9);
  std::uniform_int_distribution<int> letter(0, 3);  // a small alphabet: many near pairs
  auto random_word = [&] {
    std::string s;
    for (int i = len(rng); i > 0; --i) s.push_back(static_cast<char>('a' + letter(rng)));
    return s;
  };
  for (int i = 0; i < 2000; ++i) {
    const std::string a = random_word();
    const std::string b = random_word();
    const size_t d = edit_distance(a, b);
    EXPECT_EQ(d, edit_distance(b, a)) << a << " " << b;
    EXPECT_EQ(d == 0, a == b) << a << " " << b;
    EXPECT_LE(d, std::max(a.size(), b.size()));
    EXPECT_GE(d, a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
  }
}

// The suggestions users see: a typo names the intended word; a prefix names the words it begins;
// an unrelated word names nothing; an exact name (any case) is not "suggested".
TEST(Suggest, NearAndPrefix) {
  const std::vector<std::string> flags = {"--batch-size", "--seq-len", "--grad-accum", "--gpu", "--gpus", "-q"};
  EXPECT_EQ(suggest("--batch-szie", flags), std::vector<std::string>{"--batch-size"});
  EXPECT_EQ(suggest("--seqlen", flags), std::vector<std::string>{"--seq-len"});
  EXPECT_EQ(suggest("--gpu", flags), std::vector<std::string>{"--gpus"});
  EXPECT_TRUE(suggest("--zzz", flags).empty());
  EXPECT_TRUE(suggest("-x", flags).empty());  // one letter never suggests another one letter
  const std::vector<std::string> gpus = {"a100-sxm4-40gb", "a100-pcie-40gb", "a100-sxm4-80gb", "h100-pcie", "rtx-4090"};
  const std::vector<std::string> gpus_a10g = {"a10g", "a100-sxm4-40gb", "a100-pcie-40gb", "a100-sxm4-80gb", "h100-pcie", "rtx-4090"};
  // a10g is one edit from a100, but the names a100 begins come first.
  EXPECT_EQ(suggest("a100", gpus_a10g), (std::vector<std::string>{"a100-sxm4-40gb", "a100-pcie-40gb", "a100-sxm4-80gb"}));
  EXPECT_EQ(suggest("a100", gpus_a10g, 4).back(), "a10g");
  EXPECT_EQ(suggest("rtx4090", {"rtx-3090", "rtx-4090", "rtx-5090"}), std::vector<std::string>{"rtx-4090"});
  EXPECT_EQ(suggest("a100", gpus, 2).size(), 2u);
  EXPECT_EQ(suggest("4090", gpus), std::vector<std::string>{"rtx-4090"});
  EXPECT_EQ(suggest("H100-PCI", gpus), std::vector<std::string>{"h100-pcie"});
  EXPECT_TRUE(suggest("H100-PCIE", gpus).empty());
  const std::vector<std::string> models = {"gpt2", "llama-2-7b", "llama-2-70b", "mistral-7b"};
  EXPECT_EQ(suggest("llama2-7b", models), std::vector<std::string>{"llama-2-7b"});  // 70b is 2 edits away
  EXPECT_EQ(suggest("mistrl-7b", models), std::vector<std::string>{"mistral-7b"});
  EXPECT_TRUE(suggest("bert-base", models).empty());
}

TEST(Suggest, DidYouMeanText) {
  const std::vector<std::string> names = {"adamw", "adam-8bit", "sgd", "paged-adamw-8bit"};
  EXPECT_EQ(did_you_mean("adam", names), "did you mean adamw or adam-8bit?");
  EXPECT_EQ(did_you_mean("sdg", names), "did you mean sgd?");
  EXPECT_EQ(did_you_mean("xyz", names), "");
  EXPECT_EQ(did_you_mean("a", {"ab", "ac", "ad"}), "");  // too short for a prefix match
  EXPECT_EQ(did_you_mean("ab", {"abc", "abd", "abe"}), "did you mean abc, abd or abe?");
}
