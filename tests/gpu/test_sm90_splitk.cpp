// Split-K on graphgemm's Hopper kernels: every mode against the fp64 reference, determinism,
// CUDA graph capture and replay, workspace errors, and the automatic heuristic's choices.
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "gemm_check.hpp"

using namespace graphgemm;
using graphgemm::testing::capture;
using graphgemm::testing::capture_graph;
using graphgemm::testing::check_case;
using graphgemm::testing::expect_replays_equal;
using graphgemm::testing::b_k_major_only;
using graphgemm::testing::b_layout_suffix;
using graphgemm::testing::seeded_spec;
using graphgemm::testing::set_epilogue_variant;
using graphgemm::testing::sm90_kernel_name;
using graphgemm::testing::GraphPtr;
using support::GemmOperands;
using support::GemmSpec;

namespace {


GemmOptions split_options(SplitKMode mode, int slices, const std::string& kernel = {}, int cluster = 0) {
  GemmOptions o;
  o.backend = Backend::sm90;
  o.split_k_mode = mode;
  o.split_k_slices = slices;
  o.sm90_kernel = kernel;
  o.split_k_cluster = cluster;
  // The sweep asks for up to 16 parallel slices of a 1000 x 1000 fp32 partial (64 MB): allow it.
  o.max_workspace_bytes = std::size_t{256} << 20;
  return o;
}

std::string expect_split(const GemmPlan& plan, SplitKMode mode, int slices) {
  const std::string d = plan.describe();
  const std::string want = std::string("split-K ") + to_string(mode) + " x" + std::to_string(slices);
  EXPECT_NE(d.find(want), std::string::npos) << d << "\nexpected: " << want;
  return d;
}

// Runs `plan` on `ops` eagerly on `stream` (output poisoned first) and returns D's bytes.
std::vector<unsigned char> run_once(const GemmPlan& plan, GemmOperands& ops, const support::DeviceBuffer& ws,
                                    cudaStream_t stream) {
  ops.poison_output(stream);
  const Status s = plan.run(ops.args(), {ws.get(), ws.bytes()}, stream);
  EXPECT_TRUE(s.ok()) << s.to_string();
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  return support::download(ops.args().d);
}

// What a captured graph holds: kernel, memset and other nodes, the cluster dims (x) of its last
// kernel node (0 without any), and how many of its edges are programmatic (from a kernel node's
// programmatic port: the dependent kernel may start before the first one completes).
struct GraphNodes {
  int kernels = 0, memsets = 0, others = 0;
  int cluster_x = 0;
  int programmatic_edges = 0;
};
GraphNodes graph_nodes(cudaGraph_t graph) {
  std::size_t count = 0;
  SUPPORT_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  SUPPORT_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  GraphNodes g;
  for (cudaGraphNode_t n : nodes) {
    cudaGraphNodeType type;
    SUPPORT_CUDA(cudaGraphNodeGetType(n, &type));
    if (type == cudaGraphNodeTypeKernel) {
      ++g.kernels;
      cudaLaunchAttributeValue v{};
      SUPPORT_CUDA(cudaGraphKernelNodeGetAttribute(n, cudaLaunchAttributeClusterDimension, &v));
      g.cluster_x = static_cast<int>(v.clusterDim.x);
    } else if (type == cudaGraphNodeTypeMemset) {
      ++g.memsets;
    } else {
      ++g.others;
    }
  }
  std::size_t edges = 0;
  SUPPORT_CUDA(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  std::vector<cudaGraphNode_t> from(edges), to(edges);
  std::vector<cudaGraphEdgeData> data(edges);
  SUPPORT_CUDA(cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &edges));
  for (const cudaGraphEdgeData& e : data)
    if (e.type == cudaGraphDependencyTypeProgrammatic && e.from_port == cudaGraphKernelNodePortProgrammatic)
      ++g.programmatic_edges;
  return g;
}

}  // namespace

TEST(Sm90SplitK, ModesSlicesShapes) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Non-multiples of every tile, M = 1, K not a multiple of 64 nor of the slice count, slices up
  // to the number of k-blocks, a shape with more units than SMs (several waves).
  const std::int64_t shapes[][3] = {{1, 8, 520},     {1, 300, 4096},   {7, 33, 1000},    {127, 259, 1031},
                                    {128, 128, 16384}, {129, 257, 777}, {200, 136, 4096}, {1000, 1000, 1000}};
  std::uint64_t seed = 1;
  for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel, SplitKMode::automatic})
    for (int slices : {2, 3, 5, 16})
      for (const auto& s : shapes) {
        if (slices > (s[2] + 63) / 64) continue;
        GemmSpec spec{s[0], s[1], s[2], DType::bf16, seed % 3 == 0 ? DType::fp32 : DType::bf16};
        spec.b_layout = seed % 2 ? Layout::col_major : Layout::row_major;
        spec.ld_multiple = 8;
        spec.ld_pad = seed % 4 == 1 ? 8 : 0;
        const GemmOptions o = split_options(mode, slices);
        check_case(spec, o, seed++);
        GemmOperands ops(spec, 1);
        GemmPlan plan;
        ASSERT_TRUE(plan.initialize(ops.args(), o).ok());
        expect_split(plan, mode == SplitKMode::automatic ? SplitKMode::parallel : mode, slices);
      }
}

