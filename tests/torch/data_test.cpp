// Data loading: format detection, bad files, the default corpus, entropy, resumable windows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "oomkit/core/error.h"
#include "oomkit/train/data.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

class DataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("oomkit_data_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  std::string field_of_error(const std::string& path) {
    try {
      load_token_file(path);
    } catch (const InputError& e) {
      return e.field() + "|" + e.what();
    }
    return "no error";
  }
  fs::path dir_;
};

std::string u16_bytes(const std::vector<uint16_t>& t) {
  return std::string(reinterpret_cast<const char*>(t.data()), t.size() * 2);
}

// Invariant: UTF-8 text becomes one token per byte, including multi-byte characters.
TEST_F(DataTest, TextIsByteTokens) {
  const TokenData d = load_token_file(write("a.txt", "h\xC3\xA9!"));  // "hé!"
  EXPECT_EQ(d.format, DataFormat::kText);
  EXPECT_EQ(d.tokens, (std::vector<Token>{'h', 0xC3, 0xA9, '!'}));
  EXPECT_EQ(d.max_token, 0xC3);
}

// Invariant: an llm.c file (magic 20240520, version 1, count, 253 zero ints, uint16 tokens) is
// read token for token; a header count disagreeing with the size is refused.
TEST_F(DataTest, LlmcFormat) {
  std::vector<int32_t> header(256, 0);
  header[0] = 20240520;
  header[1] = 1;
  header[2] = 3;
  const std::string head(reinterpret_cast<const char*>(header.data()), 1024);
  const TokenData d = load_token_file(write("tok.bin", head + u16_bytes({50256, 7, 300})));
  EXPECT_EQ(d.format, DataFormat::kLlmc);
  EXPECT_EQ(d.tokens, (std::vector<Token>{50256, 7, 300}));
  EXPECT_EQ(d.max_token, 50256);
  EXPECT_NE(field_of_error(write("short.bin", head + u16_bytes({1, 2}))).find("--data|"), std::string::npos);
}

// Invariant: a raw uint16 .bin (nanoGPT) is read as little-endian tokens; an odd size is refused.
TEST_F(DataTest, NanoGptBin) {
  const TokenData d = load_token_file(write("train.bin", u16_bytes({1, 2, 65535})));
  EXPECT_EQ(d.format, DataFormat::kNanoGptBin);
  EXPECT_EQ(d.tokens, (std::vector<Token>{1, 2, 65535}));
  EXPECT_NE(field_of_error(write("odd.bin", "abc")).find("odd"), std::string::npos);
}

// llm.c's write_datafile (karpathy/llm.c dev/data/data_common.py): 256 int32 (magic, version,
// count, zeros), then the tokens as uint16 (gpt-2) or uint32 (llama-3), little-endian.
std::string llmc_file(int32_t magic, int32_t version, int32_t count, const std::vector<uint32_t>& tokens,
                      int token_bytes) {
  std::vector<int32_t> header(256, 0);
  header[0] = magic;
  header[1] = version;
  header[2] = count;
  std::string out(reinterpret_cast<const char*>(header.data()), 1024);
  for (uint32_t t : tokens) out.append(reinterpret_cast<const char*>(&t), static_cast<size_t>(token_bytes));
  return out;
}

// Invariant: a Llama-3 llm.c shard (magic 20240801, version 7) is read as uint32 tokens, ids
// past 65535 intact (it was once misread as nanoGPT uint16 data); each magic accepts only its
// own version, and a bad header is one error naming the file.
TEST_F(DataTest, LlmcLlama3Format) {
  const TokenData d = load_token_file(write("llama.bin", llmc_file(20240801, 7, 3, {128000, 9, 70000}, 4)));
  EXPECT_EQ(d.format, DataFormat::kLlmcLlama3);
  EXPECT_EQ(d.tokens, (std::vector<Token>{128000, 9, 70000}));
  EXPECT_EQ(d.max_token, 128000);
  const std::string wrong_v = field_of_error(write("v1.bin", llmc_file(20240801, 1, 3, {1, 2, 3}, 4)));
  EXPECT_NE(wrong_v.find("--data|"), std::string::npos) << wrong_v;
  EXPECT_NE(wrong_v.find("v1.bin"), std::string::npos) << wrong_v;
  EXPECT_NE(wrong_v.find("version 1"), std::string::npos) << wrong_v;
  const std::string gpt2_v7 = field_of_error(write("v7.bin", llmc_file(20240520, 7, 3, {1, 2, 3}, 2)));
  EXPECT_NE(gpt2_v7.find("expected version 1"), std::string::npos) << gpt2_v7;
  // A uint32 count read as uint16 (or the reverse) disagrees with the size.
  EXPECT_NE(field_of_error(write("c.bin", llmc_file(20240801, 7, 3, {1, 2, 3}, 2))).find("but the file has"),
            std::string::npos);
  EXPECT_NE(field_of_error(write("t.bin", llmc_file(20240801, 7, 3, {}, 4).substr(0, 500))).find("truncated"),
            std::string::npos);
}

