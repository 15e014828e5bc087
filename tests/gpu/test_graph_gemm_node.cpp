// GEMM nodes: recorded once, then updated in the instantiated graph with new pointers, alpha,
// beta, bias, scales, leading dimensions and M (1..max_m); every replay compared bit for bit with
// an eager plan.run of the same kernel instance on the same arguments. Also inside a capture
// begun by another party, and the errors: stale and foreign handles, arguments that do not fit
// (N, M > max_m, misalignment), plans that cannot be updated — each leaving the graph as it was.
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_test.hpp"
#include "graphgemm/graph/graph.hpp"

using namespace graphgemm;
using support::DeviceBuffer;

namespace {

constexpr std::int64_t kMaxM = 160, kN = 264, kK = 192;  // N: a ragged last tile and a non-TMA tail

// The kernel instance a plan runs, from describe(): "sm90: <name>, split-K ..."
std::string kernel_name(const GemmPlan& plan) {
  const std::string d = plan.describe();
  const std::size_t end = d.find_first_of(" ,", 6);
  return d.substr(6, end - 6);
}

// Two of every operand, sized for kMaxM rows; the second A and D have padded leading dimensions.
struct Pool {
  std::int64_t lda[2] = {kK, kK + 8}, ldd[2] = {kN, kN + 16};
  DeviceBuffer a[2], b[2], c[2], d[2], bias[2], scale_a[2], scale_b[2];
  DeviceBuffer eager;  // where the eager runs write
  Pool() {
    for (int i = 0; i < 2; ++i) {
      a[i] = DeviceBuffer(kMaxM * lda[i] * 2);
      b[i] = DeviceBuffer(kN * kK * 2);
      c[i] = DeviceBuffer(kMaxM * kN * 2);
      d[i] = DeviceBuffer(kMaxM * ldd[i] * 2);
      bias[i] = DeviceBuffer(kN * 2);
      scale_a[i] = DeviceBuffer(kMaxM * 4);
      scale_b[i] = DeviceBuffer(kN * 4);
      const std::uint64_t seed = 100 + 10 * i;
      support::fill_random(a[i].get(), DType::bf16, kMaxM * lda[i], seed + 1);
      support::fill_random(b[i].get(), DType::bf16, kN * kK, seed + 2);
      support::fill_random(c[i].get(), DType::bf16, kMaxM * kN, seed + 3);
      support::fill_random(bias[i].get(), DType::bf16, kN, seed + 4);
      support::fill_random(scale_a[i].get(), DType::fp32, kMaxM, seed + 5, 0.5f);
      support::fill_random(scale_b[i].get(), DType::fp32, kN, seed + 6, 0.5f);
    }
    eager = DeviceBuffer(kMaxM * ldd[1] * 2);
    SUPPORT_CUDA(cudaDeviceSynchronize());
  }
};

struct Choice {
  std::int64_t m = kMaxM;
  int a = 0, b = 0, c = 0, d = 0, bias = 0, sa = 0, sb = 0;
  float alpha = 1.0f, beta = 0.5f;
};

GemmArgs make_args(const Pool& p, const Choice& ch, const void* d_override = nullptr) {
  GemmArgs g;
  g.a = MatrixView::row_major(p.a[ch.a].get(), DType::bf16, ch.m, kK, p.lda[ch.a]);
  g.b = MatrixView::transposed_weight(p.b[ch.b].get(), DType::bf16, kN, kK);
  g.c = MatrixView::row_major(p.c[ch.c].get(), DType::bf16, ch.m, kN);
  g.d = MatrixView::row_major(d_override ? d_override : p.d[ch.d].get(), DType::bf16, ch.m, kN, p.ldd[ch.d]);
  g.bias = VectorView{p.bias[ch.bias].get(), DType::bf16, kN};
  g.scale_a = VectorView{p.scale_a[ch.sa].get(), DType::fp32, ch.m};
  g.scale_b = VectorView{p.scale_b[ch.sb].get(), DType::fp32, kN};
  g.alpha = ch.alpha;
  g.beta = ch.beta;
  return g;
}

GemmOptions sm90_options(const std::string& kernel) {
  GemmOptions o;
  o.backend = Backend::sm90;
  o.sm90_kernel = kernel;
  o.split_k_mode = SplitKMode::none;
  return o;
}

// Eager runs of one kernel instance, one plan per problem (M and leading dimensions).
class Eager {
 public:
  explicit Eager(std::string kernel) : kernel_(std::move(kernel)) {}
  std::vector<unsigned char> run(const GemmArgs& args, cudaStream_t stream) {
    std::unique_ptr<GemmPlan>& plan = plans_[{args.m(), args.a.leading_dim(), args.d.leading_dim()}];
    if (!plan) {
      plan = std::make_unique<GemmPlan>();
      const Status s = plan->initialize(args, sm90_options(kernel_));
      if (!s.ok()) throw std::runtime_error(s.to_string());
    }
    const Status s = plan->run(args, {}, stream);
    if (!s.ok()) throw std::runtime_error(s.to_string());
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    return support::download(args.d);
  }

