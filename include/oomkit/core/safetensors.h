// Safetensors (Hugging Face's tensor file format), read and written to its specification
// (github.com/huggingface/safetensors, README "Format", and the validation of its reference
// reader, safetensors/src/tensor.rs), torch-free:
//
//   8 bytes     N, a little-endian uint64: the size of the header
//   N bytes     a UTF-8 JSON object {"NAME": {"dtype": "F16", "shape": [1, 16, 256],
//               "data_offsets": [BEGIN, END]}, ...}, with an optional "__metadata__" object of
//               string -> string; the writer pads it with spaces to a multiple of 8 bytes
//   the rest    the byte buffer: each tensor's elements, row-major, little-endian, packed, at
//               [BEGIN, END) relative to the start of the buffer
//
// A file is accepted only when it is exactly what the spec describes: N <= 100,000,000 (the
// reference reader's limit) and N <= file size - 8; the header is a JSON object (first byte '{')
// without duplicate keys; each tensor has a known dtype, a shape of non-negative integers and
// data_offsets [BEGIN, END] with END - BEGIN = product(shape) * dtype size (no overflow); the
// tensors, in offset order, tile the buffer from 0 to its end without gap or overlap. Anything
// else is one InputError naming the file and the tensor or key, never a crash.
//
// Sharded checkpoints: `model.safetensors.index.json` = {"metadata": {...}, "weight_map":
// {"NAME": "model-00001-of-00002.safetensors", ...}} (transformers' save_pretrained).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace oomkit {

/// The reference reader's header limit (safetensors/src/tensor.rs MAX_HEADER_SIZE).
inline constexpr uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;
/// Largest safetensors file oomkit reads whole into memory.
inline constexpr size_t kSafetensorsMaxFileBytes = size_t{1} << 40;  // 1 TiB
/// Highest tensor rank accepted.
inline constexpr size_t kSafetensorsMaxRank = 64;

/// The spec's dtypes of whole bytes (the sub-byte F4/F6 kinds are refused as unsupported).
enum class SafetensorsDtype {
  kBool, kU8, kI8, kF8E5M2, kF8E4M3, kI16, kU16, kF16, kBF16, kI32, kU32, kF32, kF64, kI64, kU64, kC64
};

/// "BOOL", "U8", ..., "F32", the spelling of the header.
const char* safetensors_dtype_name(SafetensorsDtype dtype);
/// Bytes per element: 1, 2, 4 or 8.
size_t safetensors_dtype_bytes(SafetensorsDtype dtype);
/// Parses a header spelling; false when unknown.
bool parse_safetensors_dtype(std::string_view name, SafetensorsDtype* out);

/// One tensor of a header. Offsets are relative to the byte buffer (after the 8 + N header bytes).
struct SafetensorsTensorInfo {
  std::string name;
  SafetensorsDtype dtype = SafetensorsDtype::kF32;
  std::vector<int64_t> shape;  // row-major; [] is a scalar, a 0 extent an empty tensor
  uint64_t begin = 0;          // data_offsets[0], bytes
  uint64_t end = 0;            // data_offsets[1], one past the last byte
  /// Product of the shape (1 for a scalar).
  int64_t numel() const;
  uint64_t size_bytes() const { return end - begin; }
};

/// A checked header.
struct SafetensorsHeader {
  std::vector<SafetensorsTensorInfo> tensors;    // in offset order
  std::map<std::string, std::string> metadata;   // "__metadata__", e.g. {"format": "pt"}
  uint64_t header_bytes = 0;                     // N
  uint64_t data_bytes = 0;                       // size of the byte buffer
  /// The tensor named `name`, or nullptr.
  const SafetensorsTensorInfo* find(std::string_view name) const;
};

/// Parses and checks a whole safetensors file held in memory (`source` names it in errors).
/// Throws InputError(source, "...") for every violation listed at the top of this header:
/// shorter than 8 bytes, N over the limit or past the end of the file, a header that is not
/// a UTF-8 JSON object or has duplicate keys, a tensor entry that is not an object or lacks or
/// mistypes dtype/shape/data_offsets, an unknown dtype, a negative or non-integer dimension, a
/// size overflow, END < BEGIN, END - BEGIN != product(shape) * dtype size, a gap or an overlap
/// between tensors, a buffer longer or shorter than the last END, a non-string metadata value.
SafetensorsHeader parse_safetensors(std::string_view file_bytes, const std::string& source);

