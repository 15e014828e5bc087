#pragma once
// The GEMM workflow of issue 4, shared by graphgemm_graph_bench and the demo: a 4-layer bf16 MLP
// (y = x · Wᵀ + bias, each row scaled by a per-row factor: scale_a) whose batch M (1..max_m),
// input pointer (rotating buffers) and per-row scales change every iteration. The ways to run it:
//
//   eager      plan.run per layer (one plan per M, built before timing)
//   recapture  capture the step again every iteration, cudaGraphExecUpdate (graph::recapture)
//   buckets    one graph per power-of-two M bucket (graph::GraphCache), fed through static input
//              buffers (copies before each launch), computing the padded M
//   ours       one graph with four GEMM nodes, updated in place (M, input, scales) every iteration
//   static     a graph recorded for exactly this M and these pointers, replayed with no update:
//              the floor (the same GPU work as ours, no host work but the launch)
//   chain      the 4 layers as ONE GemmChain (graphgemm/chain.hpp: one launch, the layers handing
//              rows over inside it): its graph node updated in place (one ~400-byte parameter
//              block a step), recaptured, and replayed static (the floor of the chain's own work)
//
// Every approach runs the same sm90 kernel instance (the one the plan at max M chose, split-K
// off), so results are comparable bit for bit and the timings isolate how the work is launched;
// the chain runs the same tile configuration (its own kernel: same arithmetic, bit for bit).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_support.hpp"
#include "graphgemm/chain.hpp"
#include "graphgemm/gemm.hpp"
#include "graphgemm/graph/graph.hpp"

