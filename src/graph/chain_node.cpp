// Chain nodes: a GemmChain as two kernel nodes of a captured graph, the chain node updatable.
#include "graphgemm/graph/chain_node.hpp"

#include <vector>

#include "common/cuda_check.hpp"
#include "gemm/chain_internal.hpp"
#include "graph/graph_internal.hpp"

namespace graphgemm::graph {

namespace {

// What the setup node's table is made from, per layer (besides the chain's fixed shapes and the
// node's workspace): an update whose layers match it rewrites the chain node alone.
struct LayerKey {
  const void* w = nullptr;
  std::int64_t ldw = 0;
  const void* bias = nullptr;
  DType bias_dtype = DType::fp32;
  friend bool operator==(const LayerKey&, const LayerKey&) = default;
};

LayerKey key_of(const ChainLayer& L) {
  return {L.w.data, L.w.leading_dim(), L.bias ? L.bias->data : nullptr, L.bias ? L.bias->dtype : DType::fp32};
}

std::vector<LayerKey> layer_keys(const ChainArgs& args) {
  std::vector<LayerKey> keys;
  keys.reserve(args.layers.size());
  for (const ChainLayer& L : args.layers) keys.push_back(key_of(L));
  return keys;
}

bool same_layers(const std::vector<LayerKey>& keys, const ChainArgs& args) {
  if (keys.size() != args.layers.size()) return false;
  for (std::size_t l = 0; l < keys.size(); ++l)
    if (!(key_of(args.layers[l]) == keys[l])) return false;
  return true;
}

}  // namespace

struct ChainNode::State {
  const GemmChain* chain = nullptr;
  Workspace workspace;
  detail::NodeIdentity setup_id, chain_id;
  cudaGraphNode_t setup = nullptr, node = nullptr;
  cudaFunction_t setup_fn = nullptr, chain_fn = nullptr;
  LaunchShape setup_shape, chain_shape;
  std::vector<LayerKey> recorded;  // the layers the setup node was recorded with
  // Some update has set a setup node to other layers. CUDA cannot say what the setup node of a
  // given executable graph holds (several may be instantiated from the graph, and one destroyed
  // and another made at its address), so from then on every update sets it.
  bool setup_changed = false;
  long long setup_updates = 0;
};

namespace {

LaunchShape shape_of(const graphgemm::detail::sm90::LaunchGeometry& g) {
  return LaunchShape{dim3(g.grid[0], g.grid[1], g.grid[2]), dim3(g.block[0], g.block[1], g.block[2]), g.smem,
                     dim3(g.cluster[0], g.cluster[1], g.cluster[2])};
}

}  // namespace

cudaGraphNode_t ChainNode::setup_node() const noexcept { return state_ ? state_->setup : nullptr; }
cudaGraphNode_t ChainNode::chain_node() const noexcept { return state_ ? state_->node : nullptr; }
long long ChainNode::setup_updates() const noexcept { return state_ ? state_->setup_updates : 0; }

Status record_chain(const GemmChain& chain, const ChainArgs& args, Workspace workspace, cudaStream_t stream,
                    ChainNode& out) {
  namespace s9 = graphgemm::detail::sm90;
  if (!chain.initialized())
    return {StatusCode::invalid_argument, "the chain is not initialized: call chain.initialize(problem) before capture"};
  GRAPHGEMM_TRY(detail::require_capturing(stream, "record_chain", "chain.run() to run the chain eagerly"));
  if (args.m() < 1)
    return {StatusCode::invalid_argument, "M = 0: record the chain with the arguments of a step that has rows (any M "
                                          "in 1..max_m); skip the graph launch when a step has none"};
  s9::ChainLaunchStorage la;
  GRAPHGEMM_TRY(graphgemm::detail::ChainAccess::make_launch(chain, args, workspace, la));
  const int kernel = graphgemm::detail::ChainAccess::kernel(chain);
  auto st = std::make_shared<ChainNode::State>();
  st->chain = &chain;
  st->workspace = workspace;
  const s9::LaunchGeometry setup_geo = s9::chain_setup_geometry(la);
  st->setup_shape = shape_of(setup_geo);
  st->chain_shape = shape_of(s9::chain_geometry(la));
  void* setup_args[1] = {s9::chain_setup_arg(la)};
  GRAPHGEMM_TRY(detail::add_captured_kernel_node(stream, s9::chain_setup_function(), st->setup_shape, setup_args,
                                                 &st->setup, &st->setup_id, &st->setup_fn, setup_geo.programmatic));
  // The chain kernel follows the setup kernel programmatically (it starts at once and waits for
  // the setup kernel's table and counters in griddep_wait()).
  void* chain_args[1] = {s9::chain_step_arg(la)};
  GRAPHGEMM_TRY(detail::add_captured_kernel_node(stream, s9::chain_function(kernel), st->chain_shape, chain_args,
                                                 &st->node, &st->chain_id, &st->chain_fn, true));
  st->recorded = layer_keys(args);
  out.state_ = std::move(st);
  return {};
}

Status ChainNode::update(const GraphExec& exec, const ChainArgs& args) const {
  GRAPHGEMM_TRY(detail::check_recorded(state_ != nullptr));
  GRAPHGEMM_TRY(exec.check_node(state_->chain_id));
  return update(exec.get(), state_->chain_id.graph, args);
}

Status ChainNode::update(cudaGraphExec_t exec, cudaGraph_t instantiated_from, const ChainArgs& args) const {
  namespace s9 = graphgemm::detail::sm90;
  GRAPHGEMM_TRY(detail::check_recorded(state_ != nullptr));
  if (exec == nullptr) return {StatusCode::invalid_argument, "the executable graph is null: instantiate the graph first"};
  GRAPHGEMM_TRY(detail::check_node_of_graph(instantiated_from, state_->chain_id));
  if (args.m() < 1)
    return {StatusCode::invalid_argument, "M = " + std::to_string(args.m()) +
                                              ": a chain node computes at least one row; skip the graph launch when "
                                              "there is nothing to compute"};
  State& st = *state_;
  // The usual step keeps the recorded layers (new M, x, y, scales, alpha): its launch arguments are
  // the chain kernel's parameter alone, without the table's tensor maps (4 encodes a layer, ~0.05 us
  // each). Otherwise the whole launch is made and the setup node set too.
  const bool step_only = !st.setup_changed && same_layers(st.recorded, args);
  s9::ChainLaunchStorage la;
  GRAPHGEMM_TRY(graphgemm::detail::ChainAccess::make_launch(*st.chain, args, st.workspace, la, step_only));
  // Everything is validated above; then the setup node (where the layers are not the recorded
  // ones, or have not been since some update: see State::setup_changed), then the chain node.
  if (!step_only) {
    st.setup_changed = true;
    void* a[1] = {s9::chain_setup_arg(la)};
    GRAPHGEMM_TRY(detail::set_kernel_node_params(exec, st.setup, st.setup_fn, st.setup_shape, a));
    ++st.setup_updates;
  }
  void* a[1] = {s9::chain_step_arg(la)};
  return detail::set_kernel_node_params(exec, st.node, st.chain_fn, st.chain_shape, a);
}

}  // namespace graphgemm::graph