/// A safetensors file read and checked (the whole file in memory).
class SafetensorsFile {
 public:
  /// Reads `path` (a regular file of at most kSafetensorsMaxFileBytes) and checks it
  /// (parse_safetensors). Throws InputError(field, ...) when unreadable, InputError(path, ...)
  /// when malformed.
  static SafetensorsFile read(const std::string& path, const std::string& field);
  /// Wraps bytes already in memory (a test, a fuzzer). Throws as parse_safetensors.
  static SafetensorsFile from_bytes(std::string bytes, const std::string& source);

  const SafetensorsHeader& header() const { return header_; }
  const std::string& source() const { return source_; }
  /// The raw little-endian bytes of `tensor` (which must come from header()).
  std::string_view data(const SafetensorsTensorInfo& tensor) const;

 private:
  std::string bytes_;
  std::string source_;
  SafetensorsHeader header_;
};

/// One tensor to write: `data` holds product(shape) * dtype size bytes, row-major, little-endian.
struct SafetensorsWriteTensor {
  std::string name;
  SafetensorsDtype dtype = SafetensorsDtype::kF32;
  std::vector<int64_t> shape;
  std::string_view data;
};

/// The header bytes (8-byte length + JSON padded with spaces to a multiple of 8) of a file
/// holding `tensors` in the given order, back to back from offset 0. The full file is this
/// followed by each tensor's data in order. Throws std::invalid_argument for an empty or
/// duplicate name, "__metadata__" as a name, a negative dimension, or a data size that does
/// not match the shape (a caller's bug, not bad input).
std::string safetensors_header_bytes(const std::vector<SafetensorsWriteTensor>& tensors,
                                     const std::map<std::string, std::string>& metadata);

/// Writes a whole safetensors file (header + data) to `path` with write_file_durably.
/// Throws as safetensors_header_bytes, and InputError(field, ...) when the write fails.
void write_safetensors_file(const std::string& path, const std::vector<SafetensorsWriteTensor>& tensors,
                            const std::map<std::string, std::string>& metadata, const std::string& field);

/// A checked `model.safetensors.index.json`.
struct SafetensorsIndex {
  std::map<std::string, std::string> weight_map;  // tensor name -> shard file name
  std::vector<std::string> shards;                // the distinct shard names, sorted
};

/// Parses an index. Throws InputError(source, ...) when it is not a JSON object, has no
/// "weight_map" object, maps a name to a non-string, or names a shard that is not a plain
/// file name in the same folder (empty, ".", "..", containing '/' or '\\' or a NUL byte).
SafetensorsIndex parse_safetensors_index(std::string_view json_text, const std::string& source);

/// Every tensor of a checkpoint folder: `model.safetensors`, or the shards listed by
/// `model.safetensors.index.json` when that exists (the index wins, as in transformers).
struct SafetensorsCheckpoint {
  std::vector<SafetensorsFile> files;
  struct Entry {
    size_t file = 0;    // index into files
    size_t tensor = 0;  // index into files[file].header().tensors
  };
  std::map<std::string, Entry> tensors;   // every tensor name of every file, each once
  const SafetensorsTensorInfo& info(const Entry& entry) const {
    return files[entry.file].header().tensors[entry.tensor];
  }
  /// The tensor's bytes.
  std::string_view data(const Entry& entry) const { return files[entry.file].data(info(entry)); }
};

/// Reads the checkpoint in folder `dir`. Throws InputError(field, ...) when the folder has
/// neither file; InputError(<file>, ...) for a malformed file or index, a tensor that appears
/// in two shards, or a weight_map entry whose shard does not hold it.
SafetensorsCheckpoint read_safetensors_checkpoint(const std::string& dir, const std::string& field);

}  // namespace oomkit
