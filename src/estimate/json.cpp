// estimate_to_json(): every item and total in bytes (the schema is in estimate.h and
// docs/estimate.md).
#include <nlohmann/json.hpp>

#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/framework.h"

namespace oomkit {

std::string estimate_to_json(const Estimate& e) {
  using nlohmann::json;
  const TrainingSetup& s = e.setup;
  json setup = {{"micro_batch_size", s.micro_batch_size},
                {"seq_len", s.seq_len},
                {"gradient_accumulation_steps", s.gradient_accumulation_steps},
                {"precision", to_string(s.precision)},
                {"optimizer", to_string(s.optimizer)},
                {"adam8bit_block_size", s.adam8bit_block_size},
                {"attention", to_string(s.attention)},
                {"checkpointing", to_string(s.checkpointing)},
                {"checkpoint_every", s.checkpoint_every},
                {"dropout", s.dropout},
                {"data_parallel", s.parallel.data_parallel},
                {"zero_stage", s.parallel.zero_stage},
                {"tensor_parallel", s.parallel.tensor_parallel},
                {"pipeline_parallel", s.parallel.pipeline_parallel},
                {"offload_optimizer", s.parallel.offload_optimizer},
                {"offload_parameters", s.parallel.offload_parameters},
                {"lora_rank", s.lora.rank},
                {"lora_targets", s.lora.targets},
                {"device", s.cuda ? "cuda" : "cpu"},
                {"overhead_bytes", s.overhead_bytes},
                {"safety_margin", s.safety_margin}, {"weight_decay", s.weight_decay},
                {"method", s.method == EstimateMethod::kDetailed ? "detailed" : "chapter"},
                {"framework", to_string(s.framework)}};
  const ParameterCount& p = e.parameters;
  json params = {{"embeddings", p.embeddings}, {"attention", p.attention}, {"mlp", p.mlp}, {"norms", p.norms},
                 {"head", p.head},             {"lora", p.lora},           {"total", p.total()}};
  json items = json::array();
  for (const auto& it : e.items) {
    items.push_back({{"path", it.path}, {"category", category_name(it.category)}, {"bytes", it.bytes}, {"formula", it.formula}});
  }
  json totals = json::object();
  for (int c = 0; c < kNumCategories; ++c) totals[category_name(static_cast<Category>(c))] = e.totals[c];
  json phases = json::array();
  for (const auto& ph : e.phases) {
    phases.push_back({{"step_kind", ph.step_kind}, {"phase", ph.phase}, {"allocated_bytes", ph.allocated_bytes},
                      {"peak_bytes", ph.peak_bytes}});
  }
  json out = {{"model", json::parse(model_config_to_json(e.model))},
              {"setup", std::move(setup)},
              {"parameters", std::move(params)},
              {"items", std::move(items)},
              {"totals", std::move(totals)},
              {"phases", std::move(phases)},
              {"peak_bytes", e.peak_bytes},
              {"peak_phase", e.peak_phase},
              {"gradients_kept_bytes", e.gradients_kept_bytes}};
  if (!e.host_items.empty() || !e.host_table.empty()) {
    json host = json::array();
    for (const auto& it : e.host_items) host.push_back({{"path", it.path}, {"bytes", it.bytes}, {"formula", it.formula}});
    json table = json::array();
    for (const auto& r : e.host_table) {
      table.push_back({{"zero_stage", r.zero_stage}, {"offload_param", r.offload_param}, {"offload_optimizer", r.offload_optimizer},
                       {"zero_init", r.zero_init}, {"cpu_bytes", r.cpu_bytes}, {"gpu_bytes", r.gpu_bytes}});
    }
    out["host"] = {{"items", std::move(host)}, {"host_bytes", e.host_bytes}, {"deepspeed_states_table", std::move(table)},
                   {"total_params", e.host_counts.total}, {"largest_layer_params", e.host_counts.largest_layer}};
  }
  return out.dump(2);
}

}  // namespace oomkit
