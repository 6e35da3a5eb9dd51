#include "oomkit/core/checkpoint_format.h"

#include <cmath>
#include <cstring>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"

namespace oomkit {

namespace {
constexpr int64_t kCheckpointFormatVersion = 1;
}  // namespace

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string checkpoint_header(std::string_view payload) {
  const uint64_t length = payload.size();
  const uint64_t checksum = fnv1a64(payload);
  std::string header(kCheckpointMagic, sizeof(kCheckpointMagic));
  header.append(reinterpret_cast<const char*>(&length), sizeof(length));
  header.append(reinterpret_cast<const char*>(&checksum), sizeof(checksum));
  return header;
}

std::string_view checkpoint_payload(std::string_view bytes, const std::string& path, const std::string& field) {
  if (bytes.size() < kCheckpointHeaderBytes || std::memcmp(bytes.data(), kCheckpointMagic, sizeof(kCheckpointMagic)) != 0) {
    throw InputError(field, path + ": not an oomkit checkpoint (no OOMKCKPT header)",
                     "pass a file written by oomkit train --save");
  }
  uint64_t length = 0, checksum = 0;
  std::memcpy(&length, bytes.data() + sizeof(kCheckpointMagic), sizeof(length));
  std::memcpy(&checksum, bytes.data() + sizeof(kCheckpointMagic) + sizeof(length), sizeof(checksum));
  const std::string_view payload = bytes.substr(kCheckpointHeaderBytes);
  if (payload.size() != length) {
    throw InputError(field, path + ": truncated checkpoint (" + std::to_string(payload.size()) + " of " +
                                std::to_string(length) + " payload bytes)");
  }
  if (fnv1a64(payload) != checksum) throw InputError(field, path + ": corrupted checkpoint (checksum mismatch)");
  return payload;
}

CheckpointMeta check_checkpoint_meta(std::string_view meta_json, int64_t max_step, const std::string& path,
                                     const std::string& field) {
  const std::string where = path + ": meta";
  try {
    const nlohmann::json meta = parse_json_input(meta_json, where);
    const JsonFields f(meta, where);
    if (f.string_or("format", "") != "oomkit-train-checkpoint" || f.int64_or("version", 0) != kCheckpointFormatVersion) {
      throw InputError(where, "unsupported checkpoint format or version");
    }
    CheckpointMeta m;
    m.step = f.int64("step");
    if (m.step < 0) f.fail("step", "must not be negative, got " + std::to_string(m.step));
    if (m.step > max_step) f.fail("step", std::to_string(m.step) + " is beyond --steps " + std::to_string(max_step));
    m.data_position = f.int64("data_position");
    if (m.data_position < 0) f.fail("data_position", "must not be negative, got " + std::to_string(m.data_position));
    m.first_loss = f.number_or("first_loss", 0.0);
    m.loss_scale = f.number_or("loss_scale", 65536.0);
    if (!(m.loss_scale > 0.0)) f.fail("loss_scale", "must be positive");
    m.good_steps = f.int64_or("good_steps", 0);
    if (m.good_steps < 0) f.fail("good_steps", "must not be negative");
    return m;
  } catch (const InputError& e) {
    throw InputError(field, e.what(), "pass a checkpoint written by oomkit train --save for this run");
  }
}

}  // namespace oomkit
