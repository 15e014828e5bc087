// graphgemm's ping-pong Hopper kernels ("_pp": two consumer warpgroups own alternate tiles and take
// turns on the tensor cores) through GemmPlan, forced by name: every instance on ragged shapes,
// every epilogue, both B layouts, every dtype pair, many tiles per CTA (the turn-taking across
// tiles), graph capture; split-K requests refused with a reason, automatic ones run unsplit.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gemm_check.hpp"

using namespace graphgemm;
using graphgemm::testing::capture_run;
using graphgemm::testing::b_layout_suffix;
using graphgemm::testing::check_case;
using graphgemm::testing::sm90_kernel_name;
using support::GemmOperands;
using support::GemmSpec;

namespace {

// (128x112: B stored N x K only, b_k_major_only; 7 stages with one staging buffer a warpgroup.)
constexpr const char* kTiles[] = {"128x128x64_s6_c1x1_pp", "128x128x64_s6_c2x1_pp", "64x256x64_s4_c1x1_pp",
                                  "128x112x64_s7_c1x1_pp", "128x112x64_s7_c2x1_pp"};

GemmOptions pp_options(const GemmSpec& spec, const std::string& tile) {
  GemmOptions o;
  o.backend = Backend::sm90;
  o.sm90_kernel = sm90_kernel_name(spec, tile + b_layout_suffix(spec.b_layout));
  return o;
}

void expect_kernel(const GemmPlan& plan, const GemmOptions& o) {
  const std::string d = plan.describe();
  EXPECT_NE(d.find(o.sm90_kernel + ", split-K none x1"), std::string::npos) << d;
}

}  // namespace

TEST(Sm90Pingpong, EveryInstanceOnRaggedShapes) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // One tile, partial tiles in M and N (N tails without a TMA store), K below / at / above the
  // stage count in k-blocks, several tiles per CTA (odd and even counts).
  const std::int64_t shapes[][3] = {{1, 1, 1},       {7, 33, 17},       {64, 256, 64},   {127, 259, 67},
                                    {129, 257, 130}, {255, 513, 384},   {333, 1000, 1032}, {1000, 1000, 1000},
                                    {2049, 1031, 200}, {4096, 4104, 64}};
  std::uint64_t seed = 1;
  for (const char* tile : kTiles)
    for (DType in : {DType::bf16, DType::fp16})
      for (DType out : {in, DType::fp32})
        for (Layout b_layout : {Layout::col_major, Layout::row_major})
          for (const auto& s : shapes) {
            if (b_layout == Layout::row_major && graphgemm::testing::b_k_major_only(tile)) continue;
            GemmSpec spec{s[0], s[1], s[2], in, out};
            spec.b_layout = b_layout;
            spec.ld_multiple = 8;
            spec.ld_pad = seed % 2 ? 8 : 0;
            if (seed % 3 == 0) { spec.with_bias = true; spec.with_c = true; spec.beta = 0.5f; }
            check_case(spec, pp_options(spec, tile), seed++);
          }
}

TEST(Sm90Pingpong, Epilogues) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 100;
  for (const char* tile : kTiles)
    for (DType out : {DType::bf16, DType::fp16, DType::fp32})
      for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{1, 264, 72}, {127, 259, 67}, {700, 1300, 1024}})
        for (int variant = 0; variant < 4; ++variant) {
          GemmSpec spec{s[0], s[1], s[2], out == DType::fp16 ? DType::fp16 : DType::bf16, out};
          spec.ld_multiple = 8;
          if (variant == 0) { spec.with_c = true; spec.alpha = 0.75f; spec.beta = -1.25f; }
          if (variant == 1) spec.with_bias = true;
          if (variant == 2) { spec.scale_a = 2; spec.scale_b = 2; }
          if (variant == 3) { spec.with_c = true; spec.beta = 1.0f; spec.with_bias = true; spec.scale_a = 2; spec.scale_b = 2; spec.alpha = 2.0f; }
          check_case(spec, pp_options(spec, tile), seed++);
        }
}

TEST(Sm90Pingpong, SplitKIsRefusedOrNotUsed) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{128, 256, 4096, DType::bf16, DType::bf16};
  spec.ld_multiple = 8;
  GemmOperands ops(spec, 300);
  for (const char* tile : kTiles) {
    GemmPlan plan;
    for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel, SplitKMode::automatic}) {
      GemmOptions o = pp_options(spec, tile);
      o.split_k_mode = mode;
      o.split_k_slices = mode == SplitKMode::automatic ? 4 : 0;  // automatic with slices > 1: a parallel request
      const Status s = plan.initialize(ops.args(), o);
      EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
      EXPECT_NE(s.message().find("without split-K"), std::string::npos) << s.message();
    }
    // automatic with slices 0 (the default): runs the kernel unsplit, no workspace.
    const GemmOptions o = pp_options(spec, tile);
    ASSERT_TRUE(plan.initialize(ops.args(), o).ok());
    EXPECT_EQ(plan.workspace_size(ops.args()), 0u);
    expect_kernel(plan, o);
    check_case(spec, o, 301);
  }
}

TEST(Sm90Pingpong, CapturedReplayIsBitwiseEqual) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{1000, 1544, 520};
  spec.ld_multiple = 8;
  spec.with_c = true;
  spec.beta = 0.5f;
  spec.with_bias = true;
  for (const char* tile : kTiles) {
    GemmOperands ops(spec, 400);
    GemmPlan plan;
    const GemmOptions o = pp_options(spec, tile);
    ASSERT_TRUE(plan.initialize(ops.args(), o).ok());
    cudaStream_t stream;
    SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    ASSERT_TRUE(plan.run(ops.args(), {}, stream).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    const auto eager = support::download(ops.args().d);
    for (int rep = 0; rep < 3; ++rep) {  // run to run: the schedule has no order-dependent sums
      ops.poison_output(stream);
      cudaGraphExec_t exec = nullptr;
      const Status s = capture_run(plan, ops.args(), {}, stream, cudaStreamCaptureModeGlobal, exec);
      ASSERT_TRUE(s.ok()) << s.to_string();
      SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
      SUPPORT_CUDA(cudaStreamSynchronize(stream));
      EXPECT_EQ(support::download(ops.args().d), eager) << tile << ", replay " << rep;
      SUPPORT_CUDA(cudaGraphExecDestroy(exec));
    }
    SUPPORT_CUDA(cudaStreamDestroy(stream));
  }
}
