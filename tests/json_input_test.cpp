// The JSON access layer (include/oomkit/core/json_input.h) and the readers built on it: every
// bad JSON input is an InputError naming the file and the key, with bounded text; special
// files are refused without blocking.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/timeline.h"

using namespace oomkit;
using nlohmann::json;

namespace {

const std::string kBad = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/bad-inputs";

std::string temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("oomkit_json_input_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The error's text, or "" when no InputError was thrown (any other exception fails the test).
template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Numbers out of double range, wrong types and malformed text are InputErrors naming the source.
TEST(JsonInput, LibraryErrorsBecomeInputErrors) {
  EXPECT_NE(input_error([] { parse_json_input(R"({"n_embd": 1e400})", "c.json"); }).find("c.json: number out of range"),
            std::string::npos);
  EXPECT_NE(input_error([] { parse_json_input("{\"a\": ", "c.json"); }).find("c.json: malformed JSON"), std::string::npos);
  EXPECT_NE(input_error([] { parse_json_input("\"\xFF\"", "c.json"); }).find("malformed JSON"), std::string::npos);
  EXPECT_EQ(parse_json_input(R"({"a": [1, 2]})", "c.json")["a"][1], 2);
}

// Nesting deeper than kMaxJsonDepth is refused while parsing, quickly and without recursion;
// exactly kMaxJsonDepth levels are accepted.
TEST(JsonInput, DeepNestingIsRefused) {
  const std::string deep = "{\"n_embd\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto t0 = std::chrono::steady_clock::now();
  const std::string err = input_error([&] { parse_json_input(deep, "deep.json"); });
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_NE(err.find("deep.json: JSON nested deeper than 64 levels"), std::string::npos) << err;
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(parse_json_input(ok, "ok.json"));
  const std::string over = std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  EXPECT_THROW(parse_json_input(over, "over.json"), InputError);
}

// Error text stays short whatever the bad value: a 10 MB string, a 100k-element array.
TEST(JsonInput, ErrorTextIsBounded) {
  const std::string big(10 << 20, 'x');
  EXPECT_LT(describe_json_value(json(big)).size(), 2 * kMaxErrorExcerptChars);
  EXPECT_EQ(describe_json_value(json::array({1, 2, 3})), "an array of 3 values");
  EXPECT_EQ(describe_json_value(json(5)), "the number 5");
  const std::string bad_token = "{\"a\": \"" + big + "\x01\"}";  // control byte inside a 10 MB string
  const std::string err = input_error([&] { parse_json_input(bad_token, "big.json"); });
  EXPECT_FALSE(err.empty());
  EXPECT_LT(err.size(), 400u);
  const std::string cfg = "{\"model_type\": \"gpt2\", \"n_embd\": \"" + big + "\", \"n_layer\": 1, \"n_head\": 1, \"vocab_size\": 8}";
  const std::string cfg_err = input_error([&] { parse_model_config(cfg, "big.json"); });
  EXPECT_NE(cfg_err.find("key 'n_embd': must be an integer, got a string"), std::string::npos) << cfg_err.substr(0, 200);
  EXPECT_LT(cfg_err.size(), 300u);
  EXPECT_EQ(bounded_excerpt("ab\xFF" "c", 80), "ab?c");
  EXPECT_EQ(bounded_excerpt("h\xC3\xA9llo", 2), "h...");  // never cuts é in two
}

// Integers: in range, or a float that is integral and inside int64; everything else named.
TEST(JsonInput, Int64Conversion) {
  EXPECT_EQ(json_to_int64(json(4611686018427387904LL), "f", "k"), 4611686018427387904LL);
  EXPECT_EQ(json_to_int64(json(128.0), "f", "k"), 128);
  EXPECT_NE(input_error([] { json_to_int64(json(1e19), "f", "n_layer"); }).find("key 'n_layer'"), std::string::npos);
  EXPECT_THROW(json_to_int64(json(-1e300), "f", "k"), InputError);
  EXPECT_THROW(json_to_int64(json(1.5), "f", "k"), InputError);
  EXPECT_THROW(json_to_int64(json(18446744073709551615ULL), "f", "k"), InputError);
  EXPECT_THROW(json_to_int64(json("5"), "f", "k"), InputError);
  EXPECT_THROW(json_to_int64(json(std::nan("")), "f", "k"), InputError);
}

// The issue-12 config reproducers: each an InputError naming the file and the key.
TEST(JsonInput, ConfigReproducers) {
  const std::pair<const char*, const char*> cases[] = {
      {"config-model-type-number.json", "key 'model_type': must be a string, got the number 5"},
      {"config-number-overflow-1e400.json", "number out of range"},
      {"config-ub-float-cast-1e19.json", "key 'n_layer'"},
      {"config-ub-signed-overflow-4x-n_embd.json", "n_embd"},
  };
  for (const auto& [file, expected] : cases) {
    const std::string path = kBad + "/" + file;
    const std::string err = input_error([&] { load_model_config(path); });
    EXPECT_NE(err.find(path), std::string::npos) << file << ": " << err;
    EXPECT_NE(err.find(expected), std::string::npos) << file << ": " << err;
  }
  const std::string deep = write_file("deep.json", "{\"n_embd\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  EXPECT_NE(input_error([&] { load_model_config(deep); }).find("nested deeper"), std::string::npos);
}

// Seeded random mutations of a valid config: every outcome is a config or an InputError (no
// other exception, no crash). The byte edits are drawn, not chosen.
TEST(JsonInput, RandomConfigMutations) {
  const std::string base =
      R"({"model_type": "gpt2", "n_embd": 128, "n_layer": 5, "n_head": 4, "vocab_size": 256, "n_positions": 256, "n_inner": null, "tie_word_embeddings": true, "attn_pdrop": 0.1})";
  const std::string alphabet = "0123456789eE+-.[]{}\",:ntrufal \\\x01\xFF";
  std::mt19937 rng(20261130);
  int parsed = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string s = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      const size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        default: s.erase(at, 1 + rng() % 3); break;
      }
    }
    try {
      parse_model_config(s, "mutated.json");
      ++parsed;
    } catch (const InputError&) {
      ++refused;
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
}

// Special files are refused without blocking: a FIFO with no writer, a directory, /dev/zero.
TEST(JsonInput, SpecialFilesAreRefused) {
  const std::string fifo = temp_dir() + "/fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_NE(input_error([&] { read_input_file(fifo, "--x"); }).find("is a FIFO"), std::string::npos);
  EXPECT_NE(input_error([&] { load_model_config(fifo); }).find("FIFO"), std::string::npos);
  EXPECT_NE(input_error([&] { read_timeline(fifo); }).find("FIFO"), std::string::npos);
  EXPECT_NE(input_error([&] { check_input_path(fifo, "--data", true); }).find("FIFO"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_NE(input_error([] { read_input_file("/dev/zero", "--x"); }).find("character device"), std::string::npos);
  EXPECT_NE(input_error([&] { read_input_file(temp_dir(), "--x"); }).find("a directory"), std::string::npos);
  EXPECT_NO_THROW(check_input_path(temp_dir(), "--data", /*allow_directory=*/true));
  EXPECT_NE(input_error([] { read_input_file("/nonexistent/x", "--x"); }).find("No such file"), std::string::npos);
  const std::string big = write_file("big.json", std::string(2000, ' '));
  EXPECT_NE(input_error([&] { read_input_file(big, "--x", 1000); }).find("2000 bytes"), std::string::npos);
  EXPECT_EQ(read_input_file(big, "--x", 2000).size(), 2000u);
}

// Typed access: wrong types and missing keys name the key; absent or null means the fallback.
TEST(JsonInput, Fields) {
  const json j = json::parse(R"({"a": 1, "b": "x", "c": null, "d": true, "e": 2.5, "o": {"p": 3}})");
  const JsonFields f(j, "src");
  EXPECT_EQ(f.int64("a"), 1);
  EXPECT_EQ(f.int64_or("c", 7), 7);
  EXPECT_EQ(f.string("b"), "x");
  EXPECT_TRUE(f.boolean_or("d", false));
  EXPECT_DOUBLE_EQ(f.number("e"), 2.5);
  EXPECT_EQ(f.object("o").int64("p"), 3);
  EXPECT_EQ(input_error([&] { f.int64("b"); }), "src: key 'b': must be an integer, got a string \"x\"");
  EXPECT_EQ(input_error([&] { f.string("zz"); }), "src: key 'zz': missing");
  EXPECT_EQ(input_error([&] { f.object("o").string("p"); }), "src: o: key 'p': must be a string, got the number 3");
  EXPECT_THROW(JsonFields(json::array(), "src"), InputError);
}
