// The protocol-2 pickle writer (core/pickle.h).
#include "oomkit/core/pickle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace oomkit {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

// Scalars, byte for byte. The expected bytes are Python's own `pickle.dumps(v, protocol=2)`
// output for each value, which follows pickletools' opcode table (BININT1 for 0..255, BININT2
// up to 65535, BININT for int32, LONG1 with the fewest two's-complement bytes otherwise;
// BINFLOAT big-endian; a str is BINUNICODE then BINPUT 0).
TEST(PickleTest, ScalarsMatchPythonsProtocol2Bytes) {
  EXPECT_EQ(pickle_dumps(0), bytes({0x80, 2, 'K', 0, '.'}));
  EXPECT_EQ(pickle_dumps(255), bytes({0x80, 2, 'K', 0xff, '.'}));
  EXPECT_EQ(pickle_dumps(256), bytes({0x80, 2, 'M', 0x00, 0x01, '.'}));
  EXPECT_EQ(pickle_dumps(65536), bytes({0x80, 2, 'J', 0x00, 0x00, 0x01, 0x00, '.'}));
  EXPECT_EQ(pickle_dumps(-1), bytes({0x80, 2, 'J', 0xff, 0xff, 0xff, 0xff, '.'}));
  // 2**31: LONG1 with 5 bytes (the 5th keeps the sign positive).
  EXPECT_EQ(pickle_dumps(int64_t{1} << 31), bytes({0x80, 2, 0x8a, 5, 0, 0, 0, 0x80, 0, '.'}));
  // -2**31 - 1 = -2147483649: LONG1 5 bytes ff ff ff 7f ff.
  EXPECT_EQ(pickle_dumps(int64_t{-2147483649LL}), bytes({0x80, 2, 0x8a, 5, 0xff, 0xff, 0xff, 0x7f, 0xff, '.'}));
  // A CPU heap address as it appears in snapshots, 0x7f0012345678: 6 bytes.
  EXPECT_EQ(pickle_dumps(int64_t{0x7f0012345678LL}), bytes({0x80, 2, 0x8a, 6, 0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, '.'}));
  EXPECT_EQ(pickle_dumps(std::numeric_limits<int64_t>::min()),
            bytes({0x80, 2, 0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x80, '.'}));
  // 2**64 - 1 needs a ninth byte for the sign.
  EXPECT_EQ(pickle_dumps(std::numeric_limits<uint64_t>::max()),
            bytes({0x80, 2, 0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, '.'}));
  EXPECT_EQ(pickle_dumps(1.5), bytes({0x80, 2, 'G', 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, '.'}));
  EXPECT_EQ(pickle_dumps(true), bytes({0x80, 2, 0x88, '.'}));
  EXPECT_EQ(pickle_dumps(false), bytes({0x80, 2, 0x89, '.'}));
  EXPECT_EQ(pickle_dumps(nullptr), bytes({0x80, 2, 'N', '.'}));
  EXPECT_EQ(pickle_dumps("ab"), bytes({0x80, 2, 'X', 2, 0, 0, 0, 'a', 'b', 'q', 0, '.'}));
}

// Containers: items between MARK and SETITEMS/APPENDS; an empty container is the bare opcode;
// a repeated string is a BINGET of its first memo slot.
TEST(PickleTest, ContainersAndMemoizedStrings) {
  EXPECT_EQ(pickle_dumps(nlohmann::json::array()), bytes({0x80, 2, ']', '.'}));
  EXPECT_EQ(pickle_dumps(nlohmann::json::object()), bytes({0x80, 2, '}', '.'}));
  EXPECT_EQ(pickle_dumps(nlohmann::json::array({"a", "a"})),
            bytes({0x80, 2, ']', '(', 'X', 1, 0, 0, 0, 'a', 'q', 0, 'h', 0, 'e', '.'}));
  EXPECT_EQ(pickle_dumps(nlohmann::json{{"k", 1}}), bytes({0x80, 2, '}', '(', 'X', 1, 0, 0, 0, 'k', 'q', 0, 'K', 1, 'u', '.'}));
}

// Batches of 1000 (pickle._BATCHSIZE): a 2500-item list is three MARK ... APPENDS runs, and
// the JavaScript reader never spreads more than 1000 items into one push().
TEST(PickleTest, ListsAreWrittenInBatchesOf1000) {
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < 2500; ++i) list.push_back(1);
  const std::string p = pickle_dumps(list);
  // Every item is BININT1 (2 bytes): 3 MARKs, 3 APPENDS, 2500*2 item bytes, ']', header, STOP.
  EXPECT_EQ(p.size(), 2u + 1u + 3u + 3u + 5000u + 1u);
  EXPECT_EQ(std::count(p.begin(), p.end(), 'e'), 3);
  EXPECT_EQ(std::count(p.begin(), p.end(), '('), 3);
}

