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

#include "oomkit/core/checkpoint_format.h"
#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"
#include "oomkit/core/write_file.h"
#include "oomkit/train/distributed.h"
#include "oomkit/train/optim/optimizers.h"
#include "oomkit/train/rng_autocast.h"
#include "oomkit/train/trainer.h"

namespace oomkit {

namespace {

constexpr int kFormatVersion = 1;

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The largest checkpoint read (whole, into memory).
constexpr size_t kMaxCheckpointBytes = size_t{1} << 40;

nlohmann::json lora_json(const LoraConfig& lora) {
  return {{"rank", lora.rank}, {"alpha", lora.alpha}, {"targets", lora.targets}};
}

std::string serialise_optimizer(const torch::optim::Optimizer& optimizer) {
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

// Moves every parameter state of `from` into `to` (both key their state by the parameter's
// TensorImpl, optimizer_state_key): the states of the parameters `to` covers.
void move_param_states(torch::optim::Optimizer& from, torch::optim::Optimizer& to,
                       const std::vector<torch::Tensor>& params) {
  for (const auto& p : params) {
    const OptimizerStateKey key = optimizer_state_key(p);
    auto it = from.state().find(key);
    if (it == from.state().end()) continue;  // no step yet: lazily created state
    to.state()[key] = std::move(it->second);
    from.state().erase(it);
  }
}

}  // namespace

void Trainer::consolidate_optimizer_state() {
  if (owned_by_rank_.empty()) return;
  try {
    std::unique_ptr<torch::optim::Optimizer> whole;
    if (rank() == 0) {
      whole = build_optimizer(params_);
      // The learning rate the step set (set_learning_rate), as an unsharded optimizer would save it.
      set_learning_rate(*whole, optimizer_->param_groups().front().options().get_lr());
    }
    for (size_t r = 0; r < owned_by_rank_.size(); ++r) {
      const std::string mine = static_cast<int>(r) == rank() ? serialise_optimizer(*optimizer_) : std::string();
      const std::string bytes = group_->broadcast_blob(mine, static_cast<int>(r), "zero_optimizer_state");
      if (rank() != 0) continue;
      // Rank r's optimizer covers owned_by_rank_[r] in this order: load its archive into an
      // optimizer over rank 0's copies of those parameters, then move the states across.
      std::unique_ptr<torch::optim::Optimizer> share = build_optimizer(owned_by_rank_[r]);
      torch::serialize::InputArchive archive;
      std::istringstream in(bytes);
      archive.load_from(in);
      share->load(archive);
      move_param_states(*share, *whole, owned_by_rank_[r]);
    }
    consolidated_optimizer_ = std::move(whole);
  } catch (const c10::OutOfMemoryError&) {
    throw;  // an OOM stays an OOM (the whole state on rank 0 is a transient the estimate does not count)
  } catch (const c10::Error& e) {
    throw std::runtime_error("ZeRO-1 optimizer state consolidation failed: " + first_line(e.what_without_backtrace()));
  }
}

void Trainer::save_checkpoint(const std::string& path) const {
  if (!owned_by_rank_.empty() && !consolidated_optimizer_) {
    throw std::logic_error("save_checkpoint: the sharded optimizer state was not consolidated first");
  }
  // ZeRO-1: the whole state gathered by consolidate_optimizer_state(), released after writing.
  const std::unique_ptr<torch::optim::Optimizer> consolidated = std::move(consolidated_optimizer_);
  const torch::optim::Optimizer& optimizer = consolidated ? *consolidated : *optimizer_;
  nlohmann::json meta = {
      {"format", "oomkit-train-checkpoint"},
      {"version", kFormatVersion},
      {"model", nlohmann::json::parse(model_config_to_json(config_))},
      {"precision", to_string(options_.setup.precision)},
      {"optimizer", to_string(options_.setup.optimizer)},
      {"seq_len", options_.setup.seq_len},
      {"batch_size", options_.setup.micro_batch_size},
      {"grad_accum", options_.setup.gradient_accumulation_steps},
      {"seed", options_.seed},
      {"step", next_step_},
      {"data_position", dataset_->position()},
      {"first_loss", first_loss_},
      {"loss_scale", loss_scale_},
      {"good_steps", good_steps_},
  };
  // LoRA runs only: the adapters' shapes and scale (a checkpoint without the key is a full fine-tune).
  if (options_.setup.lora.rank > 0) meta["lora"] = lora_json(options_.setup.lora);
  std::string payload;
  try {
    torch::serialize::OutputArchive archive;
    archive.write("meta", c10::IValue(meta.dump()));
    torch::serialize::OutputArchive model_archive;
    model_->save(model_archive);
    archive.write("model", model_archive);
    torch::serialize::OutputArchive optimizer_archive;
    optimizer.save(optimizer_archive);
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
  const std::string header = checkpoint_header(payload);
  // PATH.tmp, fsync'ed, renamed over PATH, then the folder fsync'ed: after a crash or a power
  // loss PATH is the old checkpoint or the new one, never a torn or empty file.
  write_file_durably(path, {header, payload}, "--save");
}

void Trainer::load_checkpoint(const std::string& path) {
  const std::string field = "--resume";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(field, path + ": no such checkpoint file");
  const std::string bytes = read_input_file(path, field, kMaxCheckpointBytes);  // refuses FIFOs, devices
  const std::string payload(checkpoint_payload(bytes, path, field));

  torch::serialize::InputArchive archive;
  std::string meta_text;
  try {
    std::istringstream in(payload);
    archive.load_from(in);
    c10::IValue meta_value;
    archive.read("meta", meta_value);
    meta_text = meta_value.toStringRef();
  } catch (const std::exception& e) {
    throw InputError(field, path + ": unreadable checkpoint archive: " + first_line(e.what()));
  }
  const CheckpointMeta checked = check_checkpoint_meta(meta_text, options_.steps, path, field);
  nlohmann::json meta = parse_json_input(meta_text, path + ": meta");  // checked above
  // Everything that changes the trajectory or the tensors' shapes must match.
  std::vector<std::string> mismatches;
  const nlohmann::json model_now = nlohmann::json::parse(model_config_to_json(config_));
  if (meta["model"] != model_now) mismatches.push_back("model config (checkpoint: " + bounded_excerpt(meta["model"].dump(), 400) + ")");
  auto check = [&](const char* key, const nlohmann::json& now) {
    if (meta[key] != now) mismatches.push_back(std::string(key) + " (checkpoint " + bounded_excerpt(meta[key].dump()) + ", now " + now.dump() + ")");
  };
  check("precision", to_string(options_.setup.precision));
  check("optimizer", to_string(options_.setup.optimizer));
  check("seq_len", options_.setup.seq_len);
  check("seed", options_.seed);
  const nlohmann::json lora_now = options_.setup.lora.rank > 0 ? lora_json(options_.setup.lora) : nlohmann::json();
  if (meta.value("lora", nlohmann::json()) != lora_now) {
    mismatches.push_back("lora (checkpoint " + bounded_excerpt(meta.value("lora", nlohmann::json()).dump()) + ", now " +
                         lora_now.dump() + ")");
  }
  if (!mismatches.empty()) {
    std::string joined;
    for (const auto& m : mismatches) joined += (joined.empty() ? "" : "; ") + m;
    throw InputError(field, path + " does not match this run: " + joined,
                     "resume with the same --model, --precision, --optimizer, --seq-len, --seed and --lora-* flags");
  }
  try {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model_->load(model_archive);
    torch::serialize::InputArchive optimizer_archive;
    archive.read("optimizer", optimizer_archive);
    if (owned_by_rank_.empty()) {
      optimizer_->load(optimizer_archive);
    } else {
      // ZeRO-1: the file holds the whole state (any world size wrote it); keep this rank's share.
      std::unique_ptr<torch::optim::Optimizer> whole = build_optimizer(params_);
      whole->load(optimizer_archive);
      move_param_states(*whole, *optimizer_, owned_by_rank_[static_cast<size_t>(rank())]);
    }
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
  next_step_ = checked.step;
  dataset_->set_position(checked.data_position);
  first_loss_ = checked.first_loss;
  loss_scale_ = checked.loss_scale;
  good_steps_ = checked.good_steps;
}

}  // namespace oomkit