TEST(Sm90SplitK, MaximumSlicesAndHeuristicSlices) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 50;
  for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel}) {
    GemmSpec spec{64, 192, 640, DType::bf16, DType::bf16};  // 10 k-blocks: 10 slices of 64
    spec.ld_multiple = 8;
    check_case(spec, split_options(mode, 10), seed++);
    GemmSpec one_block{33, 70, 63, DType::fp16, DType::fp16};  // one k-block: slices 0 -> no split
    one_block.ld_multiple = 8;
    check_case(one_block, split_options(mode, 0), seed++);
    GemmSpec skinny{16, 1024, 8192, DType::bf16, DType::bf16};
    skinny.ld_multiple = 8;
    check_case(skinny, split_options(mode, 0), seed++);  // heuristic slice count
  }
}

TEST(Sm90SplitK, EveryEpilogueAndOutputType) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 100;
  for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel})
    for (DType in : {DType::bf16, DType::fp16})
      for (DType out : {in, DType::fp32})
        for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{1, 264, 1000}, {127, 259, 2000}, {300, 520, 1024}})
          for (int variant = 0; variant < 4; ++variant) {
            GemmSpec spec{s[0], s[1], s[2], in, out};
            spec.ld_multiple = 8;
            if (variant == 0) { spec.with_c = true; spec.alpha = 0.75f; spec.beta = -1.25f; }
            if (variant == 1) spec.with_bias = true;
            if (variant == 2) { spec.scale_a = 2; spec.scale_b = 2; }
            if (variant == 3) { spec.with_c = true; spec.beta = 1.0f; spec.with_bias = true; spec.scale_a = 2; spec.scale_b = 2; spec.alpha = 2.0f; }
            check_case(spec, split_options(mode, 4 + variant), seed++);
          }
}

TEST(Sm90SplitK, EveryTileConfiguration) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Clusters (2x1, 1x2), two consumer warpgroups, both B layouts, edge tiles in both dimensions.
  std::uint64_t seed = 200;
  for (const char* tile : {"128x256x64_s4_c2x1", "128x256x64_s4_c1x1", "128x192x64_s4_c1x1", "128x176x64_s5_c1x1", "128x136x64_s5_c1x1", "128x128x64_s6_c1x1",
                           "128x128x64_s6_c1x2", "64x128x64_s8_c1x1", "128x96x64_s6_c1x1"})
    for (bool k_major : {true, false})
      for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel}) {
        if (!k_major && b_k_major_only(tile)) continue;
        GemmSpec spec{333, 1000, 1032, DType::bf16, DType::bf16};
        spec.b_layout = k_major ? Layout::col_major : Layout::row_major;
        spec.ld_multiple = 8;
        spec.with_bias = true;
        spec.with_c = true;
        spec.beta = 0.5f;
        const std::string name = std::string("sm90_bf16_bf16_") + tile + (k_major ? "_bk" : "_bn");
        check_case(spec, split_options(mode, 7, name), seed++);
      }
}

// Parallel split-K summed within thread-block clusters (GemmOptions::split_k_cluster): every
// cluster size, wholly within clusters (no workspace) and then through the workspace, both
// cluster-capable tiles, both B layouts, ragged shapes (rows of a rank's share past M, columns past
// N), every epilogue and output type; fp64 reference, poisoned output, no writes outside M x N.
TEST(Sm90SplitK, ClusterSumsEveryClusterSizeShapeAndEpilogue) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 250;
  // At most 12 clusters (tiles x groups): an H100 holds 15 clusters of 8 such CTAs.
  const std::int64_t shapes[][3] = {{1, 300, 4096}, {7, 33, 1000}, {127, 259, 2000}, {128, 128, 16384}, {130, 136, 4096}};
  for (const char* tile : {"64x128x64_s8_c1x1", "128x128x64_s6_c1x1"})
    for (int cluster : {2, 4, 8})
      for (int groups : {1, 2})
        for (const auto& sh : shapes) {
          const int slices = cluster * groups;
          if (slices > (sh[2] + 63) / 64) continue;
          GemmSpec spec = seeded_spec(sh[0], sh[1], sh[2], seed);
          spec.b_layout = seed % 2 ? Layout::col_major : Layout::row_major;
          const std::string name = sm90_kernel_name(spec, std::string(tile) + b_layout_suffix(spec.b_layout));
          const GemmOptions o = split_options(SplitKMode::parallel, slices, name, cluster);
          check_case(spec, o, seed++);
          GemmOperands ops(spec, 1);
          GemmPlan plan;
          ASSERT_TRUE(plan.initialize(ops.args(), o).ok());
          const std::string d = expect_split(plan, SplitKMode::parallel, slices);
          EXPECT_NE(d.find("summed in clusters of " + std::to_string(cluster)), std::string::npos) << d;
          EXPECT_EQ(plan.workspace_size(ops.args()) == 0, groups == 1) << d;
        }
}

