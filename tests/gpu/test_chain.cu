// GEMM chains (graphgemm/chain.hpp, graph/chain_node.hpp): one launch of L layers compared bit
// for bit with the layers run one by one through GemmPlan on the same tile configuration (same
// arithmetic, so any difference is a chain defect: a layer read before the one before had stored
// its rows, a wrong table, a stale parameter); outputs poisoned before every run and checked not
// to be written past row M; shapes whose widths are not tile multiples; graph nodes updated with
// new M, pointers, scales, alpha and weights, inside our capture and one begun by someone else;
// and the errors.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_test.hpp"
#include "graphgemm/chain.hpp"
#include "graphgemm/graph/graph.hpp"

using namespace graphgemm;
using support::DeviceBuffer;

namespace {

constexpr std::int64_t kMaxM = 256;

using graphgemm::testing::Stream;

// A chain's operands: K_0 = widths[0], layer l maps widths[l] -> widths[l + 1]; two of every
// input, weight and scale buffer (updates switch between them).
struct Operands {
  DType dt;
  std::vector<std::int64_t> widths;
  DeviceBuffer x[2], y[2], scale[2];
  std::vector<DeviceBuffer> w[2], bias;
  Operands(DType dtype, std::vector<std::int64_t> ws, std::uint64_t seed) : dt(dtype), widths(std::move(ws)) {
    const int layers = static_cast<int>(widths.size()) - 1;
    for (int i = 0; i < 2; ++i) {
      x[i] = DeviceBuffer(kMaxM * widths[0] * 2);
      y[i] = DeviceBuffer(kMaxM * widths.back() * 2);
      scale[i] = DeviceBuffer(kMaxM * 4);
      support::fill_random(x[i].get(), dt, kMaxM * widths[0], seed + 10 * i + 1);
      support::fill_random(scale[i].get(), DType::fp32, kMaxM, seed + 10 * i + 2, 0.5f);
      for (int l = 0; l < layers; ++l) {
        w[i].emplace_back(widths[l + 1] * widths[l] * 2);
        // ~unit-variance activations through the layers: stddev 1 / sqrt(K)
        support::fill_random(w[i].back().get(), dt, widths[l + 1] * widths[l], seed + 100 * (l + 1) + i,
                             static_cast<float>(1.0 / std::sqrt(static_cast<double>(widths[l]))));
      }
    }
    for (int l = 0; l < layers; ++l) {
      bias.emplace_back(widths[l + 1] * 4);
      support::fill_random(bias.back().get(), DType::fp32, widths[l + 1], seed + 1000 + l, 0.1f);
    }
    SUPPORT_CUDA(cudaDeviceSynchronize());
  }
  int layers() const { return static_cast<int>(widths.size()) - 1; }
};

// What one run uses: M, which x / y / scale / weights, alpha.
struct Choice {
  std::int64_t m = kMaxM;
  int x = 0, y = 0, scale = 0, w = 0;
  bool with_scale = true, with_bias = true;
  float alpha = 1.0f;
};

std::vector<ChainLayer> make_layers(const Operands& o, const Choice& c) {
  std::vector<ChainLayer> layers;
  for (int l = 0; l < o.layers(); ++l) {
    ChainLayer L;
    L.w = MatrixView::transposed_weight(o.w[c.w][l].get(), o.dt, o.widths[l + 1], o.widths[l]);
    if (c.with_bias) L.bias = VectorView{o.bias[l].get(), DType::fp32, o.widths[l + 1]};
    if (c.with_scale) L.scale_a = VectorView{o.scale[c.scale].get(), DType::fp32, c.m};
    L.alpha = l == 0 ? c.alpha : 1.0f;
    layers.push_back(L);
  }
  return layers;
}

ChainArgs make_args(const Operands& o, const Choice& c, const std::vector<ChainLayer>& layers, const void* y = nullptr) {
  return ChainArgs{MatrixView::row_major(o.x[c.x].get(), o.dt, c.m, o.widths[0]),
                   MatrixView::row_major(y ? y : o.y[c.y].get(), o.dt, c.m, o.widths.back()), layers};
}

// The chain's layers one by one through GemmPlan with `kernel` (the chain's tile), intermediate
// results in `act`; returns the last layer's M x N output.
std::vector<unsigned char> layer_by_layer(const Operands& o, const Choice& c, const std::string& kernel, cudaStream_t s) {
  const std::vector<ChainLayer> layers = make_layers(o, c);
  std::vector<DeviceBuffer> act;
  const void* in = o.x[c.x].get();
  for (int l = 0; l < o.layers(); ++l) {
    act.emplace_back(c.m * o.widths[l + 1] * 2);
    GemmArgs g;
    g.a = MatrixView::row_major(in, o.dt, c.m, o.widths[l]);
    g.b = layers[l].w;
    g.d = MatrixView::row_major(act.back().get(), o.dt, c.m, o.widths[l + 1]);
    g.bias = layers[l].bias;
    g.scale_a = layers[l].scale_a;
    g.alpha = layers[l].alpha;
    GemmOptions opt;
    opt.backend = Backend::sm90;
    opt.sm90_kernel = kernel;
    opt.split_k_mode = SplitKMode::none;
    GemmPlan plan;
    if (const Status st = plan.initialize(g, opt); !st.ok()) throw std::runtime_error(st.to_string());
    if (const Status st = plan.run(g, {}, s); !st.ok()) throw std::runtime_error(st.to_string());
    in = act.back().get();
  }
  SUPPORT_CUDA(cudaStreamSynchronize(s));
  return support::download(MatrixView::row_major(act.back().get(), o.dt, c.m, o.widths.back()));
}

// The chain kernel a chain runs, from describe(): "... kernel <name> (...".
std::string chain_kernel(const GemmChain& chain) {
  const std::string d = chain.describe();
  const std::size_t at = d.find("kernel ") + 7;
  return d.substr(at, d.find(' ', at) - at);
}

// Rows M..kMaxM-1 of y[i] still hold the poison (nothing written past row M).
bool untouched_past_m(const Operands& o, int i, std::int64_t m) {
  const std::int64_t n = o.widths.back();
  if (m >= kMaxM) return true;
  const std::vector<unsigned char> rest =
      support::download(MatrixView::row_major(static_cast<const char*>(o.y[i].get()) + m * n * 2, o.dt, kMaxM - m, n));
  DeviceBuffer poison(static_cast<std::size_t>((kMaxM - m) * n * 2));
  support::fill_poison(poison.get(), o.dt, (kMaxM - m) * n);
  SUPPORT_CUDA(cudaDeviceSynchronize());
  return rest == support::download(MatrixView::row_major(poison.get(), o.dt, kMaxM - m, n));
}

struct EagerCase {
  DType dt;
  std::vector<std::int64_t> widths;
  std::string kernel;  // "" = the chain's own choice
};

class ChainEager : public ::testing::TestWithParam<EagerCase> {};

TEST_P(ChainEager, BitwiseEqualToLayerByLayerAndNothingPastM) {
  GRAPHGEMM_REQUIRE_HOPPER();
  const EagerCase& tc = GetParam();
  Stream stream;
  Operands o(tc.dt, tc.widths, 7);
  Choice c;
  const std::vector<ChainLayer> layers = make_layers(o, c);
  GemmChain chain;
  ChainOptions opt;
  opt.max_m = kMaxM;
  opt.sm90_kernel = tc.kernel;
  ASSERT_TRUE(chain.initialize(make_args(o, c, layers), opt).ok());
  const std::string kernel = chain_kernel(chain);
  if (!tc.kernel.empty()) EXPECT_EQ(kernel, tc.kernel);
  DeviceBuffer ws(chain.workspace_size());
  // Garbage in the workspace: the setup kernel must make it what the chain needs on every run.
  support::fill_random(ws.get(), DType::fp32, static_cast<std::int64_t>(chain.workspace_size() / 4), 99);
  for (const std::int64_t m : {std::int64_t{1}, std::int64_t{16}, std::int64_t{37}, std::int64_t{64}, std::int64_t{130}, kMaxM}) {
    for (const bool with_scale : {true, false}) {
      Choice ch;
      ch.m = m;
      ch.with_scale = with_scale;
      ch.with_bias = !with_scale || m % 2 == 1;
      ch.alpha = 0.75f;
      const std::vector<ChainLayer> ls = make_layers(o, ch);
      support::fill_poison(o.y[0].get(), tc.dt, kMaxM * tc.widths.back(), stream.s);
      ASSERT_TRUE(chain.run(make_args(o, ch, ls), {ws.get(), ws.bytes()}, stream.s).ok());
      SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
      const std::vector<unsigned char> got =
          support::download(MatrixView::row_major(o.y[0].get(), tc.dt, m, tc.widths.back()));
      EXPECT_TRUE(got == layer_by_layer(o, ch, chain.kernel_for(m), stream.s))
          << kernel << " (" << chain.kernel_for(m) << ") M = " << m << " scale " << with_scale;
      EXPECT_TRUE(untouched_past_m(o, 0, m)) << kernel << " M = " << m << ": rows past M written";
    }
  }
}

std::vector<EagerCase> eager_cases() {
  std::vector<EagerCase> cases;
  const std::vector<std::vector<std::int64_t>> shapes = {
      {512, 512, 512, 512, 512},  // the MLP of the graph benchmark
      {200, 264, 136, 72},        // widths that are no tile multiple
      {1024, 2048, 1024},         // wide: many tiles per layer
      {64, 8, 24},                // narrower than one tile
      {2048, 4096, 2048},         // automatic: two tiles (64x64 up to M = 128, 64x128 above)
  };
  const char* tiles[] = {"64x64x64_s13", "64x128x64_s8", "128x128x64_s6", "64x64x64_s13+64x128x64_s8"};
  for (const DType dt : {DType::bf16, DType::fp16}) {
    const std::string t = dt == DType::bf16 ? "bf16" : "f16";
    for (const auto& w : shapes) {
      cases.push_back({dt, w, ""});
      for (const char* tile : tiles) cases.push_back({dt, w, "sm90_" + t + "_" + t + "_" + tile + "_c1x1_bk"});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Chains, ChainEager, ::testing::ValuesIn(eager_cases()),
                         [](const ::testing::TestParamInfo<EagerCase>& info) {
                           std::string s = info.param.dt == DType::bf16 ? "bf16" : "fp16";
                           for (auto w : info.param.widths) s += "_" + std::to_string(w);
                           const std::string& k = info.param.kernel;
                           const std::size_t at = k.find('_', 10) + 1;  // past "sm90_<in>_<out>_"
                           s += k.empty() ? std::string("_auto") : "_" + k.substr(at, k.find("_c1x1") - at);
                           std::string name;
                           for (const char ch : s) name += ch == 'x' ? std::string("X") : ch == '+' ? std::string("_then_") : std::string(1, ch);
                           return name;
                         });

// The hand-over between layers: a tile of layer l + 1 may load the rows of its M block only
// once every tile of that M block of layer l is stored. The workspace (activations included) is
// poisoned with NaN before every run, so any rows read before they were stored show in the
// output; runs back to back alternate two inputs, on every tile, at M that fill one or several M
// blocks, over widths of many tiles a layer.
TEST(ChainHandOver, NoRowsReadBeforeTheLayerBeforeStoredThem) {
  GRAPHGEMM_REQUIRE_HOPPER();
  Stream stream;
  Operands o(DType::bf16, {2048, 4096, 1024, 4096, 512}, 23);
  const char* kernels[] = {"", "sm90_bf16_bf16_64x64x64_s13_c1x1_bk", "sm90_bf16_bf16_64x128x64_s8_c1x1_bk",
                           "sm90_bf16_bf16_128x128x64_s6_c1x1_bk", "sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk"};
  for (const char* kernel : kernels) {
    Choice c;
    const std::vector<ChainLayer> layers = make_layers(o, c);
    GemmChain chain;
    ChainOptions opt;
    opt.max_m = kMaxM;
    opt.sm90_kernel = kernel;
    ASSERT_TRUE(chain.initialize(make_args(o, c, layers), opt).ok()) << kernel;
    DeviceBuffer ws(chain.workspace_size());
    for (const std::int64_t m : {std::int64_t{1}, std::int64_t{64}, std::int64_t{200}}) {
      std::vector<unsigned char> want[2];
      for (int x = 0; x < 2; ++x) {
        Choice ch;
        ch.m = m;
        ch.x = x;
        want[x] = layer_by_layer(o, ch, chain.kernel_for(m), stream.s);
      }
      int wrong = 0;
      for (int run = 0; run < 16; ++run) {
        Choice ch;
        ch.m = m;
        ch.x = run % 2;
        const std::vector<ChainLayer> ls = make_layers(o, ch);
        SUPPORT_CUDA(cudaMemsetAsync(ws.get(), 0xff, ws.bytes(), stream.s));
        support::fill_poison(o.y[0].get(), DType::bf16, kMaxM * o.widths.back(), stream.s);
        ASSERT_TRUE(chain.run(make_args(o, ch, ls), {ws.get(), ws.bytes()}, stream.s).ok());
        SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
        if (support::download(make_args(o, ch, ls).y) != want[ch.x]) ++wrong;
      }
      EXPECT_EQ(wrong, 0) << chain_kernel(chain) << " (" << chain.kernel_for(m) << ") M = " << m << ": " << wrong
                          << " of 16 runs differ from the layers run one by one";
    }
  }
}

// A chain node in a graph: random updates (M, x, y, scales, alpha, the weights), every replay bit
// for bit equal to an eager chain.run of the same arguments; in our capture and in one begun by
// someone else (updated through the raw executable graph); with the automatic tile and with the
// two-tile kernel, whose tile changes with M inside the one node (at M = 128 here).
class ChainNodeUpdates : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(ChainNodeUpdates, ReplaysEqualEagerRuns) {
  GRAPHGEMM_REQUIRE_HOPPER();
  const auto [foreign, two_tiles] = GetParam();
  Stream stream;
  Operands o(DType::bf16, {512, 512, 264, 512, 512}, 11);
  Choice c0;
  c0.m = 100;
  std::vector<ChainLayer> layers = make_layers(o, c0);
  GemmChain chain;
  ChainOptions opt{.max_m = kMaxM};
  if (two_tiles) opt.sm90_kernel = "sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk";
  ASSERT_TRUE(chain.initialize(make_args(o, c0, layers), opt).ok());
  if (two_tiles) {
    ASSERT_NE(chain.kernel_for(1), chain.kernel_for(kMaxM));
  }
  DeviceBuffer ws(chain.workspace_size()), ws_eager(chain.workspace_size());
  DeviceBuffer y_eager(kMaxM * 512 * 2);

  graph::ChainNode node;
  cudaGraph_t g = nullptr;
  graph::Capture cap;
  if (foreign) {
    SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  } else {
    ASSERT_TRUE(cap.begin(stream.s).ok());
  }
  ASSERT_TRUE(graph::record_chain(chain, make_args(o, c0, layers), {ws.get(), ws.bytes()}, stream.s, node).ok());
  graph::GraphExec exec;
  cudaGraphExec_t raw = nullptr;
  if (foreign) {
    SUPPORT_CUDA(cudaStreamEndCapture(stream.s, &g));
    SUPPORT_CUDA(cudaGraphInstantiate(&raw, g, 0));
  } else {
    ASSERT_TRUE(cap.end().ok());
    ASSERT_TRUE(exec.instantiate(cap).ok());
  }
  std::mt19937 rng(5);
  long long setup_updates = 0;  // every update from the first one with other than the recorded weights
  bool changed = false;
  for (int step = 0; step < 24; ++step) {
    Choice ch = c0;  // step 0: the recorded arguments, replayed without an update
    if (step > 0) {
      ch.m = std::uniform_int_distribution<std::int64_t>(1, kMaxM)(rng);
      ch.x = rng() & 1u, ch.y = rng() & 1u, ch.scale = rng() & 1u;
      ch.w = step < 8 ? 0 : static_cast<int>(rng() & 1u);
      ch.alpha = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    }
    changed = changed || ch.w != c0.w;
    if (step > 0 && changed) ++setup_updates;
    const std::vector<ChainLayer> ls = make_layers(o, ch);
    const ChainArgs args = make_args(o, ch, ls);
    if (step > 0) {
      const Status s = foreign ? node.update(raw, g, args) : node.update(exec, args);
      ASSERT_TRUE(s.ok()) << s.to_string();
    }
    for (int i = 0; i < 2; ++i) support::fill_poison(o.y[i].get(), DType::bf16, kMaxM * 512, stream.s);
    if (foreign) SUPPORT_CUDA(cudaGraphLaunch(raw, stream.s));
    else ASSERT_TRUE(exec.launch(stream.s).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    const std::vector<unsigned char> got = support::download(args.y);
    EXPECT_TRUE(untouched_past_m(o, ch.y, ch.m)) << "step " << step;
    ASSERT_TRUE(chain.run(make_args(o, ch, ls, y_eager.get()), {ws_eager.get(), ws_eager.bytes()}, stream.s).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    const std::vector<unsigned char> eager = support::download(make_args(o, ch, ls, y_eager.get()).y);
    const std::vector<unsigned char> want = layer_by_layer(o, ch, chain.kernel_for(ch.m), stream.s);
    EXPECT_TRUE(got == want) << "graph replay, step " << step << " M = " << ch.m;
    EXPECT_TRUE(eager == want) << "eager run, step " << step << " M = " << ch.m;
  }
  EXPECT_EQ(node.setup_updates(), setup_updates);
  EXPECT_GT(setup_updates, 0);
  if (foreign) {
    // A second executable graph of the same graph: its setup node holds the recorded weights
    // whatever the first one's holds. The first updated to the other weights, then the second
    // with the same arguments: it must run those weights too.
    Choice ch = c0;
    ch.m = 77;
    ch.w = 1 - c0.w;
    const std::vector<ChainLayer> ls = make_layers(o, ch);
    const ChainArgs args = make_args(o, ch, ls);
    ASSERT_TRUE(node.update(raw, g, args).ok());
    cudaGraphExec_t raw2 = nullptr;
    SUPPORT_CUDA(cudaGraphInstantiate(&raw2, g, 0));
    ASSERT_TRUE(node.update(raw2, g, args).ok());
    support::fill_poison(o.y[ch.y].get(), DType::bf16, kMaxM * 512, stream.s);
    SUPPORT_CUDA(cudaGraphLaunch(raw2, stream.s));
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    EXPECT_TRUE(support::download(args.y) == layer_by_layer(o, ch, chain.kernel_for(ch.m), stream.s))
        << "a second executable graph of the same graph";
    SUPPORT_CUDA(cudaGraphExecDestroy(raw2));
    SUPPORT_CUDA(cudaGraphExecDestroy(raw));
    SUPPORT_CUDA(cudaGraphDestroy(g));
  }
}

INSTANTIATE_TEST_SUITE_P(Captures, ChainNodeUpdates, ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>>& info) {
                           return std::string(std::get<0>(info.param) ? "foreign" : "ours") +
                                  (std::get<1>(info.param) ? "_two_tiles" : "_auto");
                         });

// Errors: each says what to do, and a refused update leaves the graph as it was.
TEST(ChainErrors, RefusedUpdatesLeaveTheGraphAsItWas) {
  GRAPHGEMM_REQUIRE_HOPPER();
  Stream stream;
  Operands o(DType::bf16, {256, 256, 256}, 3);
  Choice c;
  c.m = 50;
  const std::vector<ChainLayer> layers = make_layers(o, c);
  GemmChain chain;
  ASSERT_TRUE(chain.initialize(make_args(o, c, layers), {.max_m = 128}).ok());
  DeviceBuffer ws(chain.workspace_size());
  // A workspace too small, and none.
  const Status small = chain.run(make_args(o, c, layers), {ws.get(), chain.workspace_size() - 256}, stream.s);
  EXPECT_EQ(small.code(), StatusCode::invalid_argument);
  EXPECT_NE(small.message().find("workspace_size()"), std::string::npos) << small.message();
  EXPECT_EQ(chain.run(make_args(o, c, layers), {}, stream.s).code(), StatusCode::invalid_argument);

  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s).ok());
  graph::ChainNode node;
  ASSERT_TRUE(graph::record_chain(chain, make_args(o, c, layers), {ws.get(), ws.bytes()}, stream.s, node).ok());
  ASSERT_TRUE(cap.end().ok());
  graph::GraphExec exec;
  ASSERT_TRUE(exec.instantiate(cap).ok());
  support::fill_poison(o.y[0].get(), DType::bf16, kMaxM * 256, stream.s);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  const std::vector<unsigned char> before = support::download(make_args(o, c, layers).y);

  Choice big = c;
  big.m = 129;  // > max_m
  std::vector<ChainLayer> ls = make_layers(o, big);
  const Status too_many = node.update(exec, make_args(o, big, ls));
  EXPECT_EQ(too_many.code(), StatusCode::invalid_argument);
  EXPECT_NE(too_many.message().find("max_m"), std::string::npos) << too_many.message();
  // A misaligned x.
  ls = make_layers(o, c);
  ChainArgs bad = make_args(o, c, ls);
  bad.x.data = static_cast<const char*>(bad.x.data) + 2;
  EXPECT_EQ(node.update(exec, bad).code(), StatusCode::invalid_argument);
  // Another chain's width.
  std::vector<ChainLayer> one(ls.begin(), ls.begin() + 1);
  EXPECT_EQ(node.update(exec, ChainArgs{make_args(o, c, ls).x, MatrixView::row_major(o.y[0].get(), DType::bf16, c.m, 256), one})
                .code(),
            StatusCode::invalid_argument);
  // A handle of another graph.
  graph::GraphExec other;
  ASSERT_TRUE(cap.begin(stream.s).ok());
  graph::ChainNode node2;
  ASSERT_TRUE(graph::record_chain(chain, make_args(o, c, layers), {ws.get(), ws.bytes()}, stream.s, node2).ok());
  ASSERT_TRUE(cap.end().ok());
  ASSERT_TRUE(other.instantiate(cap).ok());
  EXPECT_FALSE(node.update(other, make_args(o, c, layers)).ok());
  // The graph still computes what it did.
  support::fill_poison(o.y[0].get(), DType::bf16, kMaxM * 256, stream.s);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_TRUE(before == support::download(make_args(o, c, layers).y));
  // M = 0 runs nothing.
  Choice none = c;
  none.m = 0;
  ls = make_layers(o, none);
  EXPECT_TRUE(chain.run(make_args(o, none, ls), {ws.get(), ws.bytes()}, stream.s).ok());
}

}  // namespace
