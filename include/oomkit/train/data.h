// Training data: token files in three formats, the default English corpus, the train/validation
// split and seeded random windows (nanoGPT's get_batch, made resumable by counting batches).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <torch/torch.h>

namespace oomkit {

/// A token id. uint32: Llama-3's vocabulary (128,256) does not fit 16 bits.
using Token = uint32_t;

/// The token file formats. llm.c's (karpathy/llm.c dev/data/data_common.py, write_datafile):
/// a header of 256 little-endian int32 (magic, version, token count, zeros), then the tokens.
enum class DataFormat {
  kText,         // UTF-8 text, one token per byte (V = 256)
  kLlmc,         // llm.c GPT-2: magic 20240520, version 1, uint16 tokens
  kLlmcLlama3,   // llm.c Llama-3: magic 20240801, version 7, uint32 tokens
  kNanoGptBin,   // nanoGPT's prepare.py output: raw little-endian uint16 tokens, `.bin`
};

/// "text", "llm.c", "llm.c-llama3", "nanogpt-bin".
const char* to_string(DataFormat format);

/// A token stream and where it came from.
struct TokenData {
  std::vector<Token> tokens;
  DataFormat format = DataFormat::kText;
  std::string source;               // the path, or "default corpus (<dir>, N files)"
  std::vector<std::string> files;   // files read, in order
  int64_t max_token = 0;            // largest token id (the model's V must exceed it)
};

/// Reads `path`, detecting its format: an llm.c magic number (20240520 or 20240801) in the
/// first int32, else a `.bin` name with an even size (nanoGPT), else UTF-8 text (byte tokens).
/// Throws InputError(field) naming the file for a missing or unreadable file, an empty file,
/// an llm.c header that is truncated, carries a version other than its magic's (1 for
/// 20240520, 7 for 20240801) or a token count that disagrees with the file size, an odd-sized
/// `.bin`, or anything else that is not valid UTF-8 (with the byte offset of the first invalid
/// sequence).
TokenData load_token_file(const std::string& path, const std::string& field = "--data");

/// `spec` is one file, or a glob pattern (`*`, `?`, `[...]`; POSIX glob(3)) naming shards,
/// e.g. llm.c's `fineweb_train_*.bin`: the matches, in sorted order, read with
/// load_token_file() and joined as one stream (a window may span two shards). Every shard must
/// have the same format. Throws InputError(field) for a pattern matching no file, shards of
/// different formats, or any shard load_token_file() refuses (naming that shard).
TokenData load_token_files(const std::string& spec, const std::string& field = "--data");

/// The default corpus: every regular file of `dir` (symlinks resolved, each target once, files
/// with identical content once), sorted by name and joined with a blank line, as byte tokens.
/// On Debian, /usr/share/common-licenses holds the English license texts (~250 KB) of
/// base-files. Throws InputError("--data") when the folder is missing or yields no text.
TokenData load_default_corpus(const std::string& dir = "/usr/share/common-licenses");

/// Shannon entropy of the token unigram distribution, in bits per token:
/// H = -sum_t p(t) log2 p(t), p(t) = count(t) / N. A model that learned nothing beyond token
/// frequencies has a cross-entropy of H·ln 2 nats per token. 0 for an empty stream.
double unigram_entropy_bits(const std::vector<Token>& tokens);

/// Inputs and next-token targets, each (B, T) int64.
struct Batch {
  torch::Tensor x;
  torch::Tensor y;
};

/// Splits the stream (the last `val_fraction` for validation) and draws windows of T + 1
/// tokens. Window starts come from a counter-based generator (SplitMix64 of seed, batch index
/// and row), so the data position is one integer: batch k is the same whichever run draws it.
class TokenDataset {
 public:
  /// Throws InputError("--seq-len") for T < 1, InputError("--data") when either split is shorter
  /// than T + 1 tokens, InputError("--val-fraction") outside (0, 0.5].
  TokenDataset(TokenData data, int64_t seq_len, uint64_t seed, double val_fraction = 0.1);
  /// Training windows from `train`, validation windows from `val` (--val-data): the two
  /// streams are kept apart (no window spans them). Throws InputError("--seq-len") for T < 1,
  /// InputError("--data") / ("--val-data") when that stream is shorter than T + 1 tokens, and
  /// InputError("--val-data") when its format differs from --data's (text bytes against
  /// GPT-2 tokens would be a different vocabulary).
  TokenDataset(TokenData train, TokenData val, int64_t seq_len, uint64_t seed);

  /// The next training batch (B, T); advances position() by one. Rows first_row ..
  /// first_row + B - 1 of the global batch at this position: data-parallel rank r of W, each
  /// with B rows, passes first_row = r·B, so the W ranks read disjoint rows whose union is the
  /// batch a single process reads with W·B rows (window b depends on (seed, position, b) only).
  Batch next_train_batch(int64_t batch_size, int64_t first_row = 0);
  /// Validation batch `index` (B, T): the same windows on every call, so evaluations compare.
  /// `first_row` as for next_train_batch().
  Batch val_batch(int64_t index, int64_t batch_size, int64_t first_row = 0) const;

  int64_t position() const { return position_; }  // training batches drawn so far
  void set_position(int64_t position) { position_ = position; }
  int64_t seq_len() const { return seq_len_; }
  int64_t train_tokens() const { return split_; }
  int64_t val_tokens() const { return static_cast<int64_t>(data_.tokens.size()) - split_; }
  const TokenData& data() const { return data_; }

 private:
  Batch make_batch(int64_t begin, int64_t end, uint64_t stream, int64_t index, int64_t batch_size,
                   int64_t first_row) const;

  TokenData data_;
  int64_t seq_len_;
  uint64_t seed_;
  int64_t split_;  // tokens [0, split_) train, [split_, N) validation
  int64_t position_ = 0;
};

}  // namespace oomkit