// Swap-AB kernels (tokens x weight rows, decode-sized M) split K into slices summed within one
// cluster by pushing each warp's fragments to the CTA that owns them (st.async): every swap tile,
// every cluster size it takes (8 only with 128 weight rows), M within one token tile and beyond,
// ragged N and K (slices of unequal k-block counts), every epilogue and output type, both B
// layouts; fp64 reference, poisoned output, no writes outside M x N.
TEST(Sm90SplitK, SwapABClusterSumsEveryTileClusterSizeAndEpilogue) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 3000;
  const std::int64_t shapes[][3] = {{1, 2112, 7168}, {5, 300, 1000}, {16, 1000, 4100}, {29, 136, 520}, {40, 264, 777}};
  for (const char* tile : {"16x64x64_s20", "16x128x64_s12", "32x64x64_s18", "32x128x64_s10", "16x64x256_s5", "32x64x256_s4"})
    for (int cluster : {2, 4, 8})
      for (const auto& sh : shapes)
        for (Layout b_layout : {Layout::col_major, Layout::row_major}) {
        const bool wide = std::string(tile).find("x128x") != std::string::npos;
        const int block_k = std::string(tile).find("x256_") != std::string::npos ? 256 : 64;
        if (cluster > (sh[2] + block_k - 1) / block_k) continue;  // a slice has at least one k-block
        if (cluster == 8 && !wide) continue;  // 4 consumer warps: at most 4 owners
        if (sh[0] == 1 && cluster == 8) continue;  // 17 tiles x 8: more clusters of 8 than fit
        if (sh[0] == 1 && !wide && cluster == 4) continue;  // 33 tiles x 4 = 132 CTAs: 33 clusters of 4 may not fit
        GemmSpec spec = seeded_spec(sh[0], sh[1], sh[2], seed);
        spec.b_layout = b_layout;
        const std::string name = sm90_kernel_name(spec, std::string(tile) + "_c1x1_sw" + b_layout_suffix(b_layout));
        const GemmOptions o = split_options(SplitKMode::parallel, cluster, name, cluster);
        SCOPED_TRACE(name + " " + spec.to_string() + " cluster " + std::to_string(cluster));
        check_case(spec, o, seed++);
        GemmOperands ops(spec, 1);
        GemmPlan plan;
        ASSERT_TRUE(plan.initialize(ops.args(), o).ok());
        const std::string d = expect_split(plan, SplitKMode::parallel, cluster);
        EXPECT_NE(d.find("summed in clusters of " + std::to_string(cluster)), std::string::npos) << d;
        EXPECT_EQ(plan.workspace_size(ops.args()), 0u) << d;
      }
}

// ... and fp32 outputs bitwise over 20 runs and through a captured graph (a single kernel node: no
// workspace, no zeroing kernel), for a 4-warp tile in clusters of 4 and an 8-warp tile in clusters of 8.
// (The sanitizer set runs this one: the sweep above takes minutes under racecheck.)
TEST(Sm90SplitK, SwapABClusterSumsBitwiseAndOneGraphNode) {
  GRAPHGEMM_REQUIRE_HOPPER();
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (auto [tile, cluster] : std::vector<std::pair<std::string, int>>{{"16x64x64_s20", 4}, {"32x128x64_s10", 8}}) {
    GemmSpec spec{13, 1000, 6000, DType::bf16, DType::fp32};  // fp32 out: every summation bit shows
    spec.b_layout = Layout::col_major;
    spec.ld_multiple = 8;
    spec.with_bias = true;
    GemmOperands ops(spec, 3100);
    GemmPlan plan;
    const std::string name = "sm90_bf16_f32_" + tile + "_c1x1_sw_bk";
    ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::parallel, cluster, name, cluster)).ok()) << name;
    SCOPED_TRACE(plan.describe());
    const support::DeviceBuffer ws;  // none needed
    const auto first = run_once(plan, ops, ws, stream);
    for (int i = 1; i < 20; ++i) {
      ASSERT_EQ(run_once(plan, ops, ws, stream), first) << "run " << i << " differs from run 0";
    }
    const support::Comparison cmp = ops.check();
    EXPECT_LT(cmp.rel_error, GemmOperands::tolerance(spec.in, spec.out));
    GraphPtr graph(nullptr, &cudaGraphDestroy);
    ASSERT_TRUE(capture_graph(stream, cudaStreamCaptureModeGlobal, [&](cudaStream_t s) {
                  return plan.run(ops.args(), {}, s);
                }, graph).ok());
    const GraphNodes g = graph_nodes(graph.get());
    EXPECT_EQ(g.kernels, 1) << "one kernel node";
    EXPECT_EQ(g.memsets + g.others, 0) << "no memset, nothing else";
    EXPECT_EQ(g.cluster_x, cluster) << "cluster dims of the kernel node";
    cudaGraphExec_t exec = nullptr;
    SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph.get(), 0));
    expect_replays_equal(exec, ops, stream, first);
    SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