namespace graphgemm::workflow {

#define WORKFLOW_TRY(expr)                                                                   \
  do {                                                                                       \
    const ::graphgemm::Status s_ = (expr);                                                   \
    if (!s_.ok()) throw std::runtime_error(std::string(#expr) + ": " + s_.to_string());     \
  } while (0)

struct MlpConfig {
  std::int64_t hidden = 4096;
  std::int64_t max_m = 256;
  int layers = 4;
  int rotating = 4;  // input / scale buffers cycled through
  std::uint64_t seed = 7;
  // Every approach's plans launch with programmatic dependent launch or without it (GemmOptions::
  // programmatic_launch on / off): with it, captured launches and GEMM nodes get programmatic edges.
  bool programmatic = false;
  // The chain's kernel: GemmChain's automatic choice (true: at hidden 4096 two tiles chosen by M at
  // each launch, session 31) or the plan's tile (false). Either is bit for bit equal to the layers
  // (every tile sums the same k16 steps in the same order, session 30); the bench checks it.
  bool chain_automatic = true;
};

class Mlp {
 public:
  Mlp(const MlpConfig& cfg, cudaStream_t stream) : cfg_(cfg), stream_(stream) {
    const std::int64_t h = cfg.hidden;
    for (int l = 0; l < cfg.layers; ++l) {
      w_.emplace_back(h * h * 2);
      bias_.emplace_back(h * 2);
      act_.emplace_back(cfg.max_m * h * 2);
      support::fill_random(w_.back().get(), DType::bf16, h * h, cfg.seed + 10 * l, 1.0f / 64.0f);
      support::fill_random(bias_.back().get(), DType::bf16, h, cfg.seed + 10 * l + 1, 0.1f);
    }
    for (int r = 0; r < cfg.rotating; ++r) {
      x_.emplace_back(cfg.max_m * h * 2);
      scale_.emplace_back(cfg.max_m * 4);
      support::fill_random(x_.back().get(), DType::bf16, cfg.max_m * h, cfg.seed + 1000 + r);
      support::fill_random(scale_.back().get(), DType::fp32, cfg.max_m, cfg.seed + 2000 + r, 0.25f);
    }
    x_static_ = support::DeviceBuffer(cfg.max_m * h * 2);
    scale_static_ = support::DeviceBuffer(cfg.max_m * 4);
    support::fill_random(x_static_.get(), DType::bf16, cfg.max_m * h, cfg.seed + 3000);
    support::fill_random(scale_static_.get(), DType::fp32, cfg.max_m, cfg.seed + 3001);
    SUPPORT_CUDA(cudaDeviceSynchronize());

    // The plan at max M picks the kernel every approach runs.
    GemmOptions o;
    o.backend = Backend::sm90;
    o.split_k_mode = SplitKMode::none;
    o.programmatic_launch = cfg.programmatic ? ProgrammaticLaunch::on : ProgrammaticLaunch::off;
    WORKFLOW_TRY(plan_max_.initialize(layer_args(0, cfg.max_m, x_[0].get(), scale_[0].as<float>()), o));
    const std::string d = plan_max_.describe();
    kernel_ = d.substr(6, d.find_first_of(" ,", 6) - 6);

    // The chain: the plan's tile where the chain has it (then bit for bit like the layers).
    chain_layers_.resize(cfg.layers);
    ChainOptions co;
    co.max_m = cfg.max_m;
    co.sm90_kernel = cfg.chain_automatic ? std::string() : kernel_;
    co.programmatic_launch = cfg.programmatic;
    if (!chain_.initialize(chain_args(cfg.max_m, x_[0].get(), scale_[0].as<float>()), co).ok()) {
      co.sm90_kernel.clear();
      WORKFLOW_TRY(chain_.initialize(chain_args(cfg.max_m, x_[0].get(), scale_[0].as<float>()), co));
    }
    chain_ws_ = support::DeviceBuffer(chain_.workspace_size());
  }

  const MlpConfig& config() const { return cfg_; }
  const std::string& kernel() const { return kernel_; }
  std::string describe() const { return plan_max_.describe(); }
  const void* input(int i) const { return x_[i % cfg_.rotating].get(); }
  const float* scale(int i) const { return scale_[i % cfg_.rotating].as<float>(); }

  GemmArgs layer_args(int l, std::int64_t m, const void* x, const float* scale) const {
    const std::int64_t h = cfg_.hidden;
    GemmArgs g;
    g.a = MatrixView::row_major(l == 0 ? x : act_[l - 1].get(), DType::bf16, m, h);
    g.b = MatrixView::transposed_weight(w_[l].get(), DType::bf16, h, h);
    g.d = MatrixView::row_major(act_[l].get(), DType::bf16, m, h);
    g.bias = VectorView{bias_[l].get(), DType::bf16, h};
    g.scale_a = VectorView{scale, DType::fp32, m};
    return g;
  }

  // The 4 layers as one chain into the last layer's output (its own activations in its workspace).
  // The layers live in chain_layers_ (no allocation per step).
  ChainArgs chain_args(std::int64_t m, const void* x, const float* scale) {
    const std::int64_t h = cfg_.hidden;
    for (int l = 0; l < cfg_.layers; ++l) {
      chain_layers_[l].w = MatrixView::transposed_weight(w_[l].get(), DType::bf16, h, h);
      chain_layers_[l].bias = VectorView{bias_[l].get(), DType::bf16, h};
      chain_layers_[l].scale_a = VectorView{scale, DType::fp32, m};
    }
    return ChainArgs{MatrixView::row_major(x, DType::bf16, m, h), MatrixView::row_major(act_.back().get(), DType::bf16, m, h),
                     chain_layers_};
  }
  std::string chain_describe() const { return chain_.describe(); }
  Workspace chain_workspace() const { return {chain_ws_.get(), chain_ws_.bytes()}; }

  // One plan per M, all running the max-M plan's kernel instance.
  const GemmPlan& plan_for(std::int64_t m) {
    std::unique_ptr<GemmPlan>& p = plans_[m];
    if (!p) {
      p = std::make_unique<GemmPlan>();
      GemmOptions o;
      o.backend = Backend::sm90;
      o.split_k_mode = SplitKMode::none;
      o.sm90_kernel = kernel_;
      o.programmatic_launch = cfg_.programmatic ? ProgrammaticLaunch::on : ProgrammaticLaunch::off;
      WORKFLOW_TRY(p->initialize(layer_args(0, m, x_[0].get(), scale_[0].as<float>()), o));
    }
    return *p;
  }

  // The MLP through plan.run (eagerly, or into a capture). Call prepare_plans() first: plans are
  // built before any capture, so that nothing but run() happens under capture.
  Status forward(std::int64_t m, const void* x, const float* scale, cudaStream_t s) {
    for (int l = 0; l < cfg_.layers; ++l)
      if (Status st = plan_for(m).run(layer_args(l, m, x, scale), {}, s); !st.ok()) return st;
    return {};
  }
  void prepare_plans() {
    for (std::int64_t m = 1; m <= cfg_.max_m; ++m) (void)plan_for(m);
  }

  // The output of the last layer: M rows.
  std::vector<unsigned char> output(std::int64_t m) const {
    return support::download(MatrixView::row_major(act_.back().get(), DType::bf16, m, cfg_.hidden));
  }
  void poison_output() const { support::fill_poison(act_.back().get(), DType::bf16, cfg_.max_m * cfg_.hidden, stream_); }

  // ---- the approaches: each enqueues one step with (m, input i, scale i) ----
  void eager_step(std::int64_t m, int i) { WORKFLOW_TRY(forward(m, input(i), scale(i), stream_)); }

  graph::UpdateReport recapture_only(std::int64_t m, int i) {
    graph::UpdateReport how;
    WORKFLOW_TRY(graph::recapture(recaptured_, stream_, [&](cudaStream_t s) { return forward(m, input(i), scale(i), s); },
                                  &how));
    return how;
  }
  graph::UpdateReport recapture_step(std::int64_t m, int i) {
    const graph::UpdateReport how = recapture_only(m, i);
    WORKFLOW_TRY(recaptured_.launch(stream_));
    return how;
  }
  graph::GraphExec& recaptured_graph() { return recaptured_; }

  static std::int64_t bucket_of(std::int64_t m) {
    std::int64_t b = 1;
    while (b < m) b *= 2;
    return b;
  }
  void bucket_step(std::int64_t m, int i) {
    const std::int64_t b = std::min(bucket_of(m), cfg_.max_m);
    SUPPORT_CUDA(cudaMemcpyAsync(x_static_.get(), input(i), m * cfg_.hidden * 2, cudaMemcpyDeviceToDevice, stream_));
    SUPPORT_CUDA(cudaMemcpyAsync(scale_static_.get(), scale(i), m * 4, cudaMemcpyDeviceToDevice, stream_));
    WORKFLOW_TRY(buckets_.launch(b, stream_, [&](cudaStream_t s) {
      return forward(b, x_static_.get(), scale_static_.as<float>(), s);
    }));
  }
  std::size_t bucket_graphs() const { return buckets_.size(); }

  // Ours: record once (at max M), then update the four nodes every step. Two recordings: the
  // nodes' grid fixed at max M (graph::NodeGrid::max_m, the default) and following M.
  void record_ours() {
    for (const bool follow : {false, true}) {
      Ours& o = ours(follow);
      graph::Capture cap;
      WORKFLOW_TRY(cap.begin(stream_));
      o.nodes.assign(cfg_.layers, {});
      const graph::GemmNodeOptions opt{cfg_.max_m, follow ? graph::NodeGrid::follows_m : graph::NodeGrid::max_m};
      for (int l = 0; l < cfg_.layers; ++l)
        WORKFLOW_TRY(graph::record_gemm(plan_max_, layer_args(l, cfg_.max_m, input(0), scale(0)), {}, stream_,
                                        o.nodes[l], opt));
      WORKFLOW_TRY(cap.end());
      WORKFLOW_TRY(o.exec.instantiate(cap));
      WORKFLOW_TRY(o.exec.upload(stream_));
    }
  }
  void ours_updates(std::int64_t m, int i, bool grid_follows_m = false) {
    Ours& o = ours(grid_follows_m);
    for (int l = 0; l < cfg_.layers; ++l) WORKFLOW_TRY(o.nodes[l].update(o.exec, layer_args(l, m, input(i), scale(i))));
  }
  void ours_step(std::int64_t m, int i, bool grid_follows_m = false) {
    ours_updates(m, i, grid_follows_m);
    WORKFLOW_TRY(ours(grid_follows_m).exec.launch(stream_));
  }

  // The chain: eagerly, recaptured every step, its node updated in place, and the static floor
  // of its own work (a graph per M recorded for exactly that M and input 0).
  void chain_eager_step(std::int64_t m, int i) { WORKFLOW_TRY(chain_.run(chain_args(m, input(i), scale(i)), chain_workspace(), stream_)); }
  graph::UpdateReport chain_recapture_only(std::int64_t m, int i) {
    graph::UpdateReport how;
    WORKFLOW_TRY(graph::recapture(
        chain_recaptured_, stream_, [&](cudaStream_t s) { return chain_.run(chain_args(m, input(i), scale(i)), chain_workspace(), s); },
        &how));
    return how;
  }
  void chain_recapture_step(std::int64_t m, int i) {
    (void)chain_recapture_only(m, i);
    WORKFLOW_TRY(chain_recaptured_.launch(stream_));
  }
  graph::GraphExec& chain_recaptured_graph() { return chain_recaptured_; }
  void record_chain() {
    graph::Capture cap;
    WORKFLOW_TRY(cap.begin(stream_));
    WORKFLOW_TRY(graph::record_chain(chain_, chain_args(cfg_.max_m, input(0), scale(0)), chain_workspace(), stream_, chain_node_));
    WORKFLOW_TRY(cap.end());
    WORKFLOW_TRY(chain_exec_.instantiate(cap));
    WORKFLOW_TRY(chain_exec_.upload(stream_));
  }
  void chain_updates(std::int64_t m, int i) { WORKFLOW_TRY(chain_node_.update(chain_exec_, chain_args(m, input(i), scale(i)))); }
  void chain_step(std::int64_t m, int i) {
    chain_updates(m, i);
    WORKFLOW_TRY(chain_exec_.launch(stream_));
  }
  graph::GraphExec& chain_graph() { return chain_exec_; }
  void chain_static_step(std::int64_t m) {
    WORKFLOW_TRY(chain_static_.launch(m, stream_, [&](cudaStream_t s) -> Status {
      graph::ChainNode node;
      return graph::record_chain(chain_, chain_args(m, input(0), scale(0)), chain_workspace(), s, node);
    }));
  }
  graph::GraphExec* chain_static_graph(std::int64_t m) { return chain_static_.find(m); }

  // The floor's executable graph for M (captured by static_step before; null if not).
  graph::GraphExec* static_graph(std::int64_t m) { return static_.find(m); }
  graph::GraphExec& ours_graph(bool grid_follows_m = false) { return ours(grid_follows_m).exec; }

  // The floor: per M, a graph of the same nodes recorded for exactly that M and input 0, each
  // node with the grid of that M (what capturing plan.run would launch).
  void static_step(std::int64_t m) {
    WORKFLOW_TRY(static_.launch(m, stream_, [&](cudaStream_t s) -> Status {
      for (int l = 0; l < cfg_.layers; ++l) {
        graph::GemmNode node;
        if (Status st = graph::record_gemm(plan_max_, layer_args(l, m, input(0), scale(0)), {}, s, node,
                                           {cfg_.max_m, graph::NodeGrid::follows_m});
            !st.ok())
          return st;
      }
      return {};
    }));
  }

 private:
  MlpConfig cfg_;
  cudaStream_t stream_;
  std::vector<support::DeviceBuffer> w_, bias_, act_, x_, scale_;
  support::DeviceBuffer x_static_, scale_static_;
  GemmPlan plan_max_;
  std::string kernel_;
  std::map<std::int64_t, std::unique_ptr<GemmPlan>> plans_;
  struct Ours {
    graph::GraphExec exec;
    std::vector<graph::GemmNode> nodes;
  };
  Ours& ours(bool grid_follows_m) { return grid_follows_m ? ours_follow_ : ours_; }
  graph::GraphExec recaptured_;
  Ours ours_, ours_follow_;
  graph::GraphCache<std::int64_t> buckets_, static_;
  GemmChain chain_;
  std::vector<ChainLayer> chain_layers_;
  support::DeviceBuffer chain_ws_;
  graph::ChainNode chain_node_;
  graph::GraphExec chain_exec_, chain_recaptured_;
  graph::GraphCache<std::int64_t> chain_static_;
};

// A synchronized step cut into its host phases (µs per step, means over steps 0..iters-1 after
// untimed steps 0..warmup-1, as time_steps numbers them): prepare (updates, recapture, graph
// lookup), the launch call, and the wait for the GPU (cudaStreamSynchronize returning).
struct Phases {
  double prepare_us = 0, launch_us = 0, wait_us = 0;
};
template <class Prepare, class Launch>
Phases synced_phases(cudaStream_t stream, int iters, int warmup, Prepare&& prepare, Launch&& launch) {
  using clock = std::chrono::steady_clock;
  auto us = [](clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  Phases ph;
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  for (int pass = 0; pass < 2; ++pass) {  // 0: warm-up, untimed; 1: timed
    for (int i = 0; i < (pass == 0 ? warmup : iters); ++i) {
      const auto t0 = clock::now();
      prepare(i);
      const auto t1 = clock::now();
      launch(i);
      const auto t2 = clock::now();
      SUPPORT_CUDA(cudaStreamSynchronize(stream));
      const auto t3 = clock::now();
      if (pass == 0) continue;
      ph.prepare_us += us(t1 - t0);
      ph.launch_us += us(t2 - t1);
      ph.wait_us += us(t3 - t2);
    }
  }
  ph.prepare_us /= iters;
  ph.launch_us /= iters;
  ph.wait_us /= iters;
  return ph;
}

// Batch sizes for `iters` steps, uniform in 1..max_m, deterministic.
inline std::vector<std::int64_t> batch_sizes(int iters, std::int64_t max_m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> dist(1, max_m);
  std::vector<std::int64_t> ms(iters);
  for (auto& m : ms) m = dist(rng);
  return ms;
}

// Runs step(i) for i in [0, iters) (with a stream sync after each when `sync`), after `warmup`
// untimed steps; returns µs per step (host wall clock, including the final synchronization).
template <class Step>
double time_steps(cudaStream_t stream, int iters, int warmup, bool sync, Step&& step) {
  for (int i = 0; i < warmup; ++i) step(i);
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    step(i);
    if (sync) SUPPORT_CUDA(cudaStreamSynchronize(stream));
  }
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / iters;
}

}  // namespace graphgemm::workflow