 private:
  std::string kernel_;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::unique_ptr<GemmPlan>> plans_;  // (M, lda, ldd)
};

using graphgemm::testing::Stream;

// Poisons D, replays, and returns D (as `args` describes it).
std::vector<unsigned char> replay(const Pool& p, const GemmArgs& args, const graph::GraphExec& exec, cudaStream_t s) {
  for (int i = 0; i < 2; ++i) support::fill_poison(p.d[i].get(), DType::bf16, kMaxM * p.ldd[i], s);
  const Status launched = exec.launch(s);
  if (!launched.ok()) throw std::runtime_error(launched.to_string());
  SUPPORT_CUDA(cudaStreamSynchronize(s));
  return support::download(args.d);
}

Choice random_choice(std::mt19937& rng) {
  Choice ch;
  ch.m = std::uniform_int_distribution<std::int64_t>(1, kMaxM)(rng);
  auto bit = [&] { return static_cast<int>(rng() & 1u); };
  ch.a = bit(), ch.b = bit(), ch.c = bit(), ch.d = bit(), ch.bias = bit(), ch.sa = bit(), ch.sb = bit();
  ch.alpha = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
  ch.beta = (rng() % 4 == 0) ? 0.0f : std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  return ch;
}

struct Case {
  cudaStreamCaptureMode mode;
  bool foreign;        // the capture is begun (and ended) by "another party": the test itself
  std::string kernel;  // "" = the heuristic's choice at max M
  graph::NodeGrid grid = graph::NodeGrid::max_m;
};

class GraphGemmNode : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(GraphGemmNode, RandomUpdatesMatchEagerBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  const Case& tc = GetParam();
  Pool pool;
  Stream stream;
  const Choice recorded;  // M = max M
  GemmPlan plan;
  const Status init = plan.initialize(make_args(pool, recorded), sm90_options(tc.kernel));
  ASSERT_TRUE(init.ok()) << init.to_string();
  SCOPED_TRACE(plan.describe());
  Eager eager(kernel_name(plan));

  graph::GemmNode node;
  graph::GraphExec exec;
  cudaGraph_t foreign_graph = nullptr;
  cudaGraphExec_t foreign_exec = nullptr;
  if (tc.foreign) {
    SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, tc.mode));
    graph::Capture joined;  // library code joining whatever capture is active
    ASSERT_TRUE(joined.begin(stream.s).ok());
    ASSERT_TRUE(joined.joined());
    SUPPORT_CUDA(cudaMemsetAsync(pool.eager.get(), 0, 16, stream.s));  // someone else's node before ours
    const Status rec = graph::record_gemm(plan, make_args(pool, recorded), {}, stream.s, node, {kMaxM, tc.grid});
    ASSERT_TRUE(rec.ok()) << rec.to_string();
    ASSERT_TRUE(joined.end().ok());
    ASSERT_EQ(cudaStreamEndCapture(stream.s, &foreign_graph), cudaSuccess);
    SUPPORT_CUDA(cudaGraphInstantiate(&foreign_exec, foreign_graph, 0));
  } else {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s, tc.mode).ok());
    const Status rec = graph::record_gemm(plan, make_args(pool, recorded), {}, stream.s, node, {kMaxM, tc.grid});
    ASSERT_TRUE(rec.ok()) << rec.to_string();
    ASSERT_TRUE(cap.end().ok());
    ASSERT_TRUE(exec.instantiate(cap).ok());
  }
  ASSERT_TRUE(node.updatable()) << node.why_fixed();

  auto update = [&](const GemmArgs& args) {
    return tc.foreign ? node.update(foreign_exec, foreign_graph, args) : node.update(exec, args);
  };
  auto launch_and_download = [&](const GemmArgs& args) {
    for (int i = 0; i < 2; ++i) support::fill_poison(pool.d[i].get(), DType::bf16, kMaxM * pool.ldd[i], stream.s);
    if (tc.foreign) SUPPORT_CUDA(cudaGraphLaunch(foreign_exec, stream.s));
    else if (const Status s = exec.launch(stream.s); !s.ok()) throw std::runtime_error(s.to_string());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    return support::download(args.d);
  };

  std::mt19937 rng(1234);
  for (int it = 0; it < 40; ++it) {
    Choice ch = random_choice(rng);
    if (it == 0) ch.m = 1;
    if (it == 1) ch.m = kMaxM;
    const GemmArgs args = make_args(pool, ch);
    SCOPED_TRACE("update " + std::to_string(it) + ": M = " + std::to_string(ch.m));
    const Status s = update(args);
    ASSERT_TRUE(s.ok()) << s.to_string();
    const std::vector<unsigned char> graph_out = launch_and_download(args);
    const std::vector<unsigned char> eager_out = eager.run(make_args(pool, ch, nullptr), stream.s);
    ASSERT_EQ(graph_out, eager_out) << "replay after the update differs from eager plan.run";
  }
  if (foreign_exec) SUPPORT_CUDA(cudaGraphExecDestroy(foreign_exec));
  if (foreign_graph) SUPPORT_CUDA(cudaGraphDestroy(foreign_graph));
}

