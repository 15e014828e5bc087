// GEMM nodes: a plan's GEMM as an updatable kernel node of a captured graph.
#include "graphgemm/graph/gemm_node.hpp"

#include <cstdio>
#include <string>

#include "backends/backend.hpp"
#include "common/cuda_check.hpp"
#include "graph/graph_internal.hpp"

namespace graphgemm::detail {
struct PlanAccess {
  static const GemmBackend* backend(const GemmPlan& plan) noexcept { return plan.backend_.get(); }
};
}  // namespace graphgemm::detail

namespace graphgemm::graph {
namespace {

std::string dims(const dim3& d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ux%ux%u", d.x, d.y, d.z);
  return buf;
}

bool same(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// `args` with M = m rows (A, C, D and the per-row scale_a): the problem whose launch sets the
// grid of a node fixed at max_m. Only its geometry is used; nothing is launched with it.
GemmArgs with_rows(GemmArgs args, std::int64_t m) {
  if (args.scale_a && args.scale_a->size == args.m()) args.scale_a->size = m;  // per row (sm90 has no other)
  args.a.rows = m;
  args.d.rows = m;
  if (args.c) args.c->rows = m;
  return args;
}

}  // namespace

Status record_gemm(const GemmPlan& plan, const GemmArgs& args, Workspace workspace, cudaStream_t stream, GemmNode& out,
                   const GemmNodeOptions& options) {
  if (!plan.initialized())
    return {StatusCode::invalid_argument, "the plan is not initialized: call plan.initialize(problem) before capture"};
  GRAPHGEMM_TRY(detail::require_capturing(stream, "record_gemm", "plan.run() to run the GEMM eagerly"));
  if (options.max_m < 0)
    return {StatusCode::invalid_argument, "GemmNodeOptions::max_m is " + std::to_string(options.max_m) +
                                              "; it must be >= 0 (0: the M of the arguments)"};
  const std::int64_t max_m = options.max_m > 0 ? options.max_m : args.m();
  if (args.m() > max_m)
    return {StatusCode::invalid_argument, "M = " + std::to_string(args.m()) + " is larger than max_m = " +
                                              std::to_string(max_m) + "; declare a max_m of at least M"};

  GemmNode node;
  node.recorded_ = true;
  node.max_m_ = max_m;
  const graphgemm::detail::GemmBackend* backend = graphgemm::detail::PlanAccess::backend(plan);

  // NOTES: split-K plans (a counter-zeroing kernel + the GEMM kernel, workspace fixed at recording) are not
  // updatable yet: the backend says so and they are recorded by plain capture below.
  graphgemm::detail::KernelLaunch launch;
  const Status made = backend->make_kernel_launch(args, launch);
  if (made.code() == StatusCode::not_supported) {
    // Recorded by plain capture: the graph runs it, with these arguments for good.
    GRAPHGEMM_TRY(plan.run(args, workspace, stream));
    node.why_fixed_ = "this GEMM was recorded by plain capture of plan.run (" + plan.describe() + ": " + made.message() +
                      "), so its arguments are fixed in the graph. To change them, recapture the graph "
                      "(graph::recapture) or record with a plan built with Backend::sm90";
    out = node;
    return {};
  }
  GRAPHGEMM_TRY(made);

  LaunchShape shape{launch.grid, launch.block, launch.smem, launch.cluster};
  node.grid_follows_m_ = options.grid == NodeGrid::follows_m;
  if (!node.grid_follows_m_ && max_m > args.m()) {
    graphgemm::detail::KernelLaunch at_max;
    GRAPHGEMM_TRY(backend->make_kernel_launch(with_rows(args, max_m), at_max));
    if (at_max.function != launch.function)
      return {StatusCode::internal, "the plan launches another kernel at max_m = " + std::to_string(max_m) +
                                        " than at M = " + std::to_string(args.m())};
    shape.grid = at_max.grid;
  }
  void* params[4] = {};
  launch.kernel_params(params);
  GRAPHGEMM_TRY(detail::add_captured_kernel_node(stream, launch.function, shape, params, &node.node_, &node.id_,
                                                 &node.resolved_, launch.programmatic));
  node.backend_ = backend;
  node.function_ = launch.function;
  node.shape_ = shape;
  out = node;
  return {};
}

Status GemmNode::update(const GraphExec& exec, const GemmArgs& args) const {
  GRAPHGEMM_TRY(detail::check_recorded(recorded_));
  if (!updatable()) return {StatusCode::not_supported, why_fixed_};
  GRAPHGEMM_TRY(exec.check_node(id_));
  return update(exec.get(), id_.graph, args);
}

Status GemmNode::update(cudaGraphExec_t exec, cudaGraph_t instantiated_from, const GemmArgs& args) const {
  GRAPHGEMM_TRY(detail::check_recorded(recorded_));
  if (!updatable()) return {StatusCode::not_supported, why_fixed_};
  if (exec == nullptr) return {StatusCode::invalid_argument, "the executable graph is null: instantiate the graph first"};
  GRAPHGEMM_TRY(detail::check_node_of_graph(instantiated_from, id_));
  if (args.m() < 1)
    return {StatusCode::invalid_argument, "M = " + std::to_string(args.m()) +
                                              ": a GEMM node computes at least one row; skip the graph launch when "
                                              "there is nothing to compute"};
  if (args.m() > max_m_)
    return {StatusCode::invalid_argument,
            "M = " + std::to_string(args.m()) + " is larger than max_m = " + std::to_string(max_m_) +
                ", declared when this GEMM node was recorded; record it with GemmNodeOptions{.max_m = " +
                std::to_string(args.m()) + "} or more (and buffers with room for that many rows)"};
  graphgemm::detail::KernelLaunch launch;
  GRAPHGEMM_TRY(backend_->make_kernel_launch(args, launch));
  // The grid stays the recorded one (NodeGrid::max_m) or follows M (the tiles of the new M, at
  // most the co-resident CTAs); the kernel, block, cluster and shared memory are the plan's and
  // cannot differ from the recorded ones.
  if (launch.function != function_ || !same(launch.block, shape_.block) || !same(launch.cluster, shape_.cluster) ||
      launch.smem != shape_.smem)
    return {StatusCode::internal, "the plan's kernel launch (block " + dims(launch.block) + ", cluster " +
                                      dims(launch.cluster) + ") differs from the one recorded (block " +
                                      dims(shape_.block) + ", cluster " + dims(shape_.cluster) + ")"};
  LaunchShape shape = shape_;
  if (grid_follows_m_) shape.grid = launch.grid;
  void* params[4] = {};
  launch.kernel_params(params);
  return detail::set_kernel_node_params(exec, node_, resolved_, shape, params);
}

}  // namespace graphgemm::graph
