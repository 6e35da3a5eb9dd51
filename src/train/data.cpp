#include "oomkit/train/data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unordered_set>
#include <utility>

#include <glob.h>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"

namespace oomkit {

namespace fs = std::filesystem;

namespace {

// llm.c dev/data/data_common.py, HEADERS_INFO: "gpt-2" {magic 20240520, version 1, uint16},
// "llama-3" {magic 20240801, version 7, uint32}; header: 256 int32 (magic, version, count).
constexpr int32_t kLlmcMagic = 20240520;
constexpr int32_t kLlmcVersion = 1;
constexpr int32_t kLlmcLlama3Magic = 20240801;
constexpr int32_t kLlmcLlama3Version = 7;
constexpr int64_t kLlmcHeaderInts = 256;
// Largest --data file read (whole, into memory): 2^31 uint16 tokens, or 4 GiB of text.
constexpr size_t kMaxDataFileBytes = size_t{4} << 30;

// A FIFO, socket or device is refused (exit 2) instead of blocking or reading forever.
std::string read_file_bytes(const std::string& path, const std::string& field) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(field, path + ": no such file");
  if (fs::is_directory(path, ec)) throw InputError(field, path + ": is a directory, expected a file");
  return read_input_file(path, field, kMaxDataFileBytes);
}

// Offset of the first byte that does not start or continue a valid UTF-8 sequence (RFC 3629:
// no overlong forms, no surrogates, <= U+10FFFF), or of a NUL byte; -1 when all is valid.
int64_t first_invalid_utf8(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const int64_t n = static_cast<int64_t>(s.size());
  int64_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    int len = 0;
    uint32_t cp = 0;
    if (c == 0) return i;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return i;
    if (i + len > n) return i;
    for (int k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    const uint32_t min_cp = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return -1;
}

TokenData bytes_as_tokens(const std::string& bytes) {
  TokenData d;
  d.tokens.resize(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) d.tokens[i] = static_cast<unsigned char>(bytes[i]);
  return d;
}

void set_max_token(TokenData& d) {
  d.max_token = d.tokens.empty() ? 0 : *std::max_element(d.tokens.begin(), d.tokens.end());
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// SplitMix64 (Steele, Lea, Flood 2014): a counter-based generator, so that window k of a run
// is a pure function of (seed, stream, k) and resuming needs only the counter.
uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

const char* to_string(DataFormat format) {
  switch (format) {
    case DataFormat::kText: return "text";
    case DataFormat::kLlmc: return "llm.c";
    case DataFormat::kLlmcLlama3: return "llm.c-llama3";
    case DataFormat::kNanoGptBin: return "nanogpt-bin";
  }
  return "unknown";
}

TokenData load_token_file(const std::string& path, const std::string& field) {
  const std::string bytes = read_file_bytes(path, field);
  if (bytes.empty()) throw InputError(field, path + ": file is empty");
  TokenData d;
  int32_t magic = 0;
  if (bytes.size() >= sizeof(int32_t)) std::memcpy(&magic, bytes.data(), sizeof(int32_t));
  if (magic == kLlmcMagic || magic == kLlmcLlama3Magic) {
    const bool llama3 = magic == kLlmcLlama3Magic;
    const int32_t version = llama3 ? kLlmcLlama3Version : kLlmcVersion;
    const int64_t token_bytes = llama3 ? 4 : 2;
    const std::string kind = llama3 ? "llm.c Llama-3 token file (magic 20240801, version 7, uint32 tokens)"
                                    : "llm.c GPT-2 token file (magic 20240520, version 1, uint16 tokens)";
    const int64_t header_bytes = kLlmcHeaderInts * 4;
    if (static_cast<int64_t>(bytes.size()) < header_bytes) {
      throw InputError(field, path + ": llm.c magic " + std::to_string(magic) + " found but the 1024-byte header is truncated (" +
                                  std::to_string(bytes.size()) + " bytes)");
    }
    int32_t header[3];
    std::memcpy(header, bytes.data(), sizeof(header));
    if (header[1] != version) {
      throw InputError(field, path + ": llm.c header version " + std::to_string(header[1]) + " with magic " +
                                  std::to_string(magic) + " (expected version " + std::to_string(version) + ": " + kind + ")");
    }
    const int64_t count = header[2];
    const int64_t expected = header_bytes + token_bytes * count;
    if (count <= 0 || static_cast<int64_t>(bytes.size()) != expected) {
      throw InputError(field, path + ": llm.c header says " + std::to_string(count) + " tokens (" +
                                  std::to_string(expected) + " bytes) but the file has " + std::to_string(bytes.size()) +
                                  " bytes");
    }
    d.tokens.resize(static_cast<size_t>(count));
    const char* p = bytes.data() + header_bytes;
    if (llama3) {
      std::memcpy(d.tokens.data(), p, static_cast<size_t>(4 * count));
    } else {
      for (int64_t i = 0; i < count; ++i) {
        uint16_t t = 0;
        std::memcpy(&t, p + 2 * i, 2);
        d.tokens[static_cast<size_t>(i)] = t;
      }
    }
    d.format = llama3 ? DataFormat::kLlmcLlama3 : DataFormat::kLlmc;
  } else if (ends_with(path, ".bin")) {
    if (bytes.size() % 2 != 0) {
      throw InputError(field, path + ": a .bin token file (nanoGPT) must hold uint16 tokens, but its size " +
                                  std::to_string(bytes.size()) + " is odd");
    }
    d.tokens.resize(bytes.size() / 2);
    for (size_t i = 0; i < d.tokens.size(); ++i) {
      uint16_t t = 0;
      std::memcpy(&t, bytes.data() + 2 * i, 2);
      d.tokens[i] = t;
    }
    d.format = DataFormat::kNanoGptBin;
  } else {
    const int64_t bad = first_invalid_utf8(bytes);
    if (bad >= 0) {
      throw InputError(field, path + ": not UTF-8 text (invalid byte at offset " + std::to_string(bad) +
                                  "), not an llm.c token file (magic 20240520 or 20240801) and not a nanoGPT .bin",
                       "pass a UTF-8 text file, an llm.c .bin or a nanoGPT train.bin");
    }
    d = bytes_as_tokens(bytes);
    d.format = DataFormat::kText;
  }
  d.source = path;
  d.files = {path};
  set_max_token(d);
  return d;
}

TokenData load_token_files(const std::string& spec, const std::string& field) {
  if (spec.find_first_of("*?[") == std::string::npos) return load_token_file(spec, field);
  glob_t matches{};
  const int rc = ::glob(spec.c_str(), GLOB_ERR, nullptr, &matches);  // sorted (no GLOB_NOSORT)
  std::vector<std::string> paths;
  for (size_t i = 0; rc == 0 && i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
  globfree(&matches);
  if (paths.empty()) throw InputError(field, spec + ": the pattern matches no file");
  TokenData all;
  for (const std::string& path : paths) {
    TokenData shard = load_token_file(path, field);
    if (all.files.empty()) {
      all.format = shard.format;
    } else if (shard.format != all.format) {
      throw InputError(field, path + ": " + to_string(shard.format) + " tokens, but " + all.files.front() + " is " +
                                  to_string(all.format) + "; the shards of one pattern must share a format");
    }
    all.tokens.insert(all.tokens.end(), shard.tokens.begin(), shard.tokens.end());
    all.files.push_back(path);
  }
  all.source = spec + " (" + std::to_string(all.files.size()) + (all.files.size() == 1 ? " file)" : " files)");
  set_max_token(all);
  return all;
}

TokenData load_default_corpus(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError("--data", "default corpus folder " + dir + " is missing",
                     "pass --data FILE (any UTF-8 text), or install Debian's base-files");
  }
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  std::set<fs::path> targets;
  std::unordered_set<std::string> contents;
  std::string text;
  std::vector<std::string> files;
  for (const auto& entry : entries) {
    const fs::path target = fs::canonical(entry, ec);
    if (ec || !fs::is_regular_file(target, ec) || !targets.insert(target).second) continue;
    std::ifstream in(target, std::ios::binary);
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (body.empty() || first_invalid_utf8(body) >= 0 || !contents.insert(body).second) continue;
    if (!text.empty()) text += "\n\n";
    text += body;
    files.push_back(target.string());
  }
  if (text.empty()) throw InputError("--data", "default corpus folder " + dir + " holds no UTF-8 text files");
  TokenData d = bytes_as_tokens(text);
  d.format = DataFormat::kText;
  d.files = files;
  d.source = "default corpus (" + dir + ", " + std::to_string(files.size()) + " files)";
  set_max_token(d);
  return d;
}

double unigram_entropy_bits(const std::vector<Token>& tokens) {
  if (tokens.empty()) return 0.0;
  std::vector<int64_t> counts;
  const Token max_token = *std::max_element(tokens.begin(), tokens.end());
  if (max_token < (Token{1} << 24)) {
    counts.assign(static_cast<size_t>(max_token) + 1, 0);
    for (Token t : tokens) ++counts[t];
  } else {  // sparse ids: count runs of the sorted stream
    std::vector<Token> sorted = tokens;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size();) {
      size_t j = i;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      counts.push_back(static_cast<int64_t>(j - i));
      i = j;
    }
  }
  const double n = static_cast<double>(tokens.size());
  double h = 0.0;
  for (int64_t c : counts) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / n;
    h -= p * std::log2(p);
  }
  return h;
}

TokenDataset::TokenDataset(TokenData data, int64_t seq_len, uint64_t seed, double val_fraction)
    : data_(std::move(data)), seq_len_(seq_len), seed_(seed) {
  if (seq_len_ < 1) throw InputError("--seq-len", "must be >= 1, got " + std::to_string(seq_len_));
  if (!(val_fraction > 0.0 && val_fraction <= 0.5)) {
    throw InputError("--val-fraction", "must be in (0, 0.5], got " + std::to_string(val_fraction));
  }
  const int64_t n = static_cast<int64_t>(data_.tokens.size());
  split_ = n - static_cast<int64_t>(std::floor(static_cast<double>(n) * val_fraction));
  const int64_t shortest = std::min(split_, n - split_);
  if (shortest < seq_len_ + 1) {
    throw InputError("--data", data_.source + ": " + std::to_string(n) + " tokens give a " +
                                   (split_ <= n - split_ ? "training" : "validation") + " split of " +
                                   std::to_string(shortest) + " tokens, shorter than one sequence (T + 1 = " +
                                   std::to_string(seq_len_ + 1) + ")",
                     "use a longer file or a smaller --seq-len");
  }
}

TokenDataset::TokenDataset(TokenData train, TokenData val, int64_t seq_len, uint64_t seed)
    : seq_len_(seq_len), seed_(seed) {
  if (seq_len_ < 1) throw InputError("--seq-len", "must be >= 1, got " + std::to_string(seq_len_));
  if (val.format != train.format) {
    throw InputError("--val-data", val.source + " holds " + to_string(val.format) + " tokens, but --data " +
                                       train.source + " holds " + to_string(train.format) + " tokens",
                     "pass validation data tokenized like the training data");
  }
  for (const auto& [what, d] : {std::pair<const char*, const TokenData*>{"--data", &train}, {"--val-data", &val}}) {
    if (static_cast<int64_t>(d->tokens.size()) < seq_len_ + 1) {
      throw InputError(what, d->source + ": " + std::to_string(d->tokens.size()) +
                                 " tokens, shorter than one sequence (T + 1 = " + std::to_string(seq_len_ + 1) + ")",
                       "use a longer file or a smaller --seq-len");
    }
  }
  data_ = std::move(train);
  split_ = static_cast<int64_t>(data_.tokens.size());
  data_.tokens.insert(data_.tokens.end(), val.tokens.begin(), val.tokens.end());
  data_.files.insert(data_.files.end(), val.files.begin(), val.files.end());
  data_.max_token = std::max(data_.max_token, val.max_token);
  data_.source += "; validation " + val.source;
}

Batch TokenDataset::make_batch(int64_t begin, int64_t end, uint64_t stream, int64_t index, int64_t batch_size,
                               int64_t first_row) const {
  if (first_row < 0) throw InputError("first_row", "must be >= 0, got " + std::to_string(first_row));
  if (batch_size < 1) throw InputError("--batch-size", "must be >= 1, got " + std::to_string(batch_size));
  const int64_t T = seq_len_;
  const uint64_t starts = static_cast<uint64_t>(end - begin - T);  // windows [s, s + T] inside [begin, end)
  torch::Tensor x = torch::empty({batch_size, T}, torch::kLong);   // (B, T)
  torch::Tensor y = torch::empty({batch_size, T}, torch::kLong);   // (B, T)
  int64_t* xp = x.data_ptr<int64_t>();
  int64_t* yp = y.data_ptr<int64_t>();
  const Token* tok = data_.tokens.data();
  for (int64_t b = 0; b < batch_size; ++b) {
    const uint64_t key = splitmix64(seed_ ^ splitmix64(stream ^ splitmix64(static_cast<uint64_t>(index) * 0x100000001B3ull +
                                                                            static_cast<uint64_t>(first_row + b))));
    const int64_t s = begin + static_cast<int64_t>(key % starts);
    for (int64_t t = 0; t < T; ++t) {
      xp[b * T + t] = tok[s + t];
      yp[b * T + t] = tok[s + t + 1];
    }
  }
  return {x, y};
}

Batch TokenDataset::next_train_batch(int64_t batch_size, int64_t first_row) {
  Batch b = make_batch(0, split_, 0x7472616E /* "tran" */, position_, batch_size, first_row);
  ++position_;
  return b;
}

Batch TokenDataset::val_batch(int64_t index, int64_t batch_size, int64_t first_row) const {
  return make_batch(split_, static_cast<int64_t>(data_.tokens.size()), 0x76616C /* "val" */, index, batch_size,
                    first_row);
}

}  // namespace oomkit