INSTANTIATE_TEST_SUITE_P(
    Modes, GraphGemmNode,
    ::testing::Values(Case{cudaStreamCaptureModeGlobal, false, ""}, Case{cudaStreamCaptureModeThreadLocal, false, ""},
                      Case{cudaStreamCaptureModeRelaxed, false, ""}, Case{cudaStreamCaptureModeGlobal, true, ""},
                      Case{cudaStreamCaptureModeRelaxed, true, ""},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_128x256x64_s4_c2x1_bk"},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_128x128x64_s6_c1x2_bk"},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_64x128x64_s8_c1x1_bk"},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_128x128x64_s6_c2x1_pp_bk"},
                      Case{cudaStreamCaptureModeRelaxed, true, "sm90_bf16_bf16_64x256x64_s4_c1x1_pp_bk"},
                      Case{cudaStreamCaptureModeGlobal, false, "", graph::NodeGrid::follows_m},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_128x256x64_s4_c2x1_bk",
                           graph::NodeGrid::follows_m},
                      Case{cudaStreamCaptureModeRelaxed, true, "sm90_bf16_bf16_64x256x64_s4_c1x1_pp_bk",
                           graph::NodeGrid::follows_m},
                      // gemv: one kernel parameter (GemvParams), not three tensor maps and the parameters
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_gemv8_w8_u2_bk"},
                      Case{cudaStreamCaptureModeRelaxed, true, "sm90_bf16_bf16_gemv8_w16_u2_bk", graph::NodeGrid::follows_m},
                      Case{cudaStreamCaptureModeGlobal, false, "sm90_bf16_bf16_gemv16_w4_u4_bk"}),
    [](const auto& info) {
      const Case& c = info.param;
      std::string name = c.mode == cudaStreamCaptureModeGlobal        ? "global"
                         : c.mode == cudaStreamCaptureModeThreadLocal ? "thread_local"
                                                                      : "relaxed";
      if (c.foreign) name += "_foreign";
      if (!c.kernel.empty()) name += "_" + c.kernel.substr(15, c.kernel.size() - 18);
      if (c.grid == graph::NodeGrid::follows_m) name += "_grid_follows_m";
      return name;
    });

