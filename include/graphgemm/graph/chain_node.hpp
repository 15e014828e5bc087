#pragma once
// Chain nodes: a GemmChain recorded inside a capture (two kernel nodes: the one-CTA setup node
// with the layers' fixed parameters, and the chain node, on a programmatic edge from it), whose
// arguments can then change in the instantiated graph without recapture:
//
//   graph::ChainNode node;
//   graph::record_chain(chain, args, workspace, stream, node);     // inside a capture
//   ... instantiate ...
//   args.x = MatrixView::row_major(x2, DType::bf16, 17, K0); args.y = ...;  // M = 17
//   node.update(exec, args);  exec.launch(stream);
//
// A step that changes only M, x, y, the per-row scales and alpha rewrites the chain node's
// parameter block alone (~400 bytes: one driver update and two tensor-map encodes, whatever the
// number of layers). An update with weights or biases other than the recorded ones also rebuilds
// the layers' table (4 encodes a layer) and rewrites the setup node's parameter (~5 KB), and so
// does every update after it (CUDA cannot tell what an executable graph's setup node holds, and
// several may be instantiated from one graph): record the node with the weights it will run. The
// workspace is the one given when recording.

#include <cuda_runtime_api.h>

#include <memory>

#include "graphgemm/chain.hpp"
#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/graph/kernel_node.hpp"
#include "graphgemm/status.hpp"

namespace graphgemm::graph {

class ChainNode {
 public:
  ChainNode() noexcept = default;

  // New arguments for the chain in `exec`: M (1..the chain's max_m), x, y, weights, biases,
  // scales, alpha. The layers' count and widths cannot change. Everything is checked before CUDA
  // is called; on error the graph is left as it was.
  [[nodiscard]] Status update(const GraphExec& exec, const ChainArgs& args) const;
  // For an executable graph instantiated by someone else from `instantiated_from`.
  [[nodiscard]] Status update(cudaGraphExec_t exec, cudaGraph_t instantiated_from, const ChainArgs& args) const;

  [[nodiscard]] bool recorded() const noexcept { return state_ != nullptr; }
  [[nodiscard]] cudaGraphNode_t setup_node() const noexcept;
  [[nodiscard]] cudaGraphNode_t chain_node() const noexcept;
  // How many updates also rewrote the setup node: those from the first one whose weights or biases
  // were not the recorded ones.
  [[nodiscard]] long long setup_updates() const noexcept;

 private:
  struct State;
  friend Status record_chain(const GemmChain&, const ChainArgs&, Workspace, cudaStream_t, ChainNode&);
  std::shared_ptr<State> state_;  // shared by copies of the handle
};

// Records `chain` with `args` into the capture active on `stream` (begun by us or anyone else) and
// returns its handle in `out`. The chain and the workspace must outlive the graph.
[[nodiscard]] Status record_chain(const GemmChain& chain, const ChainArgs& args, Workspace workspace,
                                  cudaStream_t stream, ChainNode& out);

}  // namespace graphgemm::graph