// A split summed wholly within clusters is one kernel: captured, the graph has a single kernel
// node (cluster dims 8). With slots in the workspace, a 1-CTA kernel node zeroing its counters
// comes first, and the GEMM kernel node follows it through a programmatic edge; no memset node.
TEST(Sm90SplitK, ClusterSumWithoutWorkspaceIsOneKernelNode) {
  GRAPHGEMM_REQUIRE_HOPPER();
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GemmSpec spec{128, 128, 16384, DType::bf16, DType::bf16};
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 1400);
  for (auto [slices, cluster, zeroing] : std::vector<std::tuple<int, int, int>>{{8, 8, 0}, {32, 8, 1}, {8, 1, 1}}) {
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::parallel, slices, "sm90_bf16_bf16_64x128x64_s8_c1x1_bk", cluster)).ok());
    SCOPED_TRACE(plan.describe());
    EXPECT_EQ(plan.workspace_size(ops.args()) == 0, zeroing == 0);
    support::DeviceBuffer ws(plan.workspace_size(ops.args()));
    GraphPtr graph(nullptr, &cudaGraphDestroy);
    const Status st = capture_graph(
        stream, cudaStreamCaptureModeGlobal, [&](cudaStream_t s) { return plan.run(ops.args(), {ws.get(), ws.bytes()}, s); },
        graph);
    ASSERT_TRUE(st.ok()) << st.to_string();
    const GraphNodes g = graph_nodes(graph.get());
    EXPECT_EQ(g.kernels, 1 + zeroing);
    EXPECT_EQ(g.programmatic_edges, zeroing) << "the GEMM kernel node after the zeroing kernel node";
    EXPECT_EQ(g.memsets + g.others, 0);
    if (cluster > 1) EXPECT_EQ(g.cluster_x, cluster) << "cluster dims of the kernel node";
    else EXPECT_LE(g.cluster_x, 1) << "cluster dims of the kernel node";
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

// What cannot be summed in clusters says why (and nothing else is silently chosen instead).
TEST(Sm90SplitK, ClusterSumRequestsThatCannotBeHonouredAreExplained) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{128, 256, 4096, DType::bf16, DType::bf16};
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 1300);
  GemmPlan plan;
  // A 256-wide tile: no cluster sums.
  Status s = plan.initialize(ops.args(), split_options(SplitKMode::parallel, 8, "sm90_bf16_bf16_128x256x64_s4_c1x1_bk", 8));
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("no kernel can sum 8 slices in clusters of 8"), std::string::npos) << s.message();
  // Serial slices are chained, not summed.
  s = plan.initialize(ops.args(), split_options(SplitKMode::serial, 8, {}, 8));
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("split_k_cluster = 8 sums parallel split-K slices"), std::string::npos) << s.message();
  // Not a multiple, not a cluster size.
  s = plan.initialize(ops.args(), split_options(SplitKMode::parallel, 12, {}, 8));
  EXPECT_NE(s.message().find("split_k_slices = 12 is not a multiple of split_k_cluster = 8"), std::string::npos) << s.message();
  s = plan.initialize(ops.args(), split_options(SplitKMode::parallel, 12, {}, 3));
  EXPECT_NE(s.message().find("split_k_cluster must be 0"), std::string::npos) << s.message();
  // More clusters than can be co-resident (each cluster holds one unit): 64 tiles x 64 slices / 8.
  GemmSpec big{1024, 1024, 8192, DType::bf16, DType::bf16};
  big.ld_multiple = 8;
  GemmOperands big_ops(big, 1301);
  s = plan.initialize(big_ops.args(), split_options(SplitKMode::parallel, 64, {}, 8));
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("clusters all co-resident"), std::string::npos) << s.message();
  // cuBLASLt has no such thing.
  GemmOptions lt = split_options(SplitKMode::automatic, 0, {}, 4);
  lt.backend = Backend::cublaslt;
  s = plan.initialize(ops.args(), lt);
  EXPECT_EQ(s.code(), StatusCode::not_supported) << s.to_string();
}

TEST(Sm90SplitK, BitwiseDeterministicOver100Runs) {
  GRAPHGEMM_REQUIRE_HOPPER();
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Parallel: through the workspace only (cluster 1), summed in clusters of 4 then through the
  // workspace (4 slots), and wholly within clusters of 8 (16 slices of 2 tiles: no, 8 slices).
  for (auto [mode, slices, cluster] : std::vector<std::tuple<SplitKMode, int, int>>{
           {SplitKMode::serial, 16, 0}, {SplitKMode::parallel, 16, 1}, {SplitKMode::parallel, 16, 4}, {SplitKMode::parallel, 8, 8}}) {
    GemmSpec spec{128, 384, 8192, DType::bf16, DType::fp32};  // fp32 out: every summation bit shows
    spec.ld_multiple = 8;
    spec.with_bias = true;
    GemmOperands ops(spec, 700);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), split_options(mode, slices, {}, cluster)).ok());
    SCOPED_TRACE(plan.describe());
    support::DeviceBuffer ws(plan.workspace_size(ops.args()));
    const auto first = run_once(plan, ops, ws, stream);
    for (int i = 1; i < 100; ++i) {
      // No poisoning in between: a race that reads stale partials would still show as a change.
      const Status s = plan.run(ops.args(), {ws.get(), ws.bytes()}, stream);
      ASSERT_TRUE(s.ok()) << s.to_string();
      SUPPORT_CUDA(cudaStreamSynchronize(stream));
      ASSERT_EQ(support::download(ops.args().d), first) << to_string(mode) << ": run " << i << " differs from run 0";
    }
    const support::Comparison cmp = ops.check();
    EXPECT_LT(cmp.rel_error, GemmOperands::tolerance(spec.in, spec.out));
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