// The recorded grid: fixed at the CTAs of max_m (NodeGrid::max_m), recorded at a smaller M, and
// kept through updates; or the tiles of the recorded M (follows_m). Read back from the graph. N
// is wide enough (100 tiles of 128 columns) that M = 1 does not get the spread co-resident grid
// of launches with few tiles (kSpreadUnitsRatio).
TEST(GraphGemmNodeGrid, FixedAtMaxMOrFollowingM) {
  GRAPHGEMM_REQUIRE_HOPPER();
  constexpr std::int64_t kWideN = 100 * 128, kSmallK = 64;
  DeviceBuffer a(kMaxM * kSmallK * 2), b(kWideN * kSmallK * 2), d(kMaxM * kWideN * 2);
  support::fill_random(a.get(), DType::bf16, kMaxM * kSmallK, 1);
  support::fill_random(b.get(), DType::bf16, kWideN * kSmallK, 2);
  SUPPORT_CUDA(cudaDeviceSynchronize());
  auto args_at = [&](std::int64_t m) {
    GemmArgs g;
    g.a = MatrixView::row_major(a.get(), DType::bf16, m, kSmallK);
    g.b = MatrixView::transposed_weight(b.get(), DType::bf16, kWideN, kSmallK);
    g.d = MatrixView::row_major(d.get(), DType::bf16, m, kWideN);
    return g;
  };
  Stream stream;
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(args_at(kMaxM), sm90_options("sm90_bf16_bf16_64x128x64_s8_c1x1_bk")).ok());
  auto recorded_grid = [&](std::int64_t m, graph::NodeGrid grid) {
    graph::Capture cap;
    EXPECT_TRUE(cap.begin(stream.s).ok());
    graph::GemmNode node;
    const Status rec = graph::record_gemm(plan, args_at(m), {}, stream.s, node, {kMaxM, grid});
    EXPECT_TRUE(rec.ok()) << rec.to_string();
    cudaKernelNodeParams kp{};
    SUPPORT_CUDA(cudaGraphKernelNodeGetParams(node.kernel_node(), &kp));
    EXPECT_TRUE(cap.end().ok());
    return kp.gridDim.x;
  };
  const unsigned at_max = recorded_grid(kMaxM, graph::NodeGrid::follows_m);  // 300 tiles: the co-resident CTAs
  EXPECT_EQ(recorded_grid(1, graph::NodeGrid::follows_m), 100u);             // 100 tiles
  EXPECT_GT(at_max, 100u);
  EXPECT_EQ(recorded_grid(1, graph::NodeGrid::max_m), at_max);
  EXPECT_EQ(recorded_grid(kMaxM, graph::NodeGrid::max_m), at_max);
}

TEST(GraphGemmNodeErrors, RefusedUpdatesLeaveTheGraphAsItWas) {
  GRAPHGEMM_REQUIRE_HOPPER();
  Pool pool;
  Stream stream;
  const Choice recorded;
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(make_args(pool, recorded), sm90_options("")).ok());
  Eager eager(kernel_name(plan));

  auto record = [&](graph::GemmNode& node, graph::GraphExec& exec) {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s).ok());
    const Status rec = graph::record_gemm(plan, make_args(pool, recorded), {}, stream.s, node, {kMaxM});
    ASSERT_TRUE(rec.ok()) << rec.to_string();
    ASSERT_TRUE(cap.end().ok());
    ASSERT_TRUE(exec.instantiate(cap).ok());
  };
  graph::GemmNode node, other_node;
  graph::GraphExec exec, other_exec;
  record(node, exec);
  record(other_node, other_exec);

  Choice good;
  good.m = 77;
  good.a = 1;
  good.d = 1;
  const GemmArgs good_args = make_args(pool, good);
  ASSERT_TRUE(node.update(exec, good_args).ok());
  const std::vector<unsigned char> expected = eager.run(make_args(pool, good), stream.s);
  ASSERT_EQ(replay(pool, good_args, exec, stream.s), expected);

  auto refused = [&](const Status& s, const std::string& fragment, const char* what) {
    EXPECT_FALSE(s.ok()) << what;
    EXPECT_NE(s.message().find(fragment), std::string::npos) << what << ": " << s.message();
    EXPECT_EQ(replay(pool, good_args, exec, stream.s), expected) << what << " changed the graph";
  };

  Choice too_big = good;
  too_big.m = kMaxM + 1;
  refused(node.update(exec, make_args(pool, too_big)), "larger than max_m", "M > max_m");

  GemmArgs other_n = good_args;
  other_n.b = MatrixView::transposed_weight(pool.b[0].get(), DType::bf16, kN - 8, kK);
  other_n.d.cols = kN - 8;
  other_n.c->cols = kN - 8;
  other_n.bias->size = kN - 8;
  other_n.scale_b->size = kN - 8;
  refused(node.update(exec, other_n), "N is", "N differs");

  GemmArgs misaligned = good_args;
  misaligned.a.data = static_cast<const char*>(misaligned.a.data) + 2;
  refused(node.update(exec, misaligned), "16-byte aligned", "misaligned A");

  GemmArgs zero_m = make_args(pool, Choice{0});
  refused(node.update(exec, zero_m), "at least one row", "M = 0");

  GemmArgs fp32_bias = good_args;
  fp32_bias.bias->dtype = DType::fp32;
  refused(node.update(exec, fp32_bias), "bias's dtype", "bias dtype differs");

  refused(other_node.update(exec, good_args), "another graph", "a handle of another graph");

  // After the refusals the node still takes a good update (another M, B and D).
  Choice next = good;
  next.m = 33;
  next.b = 1;
  next.d = 0;
  const GemmArgs next_args = make_args(pool, next);
  ASSERT_TRUE(node.update(exec, next_args).ok());
  ASSERT_EQ(replay(pool, next_args, exec, stream.s), eager.run(make_args(pool, next), stream.s));

  // Re-instantiation makes the old handle stale; the new handle works.
  graph::GemmNode new_node;
  {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s).ok());
    ASSERT_TRUE(graph::record_gemm(plan, make_args(pool, recorded), {}, stream.s, new_node, {kMaxM}).ok());
    ASSERT_TRUE(cap.end().ok());
    ASSERT_TRUE(exec.instantiate(cap).ok());
  }
  ASSERT_TRUE(new_node.update(exec, good_args).ok());
  ASSERT_EQ(replay(pool, good_args, exec, stream.s), expected);
  refused(node.update(exec, make_args(pool, recorded)), "stale", "a stale handle");

  // Outside a capture, record_gemm refuses.
  graph::GemmNode loose;
  const Status s = graph::record_gemm(plan, make_args(pool, recorded), {}, stream.s, loose, {kMaxM});
  EXPECT_NE(s.message().find("needs a capturing stream"), std::string::npos) << s.to_string();
}

