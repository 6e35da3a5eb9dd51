// measure_static_memory(): a walk over tensor storages (see static_memory.h).
#include "oomkit/profile/static_memory.h"

#include <unordered_set>

namespace oomkit {
namespace {

/// Sums storage nbytes, each StorageImpl once across every category.
class StorageCounter {
 public:
  int64_t add(const torch::Tensor& t) {
    if (!t.defined() || !t.has_storage()) return 0;
    const c10::StorageImpl* impl = t.storage().unsafeGetStorageImpl();
    if (impl == nullptr || !seen_.insert(impl).second) return 0;
    return static_cast<int64_t>(impl->nbytes());
  }

 private:
  std::unordered_set<const c10::StorageImpl*> seen_;
};

/// The tensors of one LibTorch or OptimizerStateTensors param state; false for unknown types.
bool state_tensors(const torch::optim::OptimizerParamState& state, std::vector<torch::Tensor>& out) {
  using namespace torch::optim;
  if (const auto* adamw = dynamic_cast<const AdamWParamState*>(&state)) {
    out = {adamw->exp_avg(), adamw->exp_avg_sq(), adamw->max_exp_avg_sq()};
  } else if (const auto* adam = dynamic_cast<const AdamParamState*>(&state)) {
    out = {adam->exp_avg(), adam->exp_avg_sq(), adam->max_exp_avg_sq()};
  } else if (const auto* sgd = dynamic_cast<const SGDParamState*>(&state)) {
    out = {sgd->momentum_buffer()};
  } else if (const auto* adagrad = dynamic_cast<const AdagradParamState*>(&state)) {
    out = {adagrad->sum()};
  } else if (const auto* rmsprop = dynamic_cast<const RMSpropParamState*>(&state)) {
    out = {rmsprop->square_avg(), rmsprop->momentum_buffer(), rmsprop->grad_avg()};
  } else if (const auto* own = dynamic_cast<const OptimizerStateTensors*>(&state)) {
    out = own->state_tensors();
  } else {
    return false;
  }
  return true;
}

}  // namespace

StaticMemory measure_static_memory(const torch::nn::Module& model, const torch::optim::Optimizer* optimizer) {
  StaticMemory m;
  StorageCounter counter;
  std::unordered_set<const c10::TensorImpl*> distinct_params;
  const std::vector<torch::Tensor> params = model.parameters(/*recurse=*/true);
  for (const torch::Tensor& p : params) {
    m.parameters_bytes += counter.add(p);
    if (distinct_params.insert(p.unsafeGetTensorImpl()).second) m.num_parameters += p.numel();
  }
  for (const torch::Tensor& p : params) m.gradients_bytes += counter.add(p.grad());
  for (const torch::Tensor& b : model.buffers(/*recurse=*/true)) m.buffers_bytes += counter.add(b);
  if (optimizer != nullptr) {
    std::vector<torch::Tensor> tensors;
    for (const auto& entry : optimizer->state()) {
      if (!entry.second) continue;
      tensors.clear();
      if (!state_tensors(*entry.second, tensors)) {
        ++m.unmeasured_optimizer_states;
        continue;
      }
      for (const torch::Tensor& t : tensors) m.optimizer_state_bytes += counter.add(t);
    }
  }
  return m;
}

}  // namespace oomkit