TEST(Sm90SplitK, CapturedAndReplayedEqualsEager) {
  GRAPHGEMM_REQUIRE_HOPPER();
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (auto [mode, slices, cluster] : std::vector<std::tuple<SplitKMode, int, int>>{{SplitKMode::none, 0, 0},
                                                                                   {SplitKMode::serial, 8, 0},
                                                                                   {SplitKMode::parallel, 8, 1},
                                                                                   {SplitKMode::parallel, 8, 2},
                                                                                   {SplitKMode::parallel, 4, 4},
                                                                                   {SplitKMode::automatic, 0, 0}}) {
    GemmSpec spec{100, 520, 6000, DType::bf16, DType::bf16};
    spec.ld_multiple = 8;
    spec.with_c = true;
    spec.beta = 0.5f;
    spec.with_bias = true;
    GemmOperands ops(spec, 800);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), split_options(mode, slices, {}, cluster)).ok());
    SCOPED_TRACE(plan.describe());
    support::DeviceBuffer ws(plan.workspace_size(ops.args()));
    const auto eager = run_once(plan, ops, ws, stream);
    for (cudaStreamCaptureMode cm : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
      ops.poison_output(stream);
      // Dirty the workspace: run() must zero what it needs inside the graph.
      if (ws.bytes() > 0) SUPPORT_CUDA(cudaMemsetAsync(ws.get(), 0x5A, ws.bytes(), stream));
      cudaGraphExec_t exec = nullptr;
      const Status st = capture(stream, cm, [&](cudaStream_t s) -> Status {
        if (Status s1 = plan.run(ops.args(), {ws.get(), ws.bytes()}, s); !s1.ok()) return s1;
        return plan.run(ops.args(), {ws.get(), ws.bytes()}, s);  // twice in one graph
      }, exec);
      ASSERT_TRUE(st.ok()) << st.to_string();
      SCOPED_TRACE(std::string(to_string(mode)) + ", capture mode " + std::to_string(cm));
      expect_replays_equal(exec, ops, stream, eager);
      SUPPORT_CUDA(cudaGraphExecDestroy(exec));
    }
    const support::Comparison cmp = ops.check();
    EXPECT_LT(cmp.rel_error, GemmOperands::tolerance(spec.in, spec.out)) << plan.describe();
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

