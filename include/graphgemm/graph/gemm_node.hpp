#pragma once
// GEMM nodes: a plan's GEMM recorded inside a capture, whose arguments — A, B, C, D, bias,
// scales, alpha, beta and M (up to the max_m declared when recording) — can then change in the
// instantiated graph without recapture. The tensor maps (TMA descriptors) are encoded anew on
// the host for every update and passed as kernel parameters; the kernel instance, block,
// cluster and shared memory never change, so no update needs another configuration. The grid
// stays the one of max_m by default (NodeGrid): at a smaller M the kernel spreads its tiles over
// it and the CTAs without one exit at once.
//
//   GemmPlan plan;  plan.initialize(problem_at_max_m, {Backend::sm90});
//   graph::Capture cap;  cap.begin(stream);
//   graph::GemmNode node;
//   graph::record_gemm(plan, args, workspace, stream, node, {.max_m = 256});
//   cap.end();  graph::GraphExec exec;  exec.instantiate(cap);
//   args.a = MatrixView::row_major(x2, DType::bf16, 17, K);  args.d = ...  // M = 17
//   node.update(exec, args);  exec.launch(stream);
//
// With GemmOptions::programmatic_launch the node takes programmatic edges from the kernel nodes
// it follows (programmatic dependent launch inside the graph: it sets up while they finish and
// waits for them before touching memory).
//
// Updatable on graphgemm's sm90 kernels (split-K none). Other plans (cuBLASLt) are recorded by
// plain capture of plan.run: the graph runs them, but update() says how to change them instead.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "graphgemm/gemm.hpp"
#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/graph/kernel_node.hpp"
#include "graphgemm/status.hpp"

namespace graphgemm::graph {

// The grid of a GEMM node.
//   max_m     : fixed at the CTAs the kernel launches for max_m; at a smaller M the CTAs without
//               a tile exit at once. An update then changes kernel parameters only.
//   follows_m : every update also sets the grid plan.run launches for the new M. A changed
//               grid makes the driver's update and the next graph launch dearer: on H100 (session
//               12, tools/diag/param_transfer_probe.cu), 4 kernel-node updates and a launch took
//               6.6 + 6.6 us of host time with the grid alternating, against 4.9 + 2.2 us with it
//               fixed (1.9 us for the launch alone without updates).
enum class NodeGrid : std::uint8_t { max_m, follows_m };

struct GemmNodeOptions {
  // The largest M an update may set (the rows the buffers have room for). 0: the M of the
  // arguments given when recording.
  std::int64_t max_m = 0;
  NodeGrid grid = NodeGrid::max_m;
};

class GemmNode {
 public:
  GemmNode() noexcept = default;

  // New arguments for this GEMM in `exec`. What may change: every pointer, alpha, beta, M
  // (1..max_m; scale_a then has M entries), the leading dimensions of A, C and D. What may not:
  // N, K, dtypes, layouts, B's leading dimension, which optional operands are present. Everything
  // is checked before CUDA is called; on error the graph is left as it was.
  [[nodiscard]] Status update(const GraphExec& exec, const GemmArgs& args) const;
  // For an executable graph instantiated by someone else from `instantiated_from`.
  [[nodiscard]] Status update(cudaGraphExec_t exec, cudaGraph_t instantiated_from, const GemmArgs& args) const;

  [[nodiscard]] bool recorded() const noexcept { return recorded_; }
  // Whether update() can change the arguments (false: recorded by plain capture; see why_fixed()).
  [[nodiscard]] bool updatable() const noexcept { return node_ != nullptr; }
  [[nodiscard]] const std::string& why_fixed() const noexcept { return why_fixed_; }
  [[nodiscard]] std::int64_t max_m() const noexcept { return max_m_; }
  [[nodiscard]] cudaGraphNode_t kernel_node() const noexcept { return node_; }
  [[nodiscard]] const detail::NodeIdentity& identity() const noexcept { return id_; }

 private:
  friend Status record_gemm(const GemmPlan&, const GemmArgs&, Workspace, cudaStream_t, GemmNode&,
                            const GemmNodeOptions&);
  // NOTES: a node is a list of graph nodes so that split-K (a kernel zeroing the counters + the
  // GEMM kernel) can be added; today it is one kernel node.
  const graphgemm::detail::GemmBackend* backend_ = nullptr;  // owned by the plan (must outlive the node)
  detail::NodeIdentity id_;
  cudaGraphNode_t node_ = nullptr;
  std::int64_t max_m_ = 0;
  const void* function_ = nullptr;
  cudaFunction_t resolved_ = nullptr;  // function_ resolved at recording
  LaunchShape shape_;
  bool grid_follows_m_ = false;
  bool recorded_ = false;
  std::string why_fixed_;
};

// Records the GEMM of `plan` with `args` into the capture active on `stream` (begun by us or by
// anyone else) and returns its handle in `out`. The stream must be capturing.
[[nodiscard]] Status record_gemm(const GemmPlan& plan, const GemmArgs& args, Workspace workspace, cudaStream_t stream,
                                 GemmNode& out, const GemmNodeOptions& options = {});

}  // namespace graphgemm::graph
