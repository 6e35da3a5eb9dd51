// The safetensors reader and writer (include/oomkit/core/safetensors.h) against fixtures written
// by an independent writer: tests/data/safetensors/make_fixtures.py (Python struct + json only,
// from the format's specification), run once per test binary into the build tree.
#include "oomkit/core/safetensors.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kScript = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/safetensors/make_fixtures.py";

std::string run_capture(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) return out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof(buf), pipe.get())) > 0) out.append(buf, n);
  return out;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// IEEE 754 binary16 -> float, written out from the bit layout (1 sign, 5 exponent, 10 fraction).
float half_to_float(uint16_t h) {
  const int sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1F, fraction = h & 0x3FF;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(static_cast<float>(fraction), -24);
  else if (exponent == 31) magnitude = fraction ? NAN : INFINITY;
  else magnitude = std::ldexp(static_cast<float>(fraction + 1024), exponent - 25);
  return sign ? -magnitude : magnitude;
}

// Element i of a tensor's little-endian bytes as a double (integers exact up to 2^53; the
// 64-bit integer fixtures are compared separately as int64).
double element(std::string_view bytes, SafetensorsDtype dtype, size_t i) {
  auto load = [&](auto value) {
    std::memcpy(&value, bytes.data() + i * sizeof(value), sizeof(value));
    return value;
  };
  switch (dtype) {
    case SafetensorsDtype::kBool: return load(uint8_t{}) != 0 ? 1.0 : 0.0;
    case SafetensorsDtype::kU8: return load(uint8_t{});
    case SafetensorsDtype::kI8: return load(int8_t{});
    case SafetensorsDtype::kI16: return load(int16_t{});
    case SafetensorsDtype::kU16: return load(uint16_t{});
    case SafetensorsDtype::kF16: return half_to_float(load(uint16_t{}));
    case SafetensorsDtype::kBF16: {
      const uint32_t bits = static_cast<uint32_t>(load(uint16_t{})) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case SafetensorsDtype::kI32: return load(int32_t{});
    case SafetensorsDtype::kU32: return load(uint32_t{});
    case SafetensorsDtype::kF32: return load(float{});
    case SafetensorsDtype::kF64: return load(double{});
    case SafetensorsDtype::kI64: return static_cast<double>(load(int64_t{}));
    case SafetensorsDtype::kU64: return static_cast<double>(load(uint64_t{}));
    default: return NAN;
  }
}

// Checks one decoded tensor against the writer's {dtype, shape, values}.
void expect_tensor(const std::string& name, const SafetensorsTensorInfo& info, std::string_view bytes, const json& want) {
  SCOPED_TRACE(name);
  EXPECT_EQ(safetensors_dtype_name(info.dtype), want["dtype"].get<std::string>());
  EXPECT_EQ(info.shape, want["shape"].get<std::vector<int64_t>>());
  ASSERT_EQ(static_cast<size_t>(info.numel()), want["values"].size());
  ASSERT_EQ(bytes.size(), static_cast<size_t>(info.numel()) * safetensors_dtype_bytes(info.dtype));
  for (size_t i = 0; i < want["values"].size(); ++i) {
    if (info.dtype == SafetensorsDtype::kI64) {
      int64_t v;
      std::memcpy(&v, bytes.data() + 8 * i, 8);
      EXPECT_EQ(v, want["values"][i].get<int64_t>()) << "element " << i;
    } else if (info.dtype == SafetensorsDtype::kF32) {
      // The writer packed the double through struct 'f' (round to nearest): compare as float.
      EXPECT_EQ(static_cast<float>(element(bytes, info.dtype, i)), static_cast<float>(want["values"][i].get<double>()))
          << "element " << i;
    } else {
      EXPECT_EQ(element(bytes, info.dtype, i), want["values"][i].get<double>()) << "element " << i;
    }
  }
}

class SafetensorsFixtures : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::path(OOMKIT_BINARY_DIR) / "test-data" / ("safetensors-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::string cmd = "python3 '" + kScript + "' '" + dir_.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    expected_ = json::parse(read_all((dir_ / "expected.json").string()));
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static fs::path dir_;
  static json expected_;
};
fs::path SafetensorsFixtures::dir_;
json SafetensorsFixtures::expected_;

// Every valid fixture decodes to exactly the writer's dtypes, shapes, values and metadata
// (every whole-byte dtype LibTorch has, a scalar, an empty tensor, an unpadded header, header
// keys in another order than the data).
TEST_F(SafetensorsFixtures, ValidFilesDecodeToTheWritersValues) {
  ASSERT_EQ(expected_["valid"].size(), 3u);
  for (const auto& [file, want] : expected_["valid"].items()) {
    SCOPED_TRACE(file);
    const SafetensorsFile f = SafetensorsFile::read((dir_ / "valid" / file).string(), "--init-from");
    const auto want_metadata = want["metadata"].get<std::map<std::string, std::string>>();
    EXPECT_EQ(f.header().metadata, want_metadata);
    ASSERT_EQ(f.header().tensors.size(), want["tensors"].size());
    for (const auto& [name, t] : want["tensors"].items()) {
      const SafetensorsTensorInfo* info = f.header().find(name);
      ASSERT_NE(info, nullptr) << name;
      expect_tensor(name, *info, f.data(*info), t);
    }
  }
}

// Every malformed fixture is one InputError naming the file, with the reason the writer meant.
TEST_F(SafetensorsFixtures, MalformedFilesAreOneInputErrorNamingTheFile) {
  ASSERT_GE(expected_["invalid"].size(), 20u);
  for (const auto& [file, message] : expected_["invalid"].items()) {
    const std::string path = (dir_ / "invalid" / file).string();
    try {
      (void)SafetensorsFile::read(path, "--init-from");
      ADD_FAILURE() << file << ": accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), path);
      EXPECT_NE(std::string(e.what()).find(message.get<std::string>()), std::string::npos)
          << file << ": " << e.what() << "\n  expected to contain: " << message.get<std::string>();
    }
  }
}

// A sharded checkpoint reads every tensor of every shard; an index naming a tensor its shard
// lacks, a shard outside the folder, or a tensor in two shards is refused.
TEST_F(SafetensorsFixtures, ShardedIndexReadsEveryShardAndRefusesBadIndexes) {
  const SafetensorsCheckpoint ckpt = read_safetensors_checkpoint((dir_ / "sharded").string(), "--init-from");
  EXPECT_EQ(ckpt.files.size(), 2u);
  ASSERT_EQ(ckpt.tensors.size(), expected_["sharded"].size());
  for (const auto& [name, want] : expected_["sharded"].items()) {
    const auto it = ckpt.tensors.find(name);
    ASSERT_NE(it, ckpt.tensors.end()) << name;
    expect_tensor(name, ckpt.info(it->second), ckpt.data(it->second), want);
  }
  const std::pair<const char*, const char*> bad[] = {{"sharded_missing", "\"ghost\" is not in its shard"},
                                                     {"sharded_traversal", "is not a file name in the index's folder"},
                                                     {"sharded_duplicate", "is also in"}};
  for (const auto& [sub, message] : bad) {
    try {
      (void)read_safetensors_checkpoint((dir_ / sub).string(), "--init-from");
      ADD_FAILURE() << sub << ": accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << sub << ": " << e.what();
    }
  }
  const fs::path empty = dir_ / "empty";
  fs::create_directories(empty);
  try {
    (void)read_safetensors_checkpoint(empty.string(), "--init-from");
    ADD_FAILURE() << "an empty folder was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--init-from");
    EXPECT_NE(std::string(e.what()).find("neither model.safetensors nor"), std::string::npos) << e.what();
  }
}