// A chain of GEMMs sharing one workspace, each reading the previous output as A, with nothing
// between them on the stream, every plan with programmatic launch on: split layers (parallel,
// serial, stream-K) zero the counters with a kernel that starts programmatically after the
// previous layer and waits for it before writing, and start their GEMM kernel programmatically
// after that one; unsplit layers launch programmatically after a split GEMM. Eagerly and as a
// graph, the chain must equal the same launches with a stream synchronization after each, bit for
// bit: no kernel may read an unfinished output or counters that the next zeroing kernel clears.
TEST(Sm90SplitK, ChainSharingOneWorkspaceMatchesSynchronizedLaunchesBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  constexpr std::int64_t kM = 72, kH = 1536;
  struct Layer {
    SplitKMode mode;
    int slices;
  };
  const Layer layers[] = {{SplitKMode::parallel, 6}, {SplitKMode::none, 0},   {SplitKMode::serial, 4},
                          {SplitKMode::stream_k, 0}, {SplitKMode::parallel, 12}, {SplitKMode::none, 0}};
  constexpr int kLayers = static_cast<int>(std::size(layers));
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  support::DeviceBuffer x(kM * kH * 2);
  std::vector<support::DeviceBuffer> w, act;
  std::uint64_t seed = 4200;
  for (int l = 0; l < kLayers; ++l) {
    w.emplace_back(kH * kH * 2);
    act.emplace_back(kM * kH * 2);
    support::fill_random(w.back().get(), DType::bf16, kH * kH, seed++, 1.0f / 32.0f);
  }
  support::fill_random(x.get(), DType::bf16, kM * kH, seed++);
  SUPPORT_CUDA(cudaDeviceSynchronize());  // the fills ran on the legacy stream
  auto args = [&](int l) {
    GemmArgs g;
    g.a = MatrixView::row_major(l == 0 ? x.get() : act[l - 1].get(), DType::bf16, kM, kH);
    g.b = MatrixView::transposed_weight(w[l].get(), DType::bf16, kH, kH);
    g.d = MatrixView::row_major(act[l].get(), DType::bf16, kM, kH);
    return g;
  };
  std::vector<GemmPlan> plans(kLayers);
  std::size_t ws_bytes = 0;
  for (int l = 0; l < kLayers; ++l) {
    GemmOptions o = split_options(layers[l].mode, layers[l].slices);
    o.programmatic_launch = ProgrammaticLaunch::on;
    ASSERT_TRUE(plans[l].initialize(args(l), o).ok()) << "layer " << l;
    EXPECT_NE(plans[l].describe().find("programmatic launch"), std::string::npos) << plans[l].describe();
    if (layers[l].mode != SplitKMode::none) {
      EXPECT_NE(plans[l].describe().find("split-K"), std::string::npos) << plans[l].describe();
    }
    ws_bytes = std::max(ws_bytes, plans[l].workspace_size(args(l)));
  }
  const support::DeviceBuffer ws(ws_bytes);
  auto poison = [&] {
    SUPPORT_CUDA(cudaMemsetAsync(ws.get(), 0x5A, ws.bytes(), stream));
    for (auto& a : act) support::fill_poison(a.get(), DType::bf16, kM * kH, stream);
  };
  auto chain = [&](cudaStream_t s, bool sync_each) -> Status {
    for (int l = 0; l < kLayers; ++l) {
      if (Status st = plans[l].run(args(l), {ws.get(), ws.bytes()}, s); !st.ok()) return st;
      if (sync_each) SUPPORT_CUDA(cudaStreamSynchronize(s));
    }
    return {};
  };
  auto outputs = [&] {
    std::vector<std::vector<unsigned char>> out;
    for (auto& a : act) out.push_back(support::download(MatrixView::row_major(a.get(), DType::bf16, kM, kH)));
    return out;
  };
  poison();
  ASSERT_TRUE(chain(stream, true).ok());
  const auto reference = outputs();
  for (int rep = 0; rep < 3; ++rep) {
    poison();
    ASSERT_TRUE(chain(stream, false).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(outputs(), reference) << "eager chain, repetition " << rep;
  }
  cudaGraphExec_t exec = nullptr;
  const Status st = capture(stream, cudaStreamCaptureModeGlobal, [&](cudaStream_t s) { return chain(s, false); }, exec);
  ASSERT_TRUE(st.ok()) << st.to_string();
  for (int rep = 0; rep < 3; ++rep) {
    poison();
    SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(outputs(), reference) << "graph, replay " << rep;
  }
  SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  graphgemm::testing::expect_filled_bf16(reference.back());
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

TEST(Sm90SplitK, WorkspaceTooSmallIsRejectedAndNothingIsWritten) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{64, 256, 4096, DType::bf16, DType::bf16};
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 900);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::parallel, 8, {}, /*cluster=*/1)).ok());
  const std::size_t need = plan.workspace_size(ops.args());
  ASSERT_GT(need, 0u);
  support::DeviceBuffer ws(need);
  ops.poison_output();
  SUPPORT_CUDA(cudaDeviceSynchronize());
  const auto before = support::download(ops.args().d);
  const Status s = plan.run(ops.args(), {ws.get(), need - 1}, nullptr);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("the workspace has " + std::to_string(need - 1) + " bytes but this plan needs " + std::to_string(need)),
            std::string::npos) << s.message();
  const Status null_ws = plan.run(ops.args(), {nullptr, need}, nullptr);
  EXPECT_EQ(null_ws.code(), StatusCode::invalid_argument) << null_ws.to_string();
  SUPPORT_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(support::download(ops.args().d), before) << "D changed although run() reported an error";
}

TEST(Sm90SplitK, ImpossibleRequestsAreExplained) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{64, 256, 300, DType::bf16, DType::bf16};  // 5 k-blocks
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 1000);
  GemmPlan plan;
  Status s = plan.initialize(ops.args(), split_options(SplitKMode::serial, 6));
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("split_k_slices = 6 exceeds the 5 k-blocks of K = 300"), std::string::npos) << s.message();

  GemmOptions tiny = split_options(SplitKMode::parallel, 4, {}, /*cluster=*/1);
  tiny.max_workspace_bytes = 1024;
  s = plan.initialize(ops.args(), tiny);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  EXPECT_NE(s.message().find("above max_workspace_bytes = 1024"), std::string::npos) << s.message();

  GemmOptions lt = split_options(SplitKMode::parallel, 4);
  lt.backend = Backend::cublaslt;
  s = plan.initialize(ops.args(), lt);
  EXPECT_EQ(s.code(), StatusCode::not_supported) << s.to_string();
  EXPECT_NE(s.message().find("cannot be honoured exactly"), std::string::npos) << s.message();

  // slices = 1 with an explicit mode: honoured as no split, and no workspace.
  ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::serial, 1)).ok());
  EXPECT_EQ(plan.workspace_size(ops.args()), 0u);
  expect_split(plan, SplitKMode::none, 1);
}

