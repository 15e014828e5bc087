// graphgemm: what the graph layer needs of a GemmChain (its launch arguments), kept out of the
// public header.
#pragma once

#include "graphgemm/chain.hpp"
#include "kernels/sm90_chain_instances.hpp"

namespace graphgemm::detail {

struct ChainAccess {
  // Validates `args` and `workspace` against `chain` and fills the launch arguments (host only);
  // step_only: the chain kernel's parameter alone (the graph update of a node whose setup node
  // already holds these layers' weights and biases).
  [[nodiscard]] static Status make_launch(const GemmChain& chain, const ChainArgs& args, Workspace workspace,
                                          sm90::ChainLaunchStorage& out, bool step_only = false);
  [[nodiscard]] static int kernel(const GemmChain& chain) noexcept { return chain.kernel_; }
};

}  // namespace graphgemm::detail