// The writer's files read back in the independent Python reader (make_fixtures.py --dump) to
// the same values, and in this reader byte for byte; the header is padded to 8 bytes.
TEST_F(SafetensorsFixtures, WrittenFilesReadBackInTheIndependentReader) {
  const SafetensorsFile source = SafetensorsFile::read((dir_ / "valid" / "dtypes.safetensors").string(), "x");
  std::vector<SafetensorsWriteTensor> tensors;
  for (const auto& t : source.header().tensors) tensors.push_back({t.name, t.dtype, t.shape, source.data(t)});
  const std::string path = (dir_ / "written.safetensors").string();
  write_safetensors_file(path, tensors, source.header().metadata, "--save-hf");

  const SafetensorsFile back = SafetensorsFile::read(path, "x");
  EXPECT_EQ(back.header().header_bytes % 8, 0u);
  EXPECT_EQ(back.header().metadata, source.header().metadata);
  ASSERT_EQ(back.header().tensors.size(), tensors.size());
  for (const auto& t : tensors) {
    const SafetensorsTensorInfo* info = back.header().find(t.name);
    ASSERT_NE(info, nullptr) << t.name;
    EXPECT_EQ(back.data(*info), t.data) << t.name;
  }
  const json dumped = json::parse(run_capture("python3 '" + kScript + "' --dump '" + path + "'"));
  const json& want = expected_["valid"]["dtypes.safetensors"];
  EXPECT_EQ(dumped["metadata"], want["metadata"]);
  ASSERT_EQ(dumped["tensors"].size(), want["tensors"].size());
  for (const auto& [name, t] : want["tensors"].items()) {
    EXPECT_EQ(dumped["tensors"][name]["dtype"], t["dtype"]) << name;
    EXPECT_EQ(dumped["tensors"][name]["shape"], t["shape"]) << name;
    for (size_t i = 0; i < t["values"].size(); ++i) {
      if (t["dtype"] == "F32") {
        EXPECT_EQ(static_cast<float>(dumped["tensors"][name]["values"][i].get<double>()),
                  static_cast<float>(t["values"][i].get<double>())) << name << "[" << i << "]";
      } else {
        EXPECT_EQ(dumped["tensors"][name]["values"][i], t["values"][i]) << name << "[" << i << "]";
      }
    }
  }
}

// Every truncation of a valid file, and every single-byte change of its header, is either a
// valid file or one InputError: never a crash or another exception (a small exhaustive fuzz).
TEST_F(SafetensorsFixtures, EveryTruncationAndHeaderByteFlipIsValidOrAnInputError) {
  const std::string good = read_all((dir_ / "valid" / "scalar_empty.safetensors").string());
  ASSERT_GT(good.size(), 16u);
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_THROW((void)parse_safetensors(std::string_view(good).substr(0, n), "cut"), InputError) << "prefix " << n;
  }
  uint64_t header_len = 0;
  std::memcpy(&header_len, good.data(), 8);
  int accepted = 0;
  for (size_t i = 0; i < 8 + header_len; ++i) {
    for (unsigned char x : {0x01, 0x20, 0x80, 0xFF}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ x);
      try {
        const SafetensorsHeader h = parse_safetensors(bad, "flip");
        uint64_t covered = 0;
        for (const auto& t : h.tensors) covered += t.size_bytes();
        EXPECT_EQ(covered, h.data_bytes);  // an accepted file is still tiled exactly
        ++accepted;
      } catch (const InputError&) {
      }
    }
  }
  EXPECT_LT(accepted, static_cast<int>(4 * (8 + header_len)));
}

}  // namespace
}  // namespace oomkit