TEST(GraphGemmNodeErrors, CublasLtPlansAreRecordedButNotUpdatable) {
  GRAPHGEMM_REQUIRE_GPU();
  Pool pool;
  Stream stream;
  Choice ch;
  ch.m = 64;
  GemmArgs args = make_args(pool, ch);
  args.scale_a.reset();  // cuBLASLt applies scales to fp8 inputs only
  args.scale_b.reset();
  GemmPlan plan;
  const Status init = plan.initialize(args, {Backend::cublaslt});
  ASSERT_TRUE(init.ok()) << init.to_string();
  DeviceBuffer ws(plan.workspace_size(args));
  graph::GemmNode node;
  graph::GraphExec exec;
  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s).ok());
  const Status rec = graph::record_gemm(plan, args, {ws.get(), ws.bytes()}, stream.s, node);
  ASSERT_TRUE(rec.ok()) << rec.to_string();
  ASSERT_TRUE(cap.end().ok());
  ASSERT_TRUE(exec.instantiate(cap).ok());
  EXPECT_TRUE(node.recorded());
  EXPECT_FALSE(node.updatable());
  const Status s = node.update(exec, args);
  EXPECT_EQ(s.code(), StatusCode::not_supported);
  EXPECT_NE(s.message().find("recapture"), std::string::npos) << s.message();
  // The graph still runs the GEMM as recorded, like an eager run.
  support::fill_poison(pool.d[0].get(), DType::bf16, kMaxM * kN, stream.s);
  ASSERT_TRUE(plan.run(args, {ws.get(), ws.bytes()}, stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  const std::vector<unsigned char> eager = support::download(args.d);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_EQ(support::download(args.d), eager);
}

// A chain of GEMM nodes (each layer's output is the next layer's A) recorded from plans with
// programmatic_launch: a node that follows a kernel node takes a programmatic edge (it may start
// while that kernel finishes), the first one (after a memset) keeps a full edge; without the
// option every edge is full. After random updates of M and the input, every replay equals serial
// eager runs of the same kernel bit for bit.
TEST(GraphGemmNodeChain, ProgrammaticEdgesFollowKernelNodesAndMatchEagerBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  constexpr std::int64_t kH = 384, kMax = 200;
  constexpr int kLayers = 4;
  Stream stream;
  DeviceBuffer x[2], w[kLayers], act[kLayers], scratch(64);
  for (int i = 0; i < 2; ++i) {
    x[i] = DeviceBuffer(kMax * kH * 2);
    support::fill_random(x[i].get(), DType::bf16, kMax * kH, 700 + i);
  }
  for (int l = 0; l < kLayers; ++l) {
    w[l] = DeviceBuffer(kH * kH * 2);
    act[l] = DeviceBuffer(kMax * kH * 2);
    support::fill_random(w[l].get(), DType::bf16, kH * kH, 710 + l, 1.0f / 16.0f);
  }
  SUPPORT_CUDA(cudaDeviceSynchronize());
  auto layer = [&](int l, std::int64_t m, int input) {
    GemmArgs g;
    g.a = MatrixView::row_major(l == 0 ? x[input].get() : act[l - 1].get(), DType::bf16, m, kH);
    g.b = MatrixView::transposed_weight(w[l].get(), DType::bf16, kH, kH);
    g.d = MatrixView::row_major(act[l].get(), DType::bf16, m, kH);
    return g;
  };

  for (const char* kernel : {"", "sm90_bf16_bf16_128x256x64_s4_c2x1_bk", "sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk",
                             "sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk"}) {
    for (bool pdl : {false, true}) {
      SCOPED_TRACE(std::string("kernel '") + kernel + "', programmatic_launch " + (pdl ? "on" : "off"));
      GemmOptions o = sm90_options(kernel);
      o.programmatic_launch = pdl ? ProgrammaticLaunch::on : ProgrammaticLaunch::off;
      GemmPlan plan;
      const Status init = plan.initialize(layer(0, kMax, 0), o);
      ASSERT_TRUE(init.ok()) << init.to_string();
      Eager eager(kernel_name(plan));  // serial launches, no programmatic launch

      graph::Capture cap;
      ASSERT_TRUE(cap.begin(stream.s).ok());
      SUPPORT_CUDA(cudaMemsetAsync(scratch.get(), 0, 64, stream.s));  // a non-kernel node before the chain
      std::vector<graph::GemmNode> nodes(kLayers);
      for (int l = 0; l < kLayers; ++l) {
        const Status rec = graph::record_gemm(plan, layer(l, kMax, 0), {}, stream.s, nodes[l], {kMax});
        ASSERT_TRUE(rec.ok()) << rec.to_string();
        ASSERT_TRUE(nodes[l].updatable()) << nodes[l].why_fixed();
      }
      ASSERT_TRUE(cap.end().ok());
      for (int l = 0; l < kLayers; ++l) {
        cudaGraphNode_t dep = nullptr;
        cudaGraphEdgeData edge{};
        size_t count = 1;
        SUPPORT_CUDA(cudaGraphNodeGetDependencies(nodes[l].kernel_node(), &dep, &edge, &count));
        ASSERT_EQ(count, 1u);
        const bool programmatic = edge.type == cudaGraphDependencyTypeProgrammatic;
        EXPECT_EQ(programmatic, pdl && l > 0) << "layer " << l;
        if (programmatic) EXPECT_EQ(edge.from_port, cudaGraphKernelNodePortProgrammatic) << "layer " << l;
        if (l > 0) EXPECT_EQ(dep, nodes[l - 1].kernel_node()) << "layer " << l;
      }
      graph::GraphExec exec;
      ASSERT_TRUE(exec.instantiate(cap).ok());

      std::mt19937 rng(99);
      for (int it = 0; it < 12; ++it) {
        const std::int64_t m = it == 0 ? 1 : it == 1 ? kMax : std::uniform_int_distribution<std::int64_t>(1, kMax)(rng);
        const int input = it % 2;
        SCOPED_TRACE("update " + std::to_string(it) + ": M = " + std::to_string(m));
        for (int l = 0; l < kLayers; ++l) {
          const Status s = nodes[l].update(exec, layer(l, m, input));
          ASSERT_TRUE(s.ok()) << s.to_string();
        }
        for (auto& a : act) support::fill_poison(a.get(), DType::bf16, kMax * kH, stream.s);
        ASSERT_TRUE(exec.launch(stream.s).ok());
        SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
        std::vector<std::vector<unsigned char>> replayed;
        for (int l = 0; l < kLayers; ++l) replayed.push_back(support::download(layer(l, m, input).d));
        for (auto& a : act) support::fill_poison(a.get(), DType::bf16, kMax * kH, stream.s);
        for (int l = 0; l < kLayers; ++l)
          ASSERT_EQ(replayed[l], eager.run(layer(l, m, input), stream.s)) << "layer " << l << " differs from eager";
      }
    }
  }
}