// Invariant: a glob of shards is read in sorted order as one stream (llm.c's
// fineweb_train_000001.bin ...), whatever order they were written in; shards of different
// formats, or a pattern matching nothing, are errors naming the field; a plain path with no
// glob characters is load_token_file().
TEST_F(DataTest, ShardGlobsJoinInSortedOrder) {
  fs::create_directories(dir_ / "shards");
  write("shards/fw_train_000002.bin", llmc_file(20240520, 1, 2, {30, 31}, 2));
  write("shards/fw_train_000000.bin", llmc_file(20240520, 1, 3, {10, 11, 12}, 2));
  write("shards/fw_train_000001.bin", llmc_file(20240520, 1, 1, {20}, 2));
  write("shards/fw_val_000000.bin", llmc_file(20240520, 1, 2, {99, 98}, 2));
  const TokenData d = load_token_files((dir_ / "shards" / "fw_train_*.bin").string());
  EXPECT_EQ(d.tokens, (std::vector<Token>{10, 11, 12, 20, 30, 31}));
  EXPECT_EQ(d.format, DataFormat::kLlmc);
  ASSERT_EQ(d.files.size(), 3u);
  EXPECT_NE(d.files[0].find("000000"), std::string::npos);
  EXPECT_EQ(d.max_token, 31);
  try {
    load_token_files((dir_ / "shards" / "nothing_*.bin").string(), "--val-data");
    ADD_FAILURE() << "no error for a pattern matching nothing";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--val-data");
  }
  write("shards/fw_train_000003.bin", llmc_file(20240801, 7, 1, {5}, 4));
  try {
    load_token_files((dir_ / "shards" / "fw_train_*.bin").string());
    ADD_FAILURE() << "no error for mixed shard formats";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fw_train_000003.bin"), std::string::npos) << e.what();
  }
  EXPECT_EQ(load_token_files((dir_ / "shards" / "fw_val_000000.bin").string()).tokens, (std::vector<Token>{99, 98}));
}

// Invariant: missing, empty and binary (non-UTF-8) files are InputErrors naming --data.
TEST_F(DataTest, BadFilesAreInputErrors) {
  EXPECT_NE(field_of_error((dir_ / "missing.txt").string()).find("--data|"), std::string::npos);
  EXPECT_NE(field_of_error(write("empty.txt", "")).find("empty"), std::string::npos);
  EXPECT_NE(field_of_error(write("blob.dat", std::string("ab\xFF\xFE", 4))).find("offset 2"), std::string::npos);
  EXPECT_NE(field_of_error(write("nul.txt", std::string("ab\0c", 4))).find("offset 2"), std::string::npos);
  EXPECT_NE(field_of_error(write("overlong.txt", "\xC0\xAF")).find("offset 0"), std::string::npos);
}

// Invariant: the default corpus reads each file once (symlinks resolved, identical contents
// skipped), sorted by name, joined with a blank line.
TEST_F(DataTest, DefaultCorpusResolvesLinksAndSkipsDuplicates) {
  write("b-license", "bee");
  write("a-license", "ay");
  write("c-copy", "bee");
  fs::create_symlink(dir_ / "a-license", dir_ / "z-link");
  const TokenData d = load_default_corpus(dir_.string());
  EXPECT_EQ(std::string(d.tokens.begin(), d.tokens.end()), "ay\n\nbee");
  EXPECT_EQ(d.files.size(), 2u);
  EXPECT_THROW(load_default_corpus((dir_ / "nope").string()), InputError);
}

// Invariant: unigram entropy against hand values: "abab" 1 bit, "aaaa" 0 bits, 256 distinct
// equiprobable bytes 8 bits, and {a:2, b:1, c:1} 1.5 bits.
TEST(UnigramEntropy, KnownDistributions) {
  EXPECT_DOUBLE_EQ(unigram_entropy_bits({'a', 'b', 'a', 'b'}), 1.0);
  EXPECT_DOUBLE_EQ(unigram_entropy_bits({'a', 'a', 'a', 'a'}), 0.0);
  std::vector<Token> all(256);
  for (int i = 0; i < 256; ++i) all[i] = static_cast<Token>(i);
  EXPECT_NEAR(unigram_entropy_bits(all), 8.0, 1e-12);
  EXPECT_DOUBLE_EQ(unigram_entropy_bits({'a', 'a', 'b', 'c'}), 1.5);
  // Llama-3 ids past 16 bits, and sparse ids past the counting table: the same 1.5 bits.
  EXPECT_DOUBLE_EQ(unigram_entropy_bits({128000, 128000, 70000, 9}), 1.5);
  EXPECT_DOUBLE_EQ(unigram_entropy_bits({4000000000u, 4000000000u, 70000, 9}), 1.5);
}

TokenData counting_tokens(int n) {
  TokenData d;
  for (int i = 0; i < n; ++i) d.tokens.push_back(static_cast<Token>(i % 251));
  d.max_token = 250;
  d.source = "counting";
  return d;
}

