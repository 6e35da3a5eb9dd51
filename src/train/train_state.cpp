// Saved-run checkpoints (--save / --resume; not activation checkpointing, see checkpoint.h):
// model, optimizer state, step, RNG states, data position.
//
// File layout: "OOMKCKPT" (8 bytes), payload length (uint64 LE), FNV-1a 64 of the payload
// (uint64 LE), then the payload, a torch::serialize archive with keys
//   meta       JSON string: format, version, model config, run settings, step, data position
//   model      nested archive (Module::save)
//   optimizer  nested archive (Optimizer::save)
//   rng_cpu    the CPU generator state (uint8 tensor)
//   rng_cuda   the CUDA device's generator state, for a CUDA run (absent in CPU runs and in
//              files written before it existed: resume then keeps the seeded CUDA generator)
// The checksum turns a torn or corrupted file into a clear error instead of garbage weights.
// The file is written to PATH.tmp and renamed, so a crash never leaves a torn PATH.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <algorithm>

#include "oomkit/core/error.h"
#include "oomkit/train/rng_autocast.h"
#include "oomkit/train/trainer.h"

namespace oomkit {

namespace {

constexpr char kMagic[8] = {'O', 'O', 'M', 'K', 'C', 'K', 'P', 'T'};
constexpr int kFormatVersion = 1;

uint64_t fnv1a64(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

void Trainer::save_checkpoint(const std::string& path) const {
  nlohmann::json meta = {
      {"format", "oomkit-train-checkpoint"},
      {"version", kFormatVersion},
      {"model", nlohmann::json::parse(model_config_to_json(config_))},
      {"precision", to_string(options_.precision)},
      {"optimizer", to_string(options_.optimizer)},
      {"seq_len", options_.seq_len},
      {"batch_size", options_.batch_size},
      {"grad_accum", options_.grad_accum},
      {"seed", options_.seed},
      {"step", next_step_},
      {"data_position", dataset_->position()},
      {"first_loss", first_loss_},
      {"loss_scale", loss_scale_},
      {"good_steps", good_steps_},
  };
  std::string payload;
  try {
    torch::serialize::OutputArchive archive;
    archive.write("meta", c10::IValue(meta.dump()));
    torch::serialize::OutputArchive model_archive;
    model_->save(model_archive);
    archive.write("model", model_archive);
    torch::serialize::OutputArchive optimizer_archive;
    optimizer_->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
    const RngState rng = capture_rng_state(device_.is_cuda() ? std::max<int>(0, device_.index()) : -1);
    archive.write("rng_cpu", rng.cpu);
    if (rng.cuda.defined()) archive.write("rng_cuda", rng.cuda);
    std::ostringstream out;
    archive.save_to(out);
    payload = out.str();
  } catch (const c10::Error& e) {
    throw std::runtime_error("checkpoint serialisation failed: " + first_line(e.what_without_backtrace()));
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) throw InputError("--save", tmp + ": cannot be opened for writing");
    const uint64_t length = payload.size();
    const uint64_t checksum = fnv1a64(payload);
    file.write(kMagic, sizeof(kMagic));
    file.write(reinterpret_cast<const char*>(&length), sizeof(length));
    file.write(reinterpret_cast<const char*>(&checksum), sizeof(checksum));
    file.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    file.flush();
    if (!file) {
      std::remove(tmp.c_str());
      throw InputError("--save", tmp + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError("--save", path + ": cannot rename " + tmp + " into place: " + ec.message());
  }
}

void Trainer::load_checkpoint(const std::string& path) {
  const std::string field = "--resume";
  std::ifstream file(path, std::ios::binary);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || !file) throw InputError(field, path + ": no such checkpoint file");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  constexpr size_t kHeader = sizeof(kMagic) + 2 * sizeof(uint64_t);
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw InputError(field, path + ": not an oomkit checkpoint (no OOMKCKPT header)",
                     "pass a file written by oomkit train --save");
  }
  uint64_t length = 0, checksum = 0;
  std::memcpy(&length, bytes.data() + sizeof(kMagic), sizeof(length));
  std::memcpy(&checksum, bytes.data() + sizeof(kMagic) + sizeof(length), sizeof(checksum));
  const std::string payload = bytes.substr(kHeader);
  if (payload.size() != length) {
    throw InputError(field, path + ": truncated checkpoint (" + std::to_string(payload.size()) + " of " +
                                std::to_string(length) + " payload bytes)");
  }
  if (fnv1a64(payload) != checksum) throw InputError(field, path + ": corrupted checkpoint (checksum mismatch)");

  torch::serialize::InputArchive archive;
  nlohmann::json meta;
  try {
    std::istringstream in(payload);
    archive.load_from(in);
    c10::IValue meta_value;
    archive.read("meta", meta_value);
    meta = nlohmann::json::parse(meta_value.toStringRef());
  } catch (const std::exception& e) {
    throw InputError(field, path + ": unreadable checkpoint archive: " + first_line(e.what()));
  }
  if (meta.value("format", "") != "oomkit-train-checkpoint" || meta.value("version", 0) != kFormatVersion) {
    throw InputError(field, path + ": unsupported checkpoint format or version");
  }
  // Everything that changes the trajectory or the tensors' shapes must match.
  std::vector<std::string> mismatches;
  const nlohmann::json model_now = nlohmann::json::parse(model_config_to_json(config_));
  if (meta["model"] != model_now) mismatches.push_back("model config (checkpoint: " + meta["model"].dump() + ")");
  auto check = [&](const char* key, const nlohmann::json& now) {
    if (meta[key] != now) mismatches.push_back(std::string(key) + " (checkpoint " + meta[key].dump() + ", now " + now.dump() + ")");
  };
  check("precision", to_string(options_.precision));
  check("optimizer", to_string(options_.optimizer));
  check("seq_len", options_.seq_len);
  check("seed", options_.seed);
  if (!mismatches.empty()) {
    std::string joined;
    for (const auto& m : mismatches) joined += (joined.empty() ? "" : "; ") + m;
    throw InputError(field, path + " does not match this run: " + joined,
                     "resume with the same --model, --precision, --optimizer, --seq-len and --seed");
  }
  const int64_t step = meta["step"].get<int64_t>();
  if (step > options_.steps) {
    throw InputError(field, path + " is at step " + std::to_string(step) + ", beyond --steps " + std::to_string(options_.steps));
  }
  try {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model_->load(model_archive);
    torch::serialize::InputArchive optimizer_archive;
    archive.read("optimizer", optimizer_archive);
    optimizer_->load(optimizer_archive);
    RngState rng;
    archive.read("rng_cpu", rng.cpu);
    if (device_.is_cuda()) {
      torch::Tensor cuda_state;
      if (archive.try_read("rng_cuda", cuda_state)) {
        rng.cuda = cuda_state;
        rng.cuda_device = std::max<int>(0, device_.index());
      }
    }
    restore_rng_state(rng);
  } catch (const c10::Error& e) {
    throw InputError(field, path + ": checkpoint tensors do not fit this model/optimizer: " +
                                first_line(e.what_without_backtrace()));
  }
  next_step_ = step;
  dataset_->set_position(meta["data_position"].get<int64_t>());
  first_loss_ = meta.value("first_loss", 0.0);
  loss_scale_ = meta.value("loss_scale", 65536.0);
  good_steps_ = meta.value("good_steps", int64_t{0});
}

}  // namespace oomkit