// Misuse is a logic_error, never a silently malformed pickle.
TEST(PickleTest, MisuseThrows) {
  {
    PickleWriter w;
    w.begin_dict();
    EXPECT_THROW(w.integer(1), std::logic_error);  // no key
  }
  {
    PickleWriter w;
    w.begin_list();
    EXPECT_THROW(w.end_dict(), std::logic_error);
    EXPECT_THROW(w.key("x"), std::logic_error);
    EXPECT_THROW(w.finish(), std::logic_error);  // list still open
  }
  {
    PickleWriter w;
    EXPECT_THROW(w.finish(), std::logic_error);  // no value
    w.none();
    EXPECT_THROW(w.none(), std::logic_error);  // second top-level value
  }
}

// Invalid UTF-8 bytes become U+FFFD, so Python can load every string the writer emits.
TEST(PickleTest, InvalidUtf8IsReplaced) {
  const std::string p = pickle_dumps(std::string("a\xff" "b"));
  EXPECT_EQ(p, bytes({0x80, 2, 'X', 5, 0, 0, 0, 'a', 0xEF, 0xBF, 0xBD, 'b', 'q', 0, '.'}));
  // A surrogate encoded in UTF-8 (ED A0 80) is three replaced bytes.
  EXPECT_EQ(pickle_dumps(std::string("\xED\xA0\x80")).size(), 2u + 5u + 9u + 2u + 1u);
}

// Random nested values (seeded) loaded by Python's own pickle module: the loaded object equals
// the JSON value it was written from, compared by Python after json.load of the same value.
// Skipped where no python3 is installed.
nlohmann::json random_value(std::mt19937_64& rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 3 ? 5 : 7);
  switch (kind(rng)) {
    case 0: return nullptr;
    case 1: return std::bernoulli_distribution(0.5)(rng);
    case 2: {
      static const int64_t edges[] = {0, 1, 255, 256, 65535, 65536, -1, -256, INT32_MAX, INT32_MIN,
                                      int64_t{INT32_MAX} + 1, int64_t{INT32_MIN} - 1,
                                      std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
      if (std::bernoulli_distribution(0.5)(rng)) return edges[rng() % (sizeof(edges) / sizeof(edges[0]))];
      return static_cast<int64_t>(rng()) >> (rng() % 63);
    }
    case 3: return static_cast<uint64_t>(rng() | (uint64_t{1} << 63));  // past INT64_MAX
    case 4: return std::uniform_real_distribution<double>(-1e12, 1e12)(rng);
    case 5: {
      static const char* words[] = {"alloc", "free_completed", "aten::addmm", "\xc3\xa9t\xc3\xa9", "\xe2\x82\xac", "", "x"};
      return std::string(words[rng() % 7]) + std::to_string(rng() % 3);
    }
    case 6: {
      nlohmann::json a = nlohmann::json::array();
      const int n = static_cast<int>(rng() % 5 == 0 ? 1000 + rng() % 1500 : rng() % 6);
      for (int i = 0; i < n; ++i) a.push_back(random_value(rng, depth + (n > 10 ? 3 : 1)));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      const int n = static_cast<int>(rng() % 6);
      for (int i = 0; i < n; ++i) o["k" + std::to_string(rng() % 50)] = random_value(rng, depth + 1);
      return o;
    }
  }
}

TEST(PickleTest, PythonLoadsRandomValues) {
  if (std::system("python3 -c 'import pickle' > /dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const auto dir = std::filesystem::temp_directory_path() / ("oomkit_pickle_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(20261130);
  constexpr int kRounds = 40;
  for (int round = 0; round < kRounds; ++round) {
    const nlohmann::json value = random_value(rng, 0);
    std::ofstream(dir / (std::to_string(round) + ".pickle"), std::ios::binary) << pickle_dumps(value);
    std::ofstream(dir / (std::to_string(round) + ".json")) << value.dump();
  }
  // One interpreter for every round; it prints the first round whose values differ.
  const std::string cmd = "python3 -c 'import json, pickle, sys\n"
                          "for i in range(int(sys.argv[2])):\n"
                          "    a = pickle.load(open(f\"{sys.argv[1]}/{i}.pickle\", \"rb\"))\n"
                          "    b = json.load(open(f\"{sys.argv[1]}/{i}.json\"))\n"
                          "    if a != b: print(i); sys.exit(1)' " +
                          dir.string() + " " + std::to_string(kRounds);
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "a round differs (printed above)";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace oomkit
