// The torch-free part of oomkit's trainer checkpoints (--save / --resume): the framing and the
// range checks of the metadata. The payload itself is a torch::serialize archive
// (src/train/train_state.cpp); LibTorch's unpickler is not ours to check.
//
// File layout: "OOMKCKPT" (8 bytes), payload length (uint64 LE), FNV-1a 64 of the payload
// (uint64 LE), then the payload.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace oomkit {

inline constexpr char kCheckpointMagic[8] = {'O', 'O', 'M', 'K', 'C', 'K', 'P', 'T'};
inline constexpr size_t kCheckpointHeaderBytes = 8 + 2 * sizeof(uint64_t);

/// FNV-1a 64 (Fowler-Noll-Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
uint64_t fnv1a64(std::string_view bytes);

/// The 24-byte header for `payload`.
std::string checkpoint_header(std::string_view payload);

/// Checks the header of a whole checkpoint file's bytes and returns its payload (a view into
/// `file_bytes`). Throws InputError(field, "<path>: ...") when the magic is missing, the file
/// is shorter or longer than the header says (truncated), or the checksum does not match.
std::string_view checkpoint_payload(std::string_view file_bytes, const std::string& path, const std::string& field);

/// The trajectory state in a checkpoint's "meta" JSON, range-checked.
struct CheckpointMeta {
  int64_t step = 0;               // the next optimizer step, in [0, max_step]
  int64_t data_position = 0;      // training batches drawn so far, >= 0
  double first_loss = 0.0;        // loss of step 0, for the final "first -> final" line
  double loss_scale = 65536.0;    // fp16 dynamic loss scale, > 0 and finite
  int64_t good_steps = 0;         // finite steps since the last scale change, >= 0
};

/// Parses and checks the meta JSON text (format "oomkit-train-checkpoint", version 1).
/// `max_step` is the run's --steps. Throws InputError(field, "<path>: meta: key '<k>': ...")
/// for malformed JSON, a wrong format or version, a missing key, a wrong type, a number out
/// of range (a step of 1e300, a negative step or data position, a step beyond --steps).
CheckpointMeta check_checkpoint_meta(std::string_view meta_json, int64_t max_step, const std::string& path,
                                     const std::string& field);

}  // namespace oomkit
