// The Trainer: model, optimizer, data, and the optimizer step (see trainer.h).
#include "oomkit/train/trainer.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <optional>
#include <sstream>

#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/zero_partition.h"
#include "oomkit/train/hf_weights.h"
#include "oomkit/train/optim/optimizers.h"
#include "oomkit/train/lora.h"
#include "oomkit/train/oom_recovery.h"
#include "oomkit/train/rng_autocast.h"

namespace oomkit {

namespace {

// optimizer.zero_grad(set_to_none=True): LibTorch 1.13's Optimizer::zero_grad() only zeroes,
// so the gradients are dropped here (the estimator assumes no gradient memory after the step).
void zero_grad_to_none(std::vector<torch::Tensor>& params) {
  for (auto& p : params) p.mutable_grad() = torch::Tensor();
}

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

bool mixed(Precision p) { return p == Precision::kBf16Mixed || p == Precision::kFp16Mixed; }

}  // namespace

double learning_rate(int64_t step, int64_t total_steps, double lr, int64_t warmup_steps, double min_lr) {
  if (step < warmup_steps) return lr * static_cast<double>(step + 1) / static_cast<double>(warmup_steps);
  const int64_t decay_steps = total_steps - 1 - warmup_steps;
  if (decay_steps <= 0) return lr;
  const double progress = std::min(1.0, static_cast<double>(step - warmup_steps) / static_cast<double>(decay_steps));
  return min_lr + 0.5 * (1.0 + std::cos(M_PI * progress)) * (lr - min_lr);
}

Trainer::Trainer(const TrainOptions& options, MemoryBackend* backend, Profiler* profiler, ProcessGroup* group)
    : options_(options), backend_(backend), profiler_(profiler), device_(torch::kCPU), group_(group) {
  if (group_ != nullptr && group_->world_size() <= 1) group_ = nullptr;
  options_.validate();
  // --init-from: the snapshot's config.json is the model; its weights replace the random init below.
  config_ = options_.init_from.empty() ? resolve_model_config(options_.model)
                                       : load_hf_config(options_.init_from, "--init-from");
  if (options_.dropout >= 0.0) {
    // LLaMA has attention dropout only (HF attention_dropout); no embedding or residual dropout.
    config_.attn_pdrop = options_.dropout;
    if (config_.is_gpt2()) config_.embd_pdrop = config_.resid_pdrop = options_.dropout;
  }
  config_.validate(config_.name);
  if (config_.is_gpt2() && !config_.tie_word_embeddings) {
    // The GPT-2 model (model.cpp) computes the logits with wte's weight; an untied lm_head
    // would train a different model than the config describes (and than the estimate counts).
    throw InputError("tie_word_embeddings", config_.name + " sets it to false, but the GPT-2 trainer always ties lm_head to wte",
                     "remove the key or set it to true");
  }
  if (options_.setup.seq_len > config_.n_positions) {
    throw InputError("--seq-len", std::to_string(options_.setup.seq_len) + " exceeds the context of " + config_.name +
                                      " (n_positions " + std::to_string(config_.n_positions) + ")");
  }
  if (options_.setup.cuda) {
    if (!torch::cuda::is_available()) {
      throw InputError("--device", "cuda requested but this LibTorch build or machine has no CUDA device",
                       "use --device cpu");
    }
    device_ = torch::Device(torch::kCUDA, 0);
  }
  TokenData data =
      options_.data.empty() ? load_default_corpus(options_.corpus_dir) : load_token_files(options_.data, "--data");
  auto check_vocab = [&](const TokenData& d, const char* field) {
    if (d.max_token >= config_.vocab_size) {
      throw InputError(field, d.source + " holds token id " + std::to_string(d.max_token) + " but " + config_.name +
                                  " has vocab_size " + std::to_string(config_.vocab_size),
                       "use a model whose vocab_size exceeds every token id (e.g. --model gpt2 for GPT-2 tokens)");
    }
  };
  check_vocab(data, "--data");
  if (options_.val_data.empty()) {
    dataset_ = std::make_unique<TokenDataset>(std::move(data), options_.setup.seq_len, options_.seed, options_.val_fraction);
  } else {
    TokenData val = load_token_files(options_.val_data, "--val-data");
    check_vocab(val, "--val-data");
    dataset_ = std::make_unique<TokenDataset>(std::move(data), std::move(val), options_.setup.seq_len, options_.seed);
  }

  torch::manual_seed(options_.seed);
  model_ = Gpt(config_, GptOptions{options_.setup.attention, options_.setup.checkpointing, options_.setup.checkpoint_every});
  if (!options_.init_from.empty()) {
    const HfLoadReport loaded = load_hf_weights(*model_, options_.init_from, "--init-from");
    log::info("init: {} tensors from {} ({} file{}, {} names{}{})", loaded.num_tensors, options_.init_from,
              loaded.num_files, loaded.num_files == 1 ? "" : "s", loaded.prefixed ? "GPT2LMHeadModel" : "GPT2Model",
              loaded.lm_head_present ? ", tied lm_head checked" : "",
              loaded.num_buffers_ignored > 0 ? fmt::format(", {} attention buffers ignored", loaded.num_buffers_ignored) : "");
  }
  if (options_.setup.lora.rank > 0) {
    // LoRA (lora.h): adapters on the loaded (or random) model; the base frozen in the compute dtype.
    const at::ScalarType base_dtype = options_.setup.precision == Precision::kFp32        ? at::kFloat
                                      : options_.setup.precision == Precision::kFp16Mixed ? at::kHalf
                                                                                            : at::kBFloat16;
    add_lora_adapters(*model_, options_.setup.lora, base_dtype);
  }
  if (options_.setup.precision == Precision::kBf16) {
    // Pure bf16: parameters only (Module::to(dtype) would also cast the bool causal mask).
    torch::NoGradGuard no_grad;
    for (auto& p : model_->parameters()) p.set_data(p.data().to(torch::kBFloat16));
  }
  model_->to(device_);
  model_->train();
  params_ = model_->trainable_parameters();
  if (group_ != nullptr && options_.zero_stage >= 1) {
    // ZeRO-1 and ZeRO-2 (Rajbhandari et al. 2020, section 5.1, P_os and P_os+g): this rank's
    // optimizer covers only its share of the parameters, partitioned as PyTorch's
    // ZeroRedundancyOptimizer does; under ZeRO-2 it also keeps only those gradients.
    std::vector<int64_t> numels;
    numels.reserve(params_.size());
    for (const auto& p : params_) numels.push_back(p.numel());
    for (const auto& indices : zero_partition(numels, world_size())) {
      std::vector<torch::Tensor> owned;
      for (size_t i : indices) owned.push_back(params_[i]);
      owned_by_rank_.push_back(std::move(owned));
    }
    // The partition is the same on every rank, so every rank refuses together (none waits for
    // a collective the others never join).
    if (std::any_of(owned_by_rank_.begin(), owned_by_rank_.end(), [](const auto& v) { return v.empty(); })) {
      throw InputError("--zero", config_.name + " has " + std::to_string(params_.size()) +
                                     " trainable tensors, too few to give each of " + std::to_string(world_size()) +
                                     " ranks a share", "use --zero 0 or fewer ranks");
    }
    optimizer_ = build_optimizer(owned_by_rank_[static_cast<size_t>(rank())]);
  } else {
    optimizer_ = build_optimizer(params_);
  }
  if (!options_.resume.empty()) load_checkpoint(options_.resume);
  if (group_ != nullptr) {
    // DistributedDataParallel's construction: every rank starts from rank 0's parameters
    // (_sync_module_states), then the reducer allocates its gradient buckets. ZeRO-2 has no
    // reducer: each gradient is reduced to its owner after backward (reduce_gradients_to_owners).
    group_->broadcast_from_rank0(params_);
    if (options_.zero_stage < 2) {
      reducer_ = std::make_unique<GradientReducer>(*group_, params_,
                                                   static_cast<int64_t>(options_.bucket_cap_mb * 1024.0 * 1024.0));
    }
  }
}

Trainer::~Trainer() = default;

void Trainer::agree_no_rank_out_of_memory(const std::exception_ptr& local_oom) {
  // The flags go through the group's preallocated all-reduce buffer: nothing is allocated here,
  // so a rank at its limit can still take part.
  const double failed = group_->allreduce_sum({local_oom ? 1.0 : 0.0}, "oom_status")[0];
  if (failed == 0.0) return;
  oom_agreed_ = true;
  zero_grad_to_none(params_);
  if (local_oom) std::rethrow_exception(local_oom);
  throw PeerOutOfMemory(static_cast<int>(failed));
}

void Trainer::reduce_gradients_to_owners() {
  // ZeRO-2 (Rajbhandari et al. 2020, section 5.2, P_os+g): rank r needs only the averaged
  // gradients of the parameters it updates. With whole tensors partitioned over the ranks the
  // reduce-scatter is one reduce per tensor to its owner (what DeepSpeed's stage 2 does per
  // bucket); the other ranks then drop those gradients, as set_to_none would.
  torch::NoGradGuard no_grad;
  const double W = static_cast<double>(world_size());
  for (size_t r = 0; r < owned_by_rank_.size(); ++r) {
    std::vector<torch::Tensor> grads;
    grads.reserve(owned_by_rank_[r].size());
    for (const auto& p : owned_by_rank_[r]) {
      if (!p.grad().defined()) {
        throw std::runtime_error("ZeRO-2: a trainable parameter got no gradient in backward (unused parameters are not supported)");
      }
      grads.push_back(p.grad());
    }
    group_->reduce_to(grads, static_cast<int>(r), "zero_gradients");
    for (auto& p : owned_by_rank_[r]) {
      if (static_cast<int>(r) == rank()) {
        p.mutable_grad().div_(W);  // the average, as DDP's default hook
      } else {
        p.mutable_grad() = torch::Tensor();
      }
    }
  }
}

void Trainer::set_collective_oom(bool on) {
  if (on && !gradients_sharded()) {
    throw std::logic_error("collective OOM handling needs ZeRO-2 over more than one rank");
  }
  collective_oom_ = on;
}

double Trainer::clip_sharded_gradients(double max_norm) {
  // torch.nn.utils.clip_grad_norm_ over gradients sharded by owner (ZeRO-2): the global L2 norm
  // is the root of the ranks' summed squared norms of their own gradients; every rank then
  // scales its own by the same coefficient.
  torch::NoGradGuard no_grad;
  double local_sq = 0.0;
  for (const auto& p : params_) {
    if (!p.grad().defined()) continue;
    const double n = p.grad().norm(2).item<double>();
    local_sq += n * n;
  }
  const double total = std::sqrt(group_->allreduce_sum({local_sq}, "grad_norm")[0]);
  const double coef = max_norm / (total + 1e-6);
  if (coef < 1.0) {
    for (auto& p : params_) {
      if (p.grad().defined()) p.mutable_grad().mul_(coef);
    }
  }
  return total;
}

std::unique_ptr<torch::optim::Optimizer> Trainer::build_optimizer(const std::vector<torch::Tensor>& params) const {
  OptimizerOptions opt;
  opt.lr = options_.lr;
  opt.weight_decay = options_.setup.weight_decay;
  if (options_.setup.optimizer == OptimizerKind::kLion) opt.beta2 = 0.99;  // Chen et al. 2023 defaults
  return make_optimizer(options_.setup.optimizer, params, opt);
}

void Trainer::set_micro_batching(int64_t batch_size, int64_t grad_accum) {
  if (batch_size < 1) throw InputError("--batch-size", "must be >= 1, got " + std::to_string(batch_size));
  if (grad_accum < 1) throw InputError("--grad-accum", "must be >= 1, got " + std::to_string(grad_accum));
  options_.setup.micro_batch_size = batch_size;
  options_.setup.gradient_accumulation_steps = grad_accum;
}

TrainingSetup Trainer::training_setup() const {
  TrainingSetup s = options_.setup;
  s.dropout = true;
  s.cuda = device_.is_cuda();
  if (!s.cuda) s.overhead_bytes = 0;
  // The threads this process computes with size oneDNN's per-thread bf16 matmul scratchpad.
  if (!s.cuda) s.cpu_threads = at::get_num_threads();
  if (group_ != nullptr) {
    // DDP over the ranks (the reducer's buckets) and, with --zero 1 or 2, this rank's share of the
    // optimizer state (the partition the constructor made).
    s.parallel.data_parallel = world_size();
    s.parallel.zero_stage = options_.zero_stage;
    s.parallel.dp_rank = rank();
  }
  return s;
}

torch::Tensor Trainer::forward_loss(const Batch& batch, int64_t micro, bool mark) {
  const bool autocast = mixed(options_.setup.precision);
  const at::ScalarType dtype = options_.setup.precision == Precision::kFp16Mixed ? at::kHalf : at::kBFloat16;
  // Autocast for one forward + loss, as Python's `with torch.autocast(...)`.
  std::optional<AutocastGuard> scope;
  if (autocast) scope.emplace(AutocastState::enabled_for(device_, dtype));
  torch::Tensor logits = model_->forward(batch.x);  // (B, T, V)
  if (profiler_ && mark) profiler_->mark(Phase::kAfterForward, micro);
  return GptImpl::loss(logits, batch.y);  // logits are released here: log_softmax saved its own output
}

StepStats Trainer::step() {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_ms();
  const int64_t step = next_step_;
  const int64_t start_position = dataset_->position();
  oom_agreed_ = false;
  StepStats stats;
  stats.step = step;
  const int64_t B = options_.setup.micro_batch_size;
  const int64_t accumulation = options_.setup.gradient_accumulation_steps;
  stats.tokens = B * options_.setup.seq_len * accumulation * world_size();
  try {
    if (profiler_) profiler_->begin_step(step, accumulation);
    stats.lr = learning_rate(step, options_.steps, options_.lr, options_.warmup_steps, options_.min_lr);
    set_learning_rate(*optimizer_, stats.lr);
    const bool fp16 = options_.setup.precision == Precision::kFp16Mixed;
    double loss_sum = 0.0;
    // One draw of B·grad_accum windows per optimizer step, cut into micro-batches: the step
    // sees the same windows whatever the micro-batching (OOM recovery relies on it). Under DP
    // this rank's rows of the global batch of B·grad_accum·W rows.
    const int64_t rows = B * accumulation;
    const Batch full = dataset_->next_train_batch(rows, rank() * rows);
    std::exception_ptr local_oom;  // collective_oom_: this rank's OOM, held until the ranks agree
    for (int64_t micro = 0; micro < accumulation; ++micro) {
      try {
        Batch batch{full.x.narrow(0, micro * B, B),
                    full.y.narrow(0, micro * B, B)};
        batch.x = batch.x.to(device_);
        batch.y = batch.y.to(device_);
        torch::Tensor loss = forward_loss(batch, micro, /*mark=*/true);  // () fp32
        if (profiler_) profiler_->mark(Phase::kAfterLoss, micro);
        torch::Tensor objective = accumulation > 1 ? loss / static_cast<double>(accumulation) : loss;
        if (fp16) objective = objective * loss_scale_;
        // DDP: only the last micro-step's backward all-reduces (the earlier ones run under no_sync).
        if (reducer_ && micro == accumulation - 1) reducer_->prepare_for_backward();
        objective.backward();
        objective = torch::Tensor();
        loss_sum += loss.item<double>();
      } catch (const std::exception& e) {
        if (!collective_oom_ || !oom_message(e)) throw;
        local_oom = std::current_exception();
        break;
      }
      if (micro == accumulation - 1) {
        if (collective_oom_) agree_no_rank_out_of_memory(nullptr);
        // ZeRO-2: the last micro-step's gradients go to their owners (the earlier ones accumulate
        // whole on every rank, as under no_sync).
        if (gradients_sharded()) reduce_gradients_to_owners();
      }
      if (profiler_) profiler_->mark(Phase::kAfterBackward, micro);
    }
    if (local_oom) agree_no_rank_out_of_memory(local_oom);  // throws
    stats.loss = loss_sum / static_cast<double>(accumulation);
    // The progress line's loss: the mean over the ranks (every rank holds the same number of rows).
    if (group_) stats.loss = group_->allreduce_sum({stats.loss}, "loss")[0] / static_cast<double>(world_size());
    if (fp16) {
      // Dynamic loss scaling (Micikevicius et al. 2018, section 3.2; torch.cuda.amp.GradScaler
      // defaults: init 2^16, backoff 0.5, growth 2 after 2000 finite steps).
      bool finite = true;
      {
        torch::NoGradGuard no_grad;
        for (auto& p : params_) {
          if (!p.grad().defined()) continue;
          p.mutable_grad().div_(loss_scale_);
          if (!torch::isfinite(p.grad()).all().item<bool>()) finite = false;
        }
      }
      // ZeRO-2: each rank saw only its own gradients; the step is skipped on every rank or none.
      if (gradients_sharded()) finite = group_->allreduce_sum({finite ? 0.0 : 1.0}, "found_inf")[0] == 0.0;
      if (!finite) {
        loss_scale_ *= 0.5;
        good_steps_ = 0;
        stats.skipped = true;
      } else if (++good_steps_ % 2000 == 0) {
        loss_scale_ *= 2.0;
      }
    }
    if (!stats.skipped) {
      if (options_.grad_clip > 0.0) {
        stats.grad_norm = gradients_sharded() ? clip_sharded_gradients(options_.grad_clip)
                                              : torch::nn::utils::clip_grad_norm_(params_, options_.grad_clip);
      }
      optimizer_->step();
      if (!owned_by_rank_.empty()) {
        // ZeRO-1/2: each rank updated only its share; every parameter now comes from its owner
        // (every rank agrees on whether the step ran: the gradients were all-reduced, or under
        // ZeRO-2 the found-inf flag was).
        for (size_t r = 0; r < owned_by_rank_.size(); ++r) {
          group_->broadcast_from(owned_by_rank_[r], static_cast<int>(r), "zero_parameters");
        }
      }
    }
    if (profiler_) profiler_->mark(Phase::kAfterOptimizerStep, 0);
    zero_grad_to_none(params_);
    if (profiler_) profiler_->mark(Phase::kAfterZeroGrad, 0);
    if (profiler_) stats.memory = profiler_->end_step();
  } catch (...) {
    // Release what the failed step holds and rewind its data, so the caller may retry the step.
    zero_grad_to_none(params_);
    dataset_->set_position(start_position);
    throw;
  }
  if (step == 0) first_loss_ = stats.loss;
  ++next_step_;
  stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  stats.cpu_ms = process_cpu_ms() - cpu0;
  return stats;
}

double Trainer::evaluate() {
  torch::NoGradGuard no_grad;
  model_->eval();
  double sum = 0.0;
  // Validation batch k holds B·grad_accum windows, run B at a time: the same sequences and the
  // same mean whatever the micro-batching (an OOM recovery does not change what val loss means).
  const int64_t B = options_.setup.micro_batch_size;
  const int64_t accumulation = options_.setup.gradient_accumulation_steps;
  const int64_t rows = B * accumulation;
  for (int64_t k = 0; k < options_.eval_batches; ++k) {
    const Batch full = dataset_->val_batch(k, rows, rank() * rows);
    for (int64_t micro = 0; micro < accumulation; ++micro) {
      Batch batch{full.x.narrow(0, micro * B, B).to(device_),
                  full.y.narrow(0, micro * B, B).to(device_)};
      sum += forward_loss(batch, 0, /*mark=*/false).item<double>();
    }
  }
  model_->train();
  if (profiler_) profiler_->mark(Phase::kEval, 0);
  if (group_) sum = group_->allreduce_sum({sum}, "val_loss")[0] / static_cast<double>(world_size());
  return sum / static_cast<double>(options_.eval_batches * accumulation);
}

}  // namespace oomkit