TEST(Sm90SplitK, AutomaticSplitsSkinnyKHeavyAndNotLargeProblems) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Skinny, K-heavy: split. Large or K-light: no split (and exactly today's kernel choice).
  // Decode-sized M with a wide weight: the swap-AB kernel, split in two and summed in clusters of 2
  // where twice its CTAs fit and K is long (session 9: 1x2112x7168 18.1 -> 12.9 us, 16x4096x14336
  // 45.6 -> 41.6), unsplit otherwise (16x4096x4096: 32 k-blocks per slice, no gain; 16x10240x8192:
  // 160 tiles, no room; 16x7168x2048: 112 tiles, no room). At most 8 tokens: gemv, never split
  // (session 39: 1x2112x7168 0.885x the time of the split swap-AB kernel); at 9..16 tokens where
  // swap-AB would leave SMs idle, the 16-token gemv, never split (session 40: 16x4096x4096).
  struct Case { std::int64_t m, n, k; bool split; const char* kernel; };  // kernel: a part of the name
  for (const Case& c : {Case{128, 128, 16384, true, "x"}, Case{64, 64, 65536, true, "x"}, Case{16, 4096, 14336, true, "_sw_"},
                        Case{16, 2112, 7168, true, "_sw_"}, Case{16, 7168, 2048, false, "_sw_"}, Case{16, 10240, 8192, false, "_sw_"},
                        Case{16, 4096, 4096, false, "_gemv16"},
                        Case{1, 2112, 7168, false, "_gemv"}, Case{1, 4096, 4096, false, "_gemv"},
                        Case{4096, 4096, 4096, false, "x"}, Case{2048, 2048, 256, false, "x"}}) {
    GemmSpec spec{c.m, c.n, c.k, DType::bf16, DType::bf16};
    spec.ld_multiple = 8;
    GemmOperands ops(spec, 1100);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), {Backend::sm90}).ok());
    const std::string d = plan.describe();
    const std::string name = d.substr(0, d.find(','));  // "sm90: <kernel>"
    EXPECT_EQ(d.find("split-K none") == std::string::npos, c.split) << spec.to_string() << ": " << d;
    EXPECT_NE(name.find(c.kernel), std::string::npos) << spec.to_string() << ": " << d;
    if (std::string(c.kernel) == "x") EXPECT_TRUE(name.find("_sw_") == std::string::npos && name.find("_gemv") == std::string::npos) << d;
    // A split needs a workspace unless its slices are all summed within one cluster.
    EXPECT_EQ(plan.workspace_size(ops.args()) > 0, c.split && d.find("(no workspace)") == std::string::npos) << d;
    if (c.m * c.n * c.k <= (std::int64_t{1} << 31)) check_case(spec, GemmOptions{Backend::sm90}, 1200);
  }
}

// One wave that leaves SMs idle on a long K (session 57, kSerialWave* / kStreamKWave*, B N x K):
// serial split-K in 2 slices of 128x176 where 84 tiles of 128x128 keep 64% of the SMs busy (380 x
// 3584 x 18944, ragged M), stream-K on 128x256 where 100 of its tiles keep 76% (636 x 5120 x 13824);
// neither where the grid is 85% full (448 x 3584 x 18944) nor with B K x N; correct where taken
// (every epilogue variant across the cases, poisoned output, fp64 reference).
TEST(Sm90SplitK, AutomaticSplitsAOneWaveGridThatLeavesSmsIdle) {
  GRAPHGEMM_REQUIRE_HOPPER();
  struct Case { std::int64_t m, n, k; Layout b; const char* split; };
  std::uint64_t seed = 1300;
  for (const Case& c : {Case{380, 3584, 18944, Layout::col_major, "split-K serial x2"},
                        Case{636, 5120, 13824, Layout::col_major, "split-K stream_k"},
                        Case{448, 3584, 18944, Layout::col_major, "split-K none"},
                        Case{380, 3584, 18944, Layout::row_major, "split-K none"}}) {
    GemmSpec spec{c.m, c.n, c.k, DType::bf16, DType::bf16};
    spec.b_layout = c.b;
    spec.ld_multiple = 8;
    set_epilogue_variant(spec, static_cast<int>(seed % 4));
    GemmOperands ops(spec, seed);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), {Backend::sm90}).ok());
    const std::string d = plan.describe();
    EXPECT_NE(d.find(c.split), std::string::npos) << spec.to_string() << ": " << d;
    if (std::string(c.split) != "split-K none") check_case(spec, GemmOptions{Backend::sm90}, seed);
    ++seed;
  }
}

