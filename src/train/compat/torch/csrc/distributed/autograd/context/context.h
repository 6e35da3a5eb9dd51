// Stand-in for LibTorch's torch/csrc/distributed/autograd/context/context.h, which Debian's
// libtorch-dev 1.13 does not ship (it ships torch/csrc/distributed/{c10d,rpc} only) although
// c10d/reducer.hpp includes it. reducer.hpp uses exactly two names from it:
//   - DistAutogradContext::GradCallback, in a static_assert that it is
//     std::function<bool(at::Tensor&)>;
//   - ContextPtr = std::shared_ptr<DistAutogradContext>, held in Reducer::RpcContext, whose
//     layout (a shared_ptr and an atomic raw pointer) does not depend on the pointee.
// oomkit never creates, reads or dereferences a distributed-autograd context (that is the RPC
// framework's), so declaring the class with only that alias keeps Reducer's layout identical
// to the one libtorch_cpu was compiled with. CMakeLists.txt adds this folder to the include
// path only when LibTorch's own header is absent.
#pragma once

#include <functional>
#include <memory>

#include <ATen/core/Tensor.h>

namespace torch {
namespace distributed {
namespace autograd {

class DistAutogradContext {
 public:
  using GradCallback = std::function<bool(at::Tensor&)>;
};

using ContextPtr = std::shared_ptr<DistAutogradContext>;

}  // namespace autograd
}  // namespace distributed
}  // namespace torch