// Invariant: targets are inputs shifted by one; batch k is a pure function of (seed, k), so a
// resumed run (set_position) draws the same windows; validation windows stay in the held-out
// tail and never change.
TEST(TokenDataset, WindowsAreShiftedDeterministicAndResumable) {
  TokenDataset a(counting_tokens(1000), 16, 42, 0.1);
  EXPECT_EQ(a.train_tokens(), 900);
  Batch b0 = a.next_train_batch(4);
  Batch b1 = a.next_train_batch(4);
  EXPECT_EQ(a.position(), 2);
  EXPECT_EQ(b0.x.sizes().vec(), (std::vector<int64_t>{4, 16}));
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t t = 0; t < 16; ++t) EXPECT_EQ(b0.y[r][t].item<int64_t>(), (b0.x[r][t].item<int64_t>() + 1) % 251);
  }
  EXPECT_LE(b0.y.max().item<int64_t>(), 250);
  EXPECT_FALSE(torch::equal(b0.x, b1.x));
  TokenDataset resumed(counting_tokens(1000), 16, 42, 0.1);
  resumed.set_position(1);
  EXPECT_TRUE(torch::equal(resumed.next_train_batch(4).x, b1.x));
  TokenDataset other_seed(counting_tokens(1000), 16, 43, 0.1);
  EXPECT_FALSE(torch::equal(other_seed.next_train_batch(4).x, b0.x));
  Batch v = a.val_batch(0, 8);
  EXPECT_TRUE(torch::equal(v.x, a.val_batch(0, 8).x));
  EXPECT_TRUE(torch::equal(v.x, resumed.val_batch(0, 8).x));
}

// Invariant (data-parallel sharding): rank r of W reading B rows from first_row r·B gets rows
// r·B .. r·B + B - 1 of the batch one process reads with W·B rows, for training and validation,
// so W ranks together read exactly the single-process batch, each row once.
TEST(TokenDataset, RankShardsTileTheSingleProcessBatch) {
  TokenDataset single(counting_tokens(5000), 16, 7, 0.1);
  single.set_position(3);
  const Batch whole = single.next_train_batch(6);  // W = 3 ranks x B = 2
  const Batch val = single.val_batch(1, 6);
  for (int64_t r = 0; r < 3; ++r) {
    TokenDataset rank(counting_tokens(5000), 16, 7, 0.1);
    rank.set_position(3);
    const Batch shard = rank.next_train_batch(2, 2 * r);
    EXPECT_TRUE(torch::equal(shard.x, whole.x.narrow(0, 2 * r, 2))) << "rank " << r;
    EXPECT_TRUE(torch::equal(shard.y, whole.y.narrow(0, 2 * r, 2))) << "rank " << r;
    EXPECT_TRUE(torch::equal(rank.val_batch(1, 2, 2 * r).x, val.x.narrow(0, 2 * r, 2))) << "rank " << r;
  }
  EXPECT_FALSE(torch::equal(whole.x.narrow(0, 0, 2), whole.x.narrow(0, 2, 2)));  // shards differ
  EXPECT_THROW(single.next_train_batch(2, -1), InputError);
}

// Invariant (--val-data): training windows come only from the training stream and validation
// windows only from the validation stream, no window spans the two; a validation stream of
// another format, or shorter than T + 1, is an error naming --val-data.
TEST(TokenDataset, SeparateValidationStream) {
  TokenData train;
  TokenData val;
  for (int i = 0; i < 300; ++i) train.tokens.push_back(static_cast<Token>(i % 100));        // 0..99
  for (int i = 0; i < 50; ++i) val.tokens.push_back(static_cast<Token>(200 + i % 40));      // 200..239
  train.max_token = 99;
  val.max_token = 239;
  train.source = "train";
  val.source = "val";
  TokenDataset ds(train, val, 8, 5);
  EXPECT_EQ(ds.train_tokens(), 300);
  EXPECT_EQ(ds.val_tokens(), 50);
  for (int k = 0; k < 20; ++k) {
    const Batch b = ds.next_train_batch(4);
    EXPECT_LT(torch::cat({b.x, b.y}).max().item<int64_t>(), 100);
    const Batch v = ds.val_batch(k, 4);
    EXPECT_GE(torch::cat({v.x, v.y}).min().item<int64_t>(), 200);
  }
  TokenData text_val = val;
  text_val.format = DataFormat::kLlmc;
  try {
    TokenDataset(train, text_val, 8, 5);
    ADD_FAILURE() << "no error for a validation stream of another format";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--val-data");
  }
  TokenData short_val = val;
  short_val.tokens.resize(8);
  try {
    TokenDataset(train, short_val, 8, 5);
    ADD_FAILURE() << "no error for a validation stream shorter than T + 1";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--val-data");
  }
}

// Invariant: a stream too short for one (T + 1)-token window in either split is an InputError.
TEST(TokenDataset, TooShortForOneSequence) {
  EXPECT_THROW(TokenDataset(counting_tokens(100), 16, 1, 0.1), InputError);  // val split: 10 tokens
  EXPECT_NO_THROW(TokenDataset(counting_tokens(170), 16, 1, 0.1));           // val split: 17 tokens
  EXPECT_THROW(TokenDataset(counting_tokens(1000), 0, 1, 0.1), InputError);
}

}  // namespace
}  // namespace oomkit