// Stream-K: whole waves of whole tiles, then the last, partial wave's k-blocks cut into one equal
// range per worker (a CTA, or a cluster; StreamKPartition). Shapes where the ranges start and end
// mid-tile, where one tile spans dozens of CTAs (1-2 tiles, 256 k-blocks), where the tile count is
// just above / below the SM count, with whole waves before a shared last one, where fewer tiles
// than CTAs have several rows (the ranges grouped over tile columns, session 55), and ragged edges;
// cooperative tiles with and without clusters, both B layouts, every epilogue; against the fp64
// reference with poisoned outputs.
TEST(Sm90SplitK, StreamKShapesTilesAndEpilogues) {
  GRAPHGEMM_REQUIRE_HOPPER();
  const std::int64_t shapes[][3] = {{1, 8, 520},      {128, 128, 16384}, {1024, 2112, 7168}, {129, 257, 777},
                                    {1000, 1000, 1000}, {300, 4100, 1500}, {7, 33, 1000},
                                    {2065, 2309, 1000},   // whole waves of every tile, then a shared last one
                                    {384, 1536, 4096}};   // fewer tiles than CTAs, 3 tile rows: grouped ranges
  std::uint64_t seed = 1300;
  // With clusters (a cluster's CTAs share one range): 2x1 with B multicast, 1x2 with A multicast,
  // and the 128x112 pair tile (B N x K only).
  for (const char* tile : {"64x128x64_s8_c1x1", "128x128x64_s6_c1x1", "128x192x64_s4_c1x1", "128x256x64_s4_c1x1",
                           "128x256x64_s4_c2x1", "128x128x64_s6_c1x2", "128x112x64_s7_c2x1"})
    for (const auto& s : shapes) {
      GemmSpec spec{s[0], s[1], s[2], DType::bf16, seed % 3 == 0 ? DType::fp32 : DType::bf16};
      const bool k_major = seed % 2 == 0 || std::string(tile).find("128x112") == 0;
      spec.b_layout = k_major ? Layout::col_major : Layout::row_major;
      spec.ld_multiple = 8;
      const int variant = static_cast<int>(seed % 4);
      if (variant == 1) { spec.with_c = true; spec.alpha = 0.75f; spec.beta = -1.25f; }
      if (variant == 2) spec.with_bias = true;
      if (variant == 3) { spec.with_bias = true; spec.scale_a = 2; spec.scale_b = 2; }
      const std::string name = std::string("sm90_bf16_") + (spec.out == DType::fp32 ? "f32_" : "bf16_") + tile +
                               (k_major ? "_bk" : "_bn");
      const GemmOptions o = split_options(SplitKMode::stream_k, 0, name);
      check_case(spec, o, seed++);
    }
  // Without a forced kernel: the heuristic picks among the eligible tiles.
  GemmSpec spec{1024, 2112, 7168, DType::fp16, DType::fp16};
  spec.ld_multiple = 8;
  check_case(spec, split_options(SplitKMode::stream_k, 0), seed++);
  GemmOperands ops(spec, 1);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::stream_k, 0)).ok());
  EXPECT_NE(plan.describe().find("split-K stream_k"), std::string::npos) << plan.describe();
}

TEST(Sm90SplitK, StreamKBitwiseDeterministicCapturedAndReplayed) {
  GRAPHGEMM_REQUIRE_HOPPER();
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GemmSpec spec{200, 2112, 7168, DType::bf16, DType::fp32};  // fp32 out: every summation bit shows
  spec.ld_multiple = 8;
  spec.with_bias = true;
  GemmOperands ops(spec, 1400);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(ops.args(), split_options(SplitKMode::stream_k, 0)).ok());
  support::DeviceBuffer ws(plan.workspace_size(ops.args()));
  ASSERT_GT(ws.bytes(), 0u);
  const auto first = run_once(plan, ops, ws, stream);
  for (int i = 1; i < 100; ++i) {
    const Status s = plan.run(ops.args(), {ws.get(), ws.bytes()}, stream);
    ASSERT_TRUE(s.ok()) << s.to_string();
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    ASSERT_EQ(support::download(ops.args().d), first) << "stream-K: run " << i << " differs from run 0";
  }
  const support::Comparison cmp = ops.check();
  EXPECT_LT(cmp.rel_error, GemmOperands::tolerance(spec.in, spec.out)) << plan.describe();
  // Captured (workspace dirtied first: run() must zero the flags inside the graph) and replayed.
  ops.poison_output(stream);
  SUPPORT_CUDA(cudaMemsetAsync(ws.get(), 0x5A, ws.bytes(), stream));
  cudaGraphExec_t exec = nullptr;
  const Status s = graphgemm::testing::capture_run(plan, ops.args(), {ws.get(), ws.bytes()}, stream,
                                                   cudaStreamCaptureModeGlobal, exec);
  ASSERT_TRUE(s.ok()) << s.to_string();
  expect_replays_equal(exec, ops, stream, first);
  SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

TEST(Sm90SplitK, StreamKRefusesPingpongKernels) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{256, 512, 1024, DType::bf16, DType::bf16};
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 1500);
  {
    GemmPlan plan;
    const Status s = plan.initialize(ops.args(), split_options(SplitKMode::stream_k, 0, "sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk"));
    EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
    EXPECT_NE(s.message().find("cannot run stream-K: it needs a cooperative kernel"), std::string::npos) << s.message();
  }
  GemmOptions lt = split_options(SplitKMode::stream_k, 0);
  lt.backend = Backend::cublaslt;
  GemmPlan plan;
  const Status s = plan.initialize(ops.args(), lt);
  EXPECT_EQ(s.code(), StatusCode::not_supported) << s.to_string();
}
