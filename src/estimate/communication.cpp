// Data-parallel communication per optimizer step and the ZeRO trade-off table (communication.h).
#include "oomkit/estimate/communication.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

namespace oomkit {

namespace {

// Whole bytes; a step moving 2^63 bytes or more (a --grad-accum of 10^9 under ZeRO-3) is refused,
// not wrapped.
int64_t whole_bytes(double b) {
  if (!(b < 9.2e18)) {
    throw InputError("--grad-accum", fmt::format("the data-parallel traffic of one step would be {:.3g} bytes (beyond int64)", b),
                     "use fewer accumulation steps");
  }
  return static_cast<int64_t>(std::llround(b));
}

CollectiveTraffic collective(std::string op, std::string tensors, int64_t calls, double payload, double ring) {
  CollectiveTraffic c;
  c.op = std::move(op);
  c.tensors = std::move(tensors);
  c.calls_per_step = calls;
  c.payload_bytes = whole_bytes(payload);
  c.bytes_per_gpu = whole_bytes(static_cast<double>(calls) * payload * ring);
  return c;
}

std::string stage_name(int zero_stage) { return zero_stage == 0 ? std::string("DP") : fmt::format("ZeRO-{}", zero_stage); }

std::string op_words(const std::string& op) {
  if (op == "all_reduce") return "all-reduce";
  if (op == "reduce_scatter") return "reduce-scatter";
  if (op == "all_gather") return "all-gather";
  return op;
}

}  // namespace

double gradient_reduce_bytes_per_element(const TrainingSetup& s) {
  if (s.precision == Precision::kBf16) return 2.0;
  // DeepSpeed's communication_data_type defaults to the model's dtype.
  if (s.framework == Framework::kDeepSpeed && s.precision != Precision::kFp32) return 2.0;
  return 4.0;
}

double updated_parameter_bytes_per_element(const TrainingSetup& s) {
  if (s.precision == Precision::kFp32) return 4.0;
  // AMP (oomkit, HF): the parameters themselves are the fp32 master weights.
  if (s.framework == Framework::kOomkit || s.framework == Framework::kHf) {
    return s.precision == Precision::kBf16 ? 2.0 : 4.0;
  }
  return 2.0;  // DeepSpeed / Megatron: the half-precision working copy is gathered
}

std::vector<CollectiveTraffic> data_parallel_collectives(const ParameterCount& base, const ParameterCount& lora,
                                                         const TrainingSetup& s) {
  std::vector<CollectiveTraffic> out;
  const int64_t n = s.parallel.data_parallel;
  if (n <= 1) return out;
  const bool adapters = s.lora.rank > 0;
  const ParameterCount& c = adapters ? lora : base;
  const double trainable = adapters ? static_cast<double>(c.lora) : static_cast<double>(base.total());
  const double all = static_cast<double>(c.total());
  const double grad_elem = gradient_reduce_bytes_per_element(s);
  const double param_elem = s.precision == Precision::kFp32 ? 4.0 : 2.0;  // ZeRO-3 / FSDP gathers the compute copy
  const double update_elem = updated_parameter_bytes_per_element(s);
  const double G = trainable * grad_elem;    // the gradients reduced
  const double U = trainable * update_elem;  // the updated (trainable) parameters gathered
  const double Pg = all * param_elem;        // every parameter, gathered by ZeRO-3
  const double N = static_cast<double>(n);
  const double ring = (N - 1.0) / N;
  const int64_t micro = std::max<int64_t>(1, s.gradient_accumulation_steps);
  switch (s.parallel.zero_stage) {
    case 0:
      out.push_back(collective("all_reduce", "gradients", 1, G, 2.0 * ring));
      break;
    case 1:  // the gradients stay whole on every rank: accumulated locally, reduced once per step
      if (s.framework == Framework::kOomkit) {
        // oomkit's own ZeRO-1 (train --zero 1), as ZeroRedundancyOptimizer under DDP: the DDP
        // all-reduce, then each rank broadcasts the parameters it updated (in all, one
        // all-gather's volume): 3Ψ, not 2Ψ.
        out.push_back(collective("all_reduce", "gradients", 1, G, 2.0 * ring));
        out.push_back(collective("broadcast", "updated parameters", 1, U, ring));
      } else {
        out.push_back(collective("reduce_scatter", "gradients", 1, G, ring));
        out.push_back(collective("all_gather", "updated parameters", 1, U, ring));
      }
      break;
    case 2:
      if (s.framework == Framework::kOomkit) {
        // oomkit's own ZeRO-2 (train --zero 2): the gradients accumulate whole over the
        // micro-steps and are reduced to their owners once per step (one reduce-scatter's
        // volume), then each rank broadcasts the parameters it updated, as its ZeRO-1.
        out.push_back(collective("reduce", "gradients (to their owners)", 1, G, ring));
        out.push_back(collective("broadcast", "updated parameters", 1, U, ring));
      } else {
        // sharded gradients cannot accumulate whole: reduce-scattered after every micro-batch
        out.push_back(collective("reduce_scatter", "gradients", micro, G, ring));
        out.push_back(collective("all_gather", "updated parameters", 1, U, ring));
      }
      break;
    default:
      out.push_back(collective("all_gather", "parameters (forward)", micro, Pg, ring));
      out.push_back(collective("all_gather", "parameters (backward)", micro, Pg, ring));
      out.push_back(collective("reduce_scatter", "gradients", micro, G, ring));
      break;
  }
  return out;
}

CommunicationTable communication_table(const ModelConfig& model, const TrainingSetup& s, double link_bytes_per_second) {
  if (s.parallel.data_parallel < 2) throw std::invalid_argument("communication_table: needs data parallelism over >= 2 GPUs");
  if (!(link_bytes_per_second > 0.0)) throw std::invalid_argument("communication_table: the link bandwidth must be positive");
  if (s.parallel.tensor_parallel > 1) {
    throw InputError("--tp", "the data-parallel communication table models no tensor-parallel traffic", "drop --tp to see it");
  }
  if (s.parallel.pipeline_parallel > 1) {
    throw InputError("--pp", "the data-parallel communication table models no pipeline traffic", "drop --pp to see it");
  }
  CommunicationTable t;
  t.gpus = s.parallel.data_parallel;
  t.chosen_stage = s.parallel.zero_stage;
  t.link_bytes_per_second = link_bytes_per_second;
  const ParameterCount base = count_parameters(model);
  const ParameterCount lora = s.lora.rank > 0 ? count_parameters(model, s.lora) : base;
  const int last_stage = s.framework == Framework::kMegatron ? 1 : 3;
  for (int stage = 0; stage <= last_stage; ++stage) {
    TrainingSetup at = s;
    at.parallel.zero_stage = stage;
    ZeroStageTraffic row;
    row.zero_stage = stage;
    try {
      row.peak_bytes = estimate_memory(model, at).peak_bytes;
    } catch (const InputError&) {
      // A stage this framework does not run with the rest of the setup (DeepSpeed offloads the
      // optimizer only from ZeRO-1 on): not a row. The run's own stage was estimated already.
      if (stage == s.parallel.zero_stage) throw;
      continue;
    }
    row.collectives = data_parallel_collectives(base, lora, at);
    for (const auto& c : row.collectives) row.bytes_per_gpu += c.bytes_per_gpu;
    row.seconds = static_cast<double>(row.bytes_per_gpu) / link_bytes_per_second;
    t.stages.push_back(std::move(row));
  }
  for (auto& row : t.stages) row.saved_bytes = t.stages.front().peak_bytes - row.peak_bytes;
  return t;
}

std::string format_communication(const CommunicationTable& t) {
  std::string out = fmt::format(
      "\ndata-parallel communication per optimizer step ({} GPUs, ring collectives, bytes each GPU sends; link {:.2f} GB/s"
      " = {:.0f} Gb/s):\n",
      t.gpus, t.link_bytes_per_second / 1e9, t.link_bytes_per_second * 8.0 / 1e9);
  out += fmt::format("  {:<8} {:<38} {:>5} {:>11} {:>11} {:>10} {:>11} {:>15}\n", "stage", "collective", "calls", "payload",
                     "sent/GPU", "time", "peak/GPU", "saves vs " + stage_name(t.stages.front().zero_stage));
  for (const auto& row : t.stages) {
    std::string stage = (row.zero_stage == t.chosen_stage ? "* " : "  ") + stage_name(row.zero_stage);
    for (const CollectiveTraffic& c : row.collectives) {
      out += fmt::format("  {:<8} {:<38} {:>5} {:>11} {:>11}\n", stage, op_words(c.op) + " " + c.tensors, c.calls_per_step,
                         format_bytes(c.payload_bytes), format_bytes(c.bytes_per_gpu));
      stage.clear();
    }
    out += fmt::format("  {:<8} {:<38} {:>5} {:>11} {:>11} {:>10} {:>11} {:>15}\n", "", "total", "", "",
                       format_bytes(row.bytes_per_gpu), fmt::format("{:.2f} s", row.seconds), format_bytes(row.peak_bytes),
                       row.zero_stage == t.stages.front().zero_stage ? std::string("-") : format_bytes(row.saved_bytes));
  }
  const int last = t.stages.back().zero_stage;
  out += "  (* the run's stage. DP and ZeRO-1 reduce the gradients once per step (accumulation under no_sync)";
  bool own_zero1 = false, own_zero2 = false;
  for (const auto& row : t.stages) {
    for (const auto& c : row.collectives) {
      own_zero1 = own_zero1 || (c.op == "broadcast" && row.zero_stage == 1);
      own_zero2 = own_zero2 || c.op == "reduce";
    }
  }
  if (last >= 2) {
    out += own_zero2 ? ";\n  ZeRO-3 reduces them after every micro-batch (sharded gradients cannot accumulate whole)"
                     : ";\n  ZeRO-2/3 reduce them after every micro-batch (sharded gradients cannot accumulate whole)";
  }
  if (last == 3) out += ";\n  ZeRO-3 gathers the parameters in the forward and the backward of every micro-batch";
  if (own_zero1) out += ";\n  oomkit's ZeRO-1 (train --zero 1) all-reduces as DDP, then each rank broadcasts the parameters it updated";
  if (own_zero2) {
    out += ";\n  oomkit's ZeRO-2 (train --zero 2) accumulates whole, reduces each gradient to the rank that updates it "
           "once per step, then broadcasts as its ZeRO-1";
  }
  out += ". Rajbhandari et al. 2020, section 7)\n";
  return out;
}

nlohmann::json communication_to_json(const CommunicationTable& t) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& row : t.stages) {
    nlohmann::json cs = nlohmann::json::array();
    for (const auto& c : row.collectives) {
      cs.push_back({{"op", c.op},
                    {"tensors", c.tensors},
                    {"calls_per_step", c.calls_per_step},
                    {"payload_bytes", c.payload_bytes},
                    {"bytes_per_gpu", c.bytes_per_gpu}});
    }
    stages.push_back({{"zero_stage", row.zero_stage},
                      {"bytes_per_gpu", row.bytes_per_gpu},
                      {"seconds", row.seconds},
                      {"peak_bytes", row.peak_bytes},
                      {"saved_bytes", row.saved_bytes},
                      {"collectives", std::move(cs)}});
  }
  return {{"gpus", t.gpus},
          {"zero_stage", t.chosen_stage},
          {"baseline_zero_stage", t.stages.empty() ? 0 : t.stages.front().zero_stage},
          {"link_bytes_per_second", t.link_bytes_per_second},
          {"stages", std::move(stages)}};
}

}  // namespace oomkit
