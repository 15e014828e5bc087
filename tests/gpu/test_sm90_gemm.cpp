// graphgemm's own Hopper kernels through GemmPlan, against an fp64 reference, outputs poisoned.
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gemm_check.hpp"
#include "kernels/sm90_gemm_instances.hpp"

using namespace graphgemm;
using graphgemm::testing::capture_run;
using graphgemm::testing::check_case;
using graphgemm::testing::b_k_major_only;
using graphgemm::testing::b_layout_suffix;
using graphgemm::testing::set_seeded_epilogue;
using graphgemm::testing::set_epilogue_variant;
using graphgemm::testing::sm90_kernel_name;
using support::GemmOperands;
using support::GemmSpec;

namespace {
// What automatic chooses for spec with options (GemmPlan::describe()).
std::string automatic_choice(const GemmSpec& spec, const GemmOptions& options, std::uint64_t seed) {
  GemmOperands ops(spec, seed);
  GemmPlan plan;
  const Status st = plan.initialize(ops.args(), options);
  EXPECT_TRUE(st.ok()) << st.to_string();
  return plan.describe();
}

// The forced B N x K tile `tile` (a name suffix after the dtypes) on each shape, every output type
// and epilogue variant, with each split mode of `modes`: check_case (fp64 reference, poisoned
// output, no writes outside M x N), one seed a case from `seed`.
template <std::size_t N>
void check_bk_tile_every_epilogue(const char* tile, const std::int64_t (&shapes)[N][3], std::uint64_t& seed,
                                  std::initializer_list<SplitKMode> modes = {GemmOptions{}.split_k_mode}) {
  for (const auto& sh : shapes)
    for (DType out : {DType::bf16, DType::fp16, DType::fp32})
      for (int variant = 0; variant < 4; ++variant)
        for (SplitKMode mode : modes) {
          const DType in = out == DType::fp16 ? DType::fp16 : DType::bf16;
          GemmSpec spec{sh[0], sh[1], sh[2], in, out};
          spec.b_layout = Layout::col_major;  // B stored N x K: the only layout of these tiles
          spec.ld_multiple = 8;
          set_epilogue_variant(spec, variant);
          GemmOptions options;
          options.backend = Backend::sm90;
          options.sm90_kernel = sm90_kernel_name(spec, tile);
          options.split_k_mode = mode;
          SCOPED_TRACE(std::string(tile) + " split mode " + std::to_string(static_cast<int>(mode)));
          check_case(spec, options, seed++);
        }
}
}  // namespace

TEST(Sm90, ShapeSweep) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Non-multiples of every tile size, single rows and columns, one-tile and many-tile shapes.
  const std::int64_t shapes[][3] = {{1, 1, 1},      {1, 8, 8},       {1, 4096, 4096}, {7, 33, 17},
                                    {64, 64, 64},   {127, 259, 67},  {129, 257, 65}, {200, 136, 4096},
                                    {255, 513, 130}, {1000, 1000, 1000}, {4096, 8, 64}, {3000, 2000, 128}};
  std::uint64_t seed = 1;
  for (DType in : {DType::bf16, DType::fp16})
    for (DType out : {in, DType::fp32})
      for (Layout b_layout : {Layout::col_major, Layout::row_major})
        for (const auto& s : shapes) {
          GemmSpec spec{s[0], s[1], s[2], in, out};
          spec.b_layout = b_layout;
          spec.ld_multiple = 8;  // TMA: 16-byte rows
          spec.ld_pad = seed % 2 ? 8 : 0;
          check_case(spec, Backend::sm90, seed++);
        }
}

TEST(Sm90, Epilogues) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 100;
  for (DType out : {DType::bf16, DType::fp32})
    for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{1, 264, 72}, {127, 259, 67}, {512, 768, 1024}})
      for (int variant = 0; variant < 4; ++variant) {
        GemmSpec spec{s[0], s[1], s[2], DType::bf16, out};
        spec.ld_multiple = 8;
        if (variant == 0) { spec.with_c = true; spec.alpha = 0.75f; spec.beta = -1.25f; }
        if (variant == 1) spec.with_bias = true;
        if (variant == 2) { spec.scale_a = 2; spec.scale_b = 2; }
        if (variant == 3) { spec.with_c = true; spec.beta = 1.0f; spec.with_bias = true; spec.scale_a = 2; spec.scale_b = 2; spec.alpha = 2.0f; }
        check_case(spec, Backend::sm90, seed++);
      }
}

TEST(Sm90, EveryKernelInstance) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Each tile configuration forced by name, on a shape that is not a multiple of any tile.
  std::uint64_t seed = 200;
  for (const char* tile : {"128x256x64_s4_c2x1", "128x256x64_s4_c1x1", "128x192x64_s4_c1x1", "128x176x64_s5_c1x1", "128x136x64_s5_c1x1",
                           "128x128x64_s6_c1x1", "128x128x64_s6_c1x2", "128x128x64_s6_c2x1", "128x112x64_s7_c2x1", "128x96x64_s6_c1x1",
                           "128x144x64_s5_c1x1", "128x80x64_s7_c1x1", "64x128x64_s8_c1x1", "128x128x64_s6_c1x1_pp",
                           "128x128x64_s6_c2x1_pp", "64x256x64_s4_c1x1_pp"})
    for (bool k_major : {true, false}) {
      if (!k_major && b_k_major_only(tile)) continue;
      GemmSpec spec{333, 1000, 1032, DType::bf16, DType::bf16};
      spec.b_layout = k_major ? Layout::col_major : Layout::row_major;
      spec.ld_multiple = 8;
      spec.with_bias = true;
      GemmOptions options;
      options.backend = Backend::sm90;
      options.sm90_kernel = std::string("sm90_bf16_bf16_") + tile + (k_major ? "_bk" : "_bn");
      check_case(spec, options, seed++);
    }
}

// Every instance fits the CTAs an SM that its KernelInfo::ctas_per_sm says, measured on the compiled
// kernel with the occupancy API: exactly for gemv, whose grids the heuristic sizes in waves of
// ctas_per_sm CTAs an SM (registers grown past its __launch_bounds__ would spill, fewer would fit
// more CTAs than the rules were measured with); one for the persistent kernels.
TEST(Sm90, EveryKernelFitsItsCtasPerSm) {
  GRAPHGEMM_REQUIRE_HOPPER();
  namespace gd = graphgemm::detail::sm90;
  int device = 0;
  SUPPORT_CUDA(cudaGetDevice(&device));
  int gemv = 0;
  for (int i = 0; i < gd::kernel_count(); ++i) {
    const gd::KernelInfo& k = gd::kernel_info(i);
    ASSERT_EQ(gd::kernel_initialize(i, device), cudaSuccess) << k.name;
    int ctas = 0;
    SUPPORT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, gd::kernel_function(i), k.threads,
                                                               static_cast<std::size_t>(k.smem_bytes)));
    if (k.schedule == kernels::sm90::Schedule::gemv) {
      ++gemv;
      EXPECT_EQ(ctas, k.ctas_per_sm) << k.name;
    } else {
      EXPECT_EQ(k.ctas_per_sm, 1) << k.name;
      EXPECT_GE(ctas, 1) << k.name;
    }
  }
  EXPECT_GT(gemv, 0);
}

// The 128x176, 128x136, 128x144, 128x112 (2x1 clusters), 128x96 and 128x80 tiles (their epilogue ends with a
// partial chunk, stored with 16-byte plain stores, not TMA): every output type and epilogue, N = 2112 (12 x 176;
// 15 x 136 + 72; 14 x 144 + 96; 22 x 96; 26 x 80 + 32),
// ragged inside a partial chunk (2100, 2103: whole units then single elements; 1096 = 8 x 136 + 8:
// one unit of a bf16 partial chunk) and inside a full chunk (1000), ragged M and K; fp64
// reference, poisoned output, no writes outside M x N.
TEST(Sm90, PartialChunkTilesEveryEpilogueAndOutputType) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 4000;
  const std::int64_t shapes[][3] = {{1024, 2112, 7168}, {300, 2100, 1000}, {129, 2103, 520}, {333, 1000, 1032}, {200, 1096, 300}};
  for (const char* tile : {"128x176x64_s5_c1x1_bk", "128x136x64_s5_c1x1_bk", "128x144x64_s5_c1x1_bk", "128x112x64_s7_c2x1_bk",
                           "128x96x64_s6_c1x1_bk", "128x80x64_s7_c1x1_bk"})
    check_bk_tile_every_epilogue(tile, shapes, seed);
}

// 128x256 in 2x2 clusters (A multicast along N, B along M; session 63, chosen by name only): cluster
// tiles of 256 x 512 cut by M and N, CTAs whose whole tile lies past M (M = 64, 129) or past N (N =
// 520, 1030, 2112), several cluster tiles a CTA (600 x 3000), unsplit and stream-K (a cluster's
// four CTAs share one k-range); every output type and epilogue, fp64 reference, poisoned output,
// no writes outside M x N.
TEST(Sm90, QuadClusterTileRaggedEveryEpilogueAndOutputType) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 4300;
  const std::int64_t shapes[][3] = {{300, 700, 1000}, {129, 2112, 520}, {1000, 1030, 264}, {64, 520, 128}, {600, 3000, 2048}};
  check_bk_tile_every_epilogue("128x256x64_s4_c2x2_bk", shapes, seed, {SplitKMode::none, SplitKMode::stream_k});
}

// Bias and scale_b at every alignment their elements allow: the epilogue loads a thread's two
// adjacent columns of them at once where the vector is aligned for it (4 bytes for bf16 / fp16, 8
// for fp32) and the chunk lies inside N, element by element otherwise. Here the vectors start one
// element past an aligned address (copies of the operands' own, so the reference follows), on a
// whole-chunk N and a ragged one, bias alone and with scale_b and C; every output type.
TEST(Sm90, EpilogueVectorsAtAnyAlignment) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 4400;
  for (const auto& sh : std::vector<std::array<std::int64_t, 3>>{{256, 512, 512}, {333, 1000, 1032}})
    for (DType out : {DType::bf16, DType::fp16, DType::fp32})
      for (bool general : {false, true})
        for (bool shifted : {false, true}) {
          GemmSpec spec{sh[0], sh[1], sh[2], out == DType::fp16 ? DType::fp16 : DType::bf16, out};
          spec.ld_multiple = 8;
          spec.with_bias = true;
          if (general) { spec.scale_b = 2; spec.with_c = true; spec.beta = 0.5f; }
          std::vector<support::DeviceBuffer> moved;
          auto shift = [&](VectorView& v) {  // the same values, one element further from alignment
            const std::size_t bytes = static_cast<std::size_t>(v.size) * size_of(v.dtype);
            moved.emplace_back(bytes + 2 * size_of(v.dtype));
            char* dst = static_cast<char*>(moved.back().get()) + size_of(v.dtype);
            SUPPORT_CUDA(cudaMemcpy(dst, v.data, bytes, cudaMemcpyDeviceToDevice));
            v.data = dst;
          };
          GemmOptions options;
          options.backend = Backend::sm90;
          check_case(spec, options, seed++, [&](support::GemmOperands& ops) {
            if (!shifted) return;
            shift(*ops.args().bias);
            if (ops.args().scale_b) shift(*ops.args().scale_b);
          });
        }
}

TEST(Sm90, SwapABKernels) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // Swap-AB (D^T = B^T A^T) tiles forced by name: decode sizes (M = 1, 16, 17, 32) and ragged
  // M / N / K across several tiles per CTA (K not a multiple of a stage's 64 or 256 columns; N not
  // a multiple of a weight box's 64 columns with B stored K x N; M past a multiple of the wide
  // tile's 256 tokens: 600, 1000), every epilogue feature, every output type, both B layouts (N x K:
  // the weights K-major; K x N: an MN-major wgmma A operand).
  std::uint64_t seed = 250;
  const std::int64_t shapes[][3] = {{1, 4096, 520},  {16, 1000, 1032}, {17, 333, 777},
                                    {32, 2112, 7168}, {333, 200, 130},  {600, 1000, 1032}, {1000, 2112, 7168}};
  for (const char* tile : {"16x128x64_s12_c1x1_sw", "16x64x64_s20_c1x1_sw", "32x128x64_s10_c1x1_sw", "32x64x64_s18_c1x1_sw",
                           "16x64x256_s5_c1x1_sw", "32x64x256_s4_c1x1_sw", "256x64x64_s5_c1x1_sw"})
    for (const auto& sh : shapes)
      for (DType out : {DType::bf16, DType::fp32})
        for (Layout b_layout : {Layout::col_major, Layout::row_major}) {
        GemmSpec spec{sh[0], sh[1], sh[2], DType::bf16, out};
        spec.b_layout = b_layout;
        spec.ld_multiple = 8;
        set_seeded_epilogue(spec, seed);  // (sm90 takes per-row / per-column scales)
        GemmOptions options;
        options.backend = Backend::sm90;
        options.sm90_kernel = sm90_kernel_name(spec, std::string(tile) + b_layout_suffix(b_layout));
        check_case(spec, options, seed++);
      }
  // fp16 in, fp16 out.
  for (Layout b_layout : {Layout::col_major, Layout::row_major}) {
    GemmSpec spec{7, 300, 200, DType::fp16, DType::fp16};
    spec.b_layout = b_layout;
    spec.ld_multiple = 8;
    GemmOptions options;
    options.backend = Backend::sm90;
    options.sm90_kernel = sm90_kernel_name(spec, std::string("16x64x64_s20_c1x1_sw") + b_layout_suffix(b_layout));
    check_case(spec, options, seed++);
    GemmSpec wide{700, 300, 200, DType::fp16, DType::fp16};
    wide.b_layout = b_layout;
    wide.ld_multiple = 8;
    options.sm90_kernel = sm90_kernel_name(wide, std::string("256x64x64_s5_c1x1_sw") + b_layout_suffix(b_layout));
    check_case(wide, options, seed++);
  }
  // Automatic takes the wide tile by its rule (deepseek_v3.a at M = 1024, B stored K x N), with
  // every epilogue feature.
  GemmSpec spec{1024, 2112, 7168, DType::bf16, DType::bf16};
  spec.b_layout = Layout::row_major;
  spec.ld_multiple = 8;
  spec.with_bias = true;
  spec.scale_a = 2;
  spec.with_c = true;
  spec.beta = 0.5f;
  GemmOptions options;
  options.backend = Backend::sm90;
  const std::string chosen = automatic_choice(spec, options, seed);
  EXPECT_NE(chosen.find("_256x64x64_s5_c1x1_sw_bn"), std::string::npos) << chosen;
  check_case(spec, options, seed++);
}

// The swap-AB token tiles (160 / 192 tokens x 128 weight rows, B stored N x K or K x N) forced by
// name: M below, at and past a token tile (1, 160, 320, 333, 600), N not a multiple of the 128
// weight rows nor of the 8 a lane's 16-byte store covers (1001: the staged epilogue's partial last
// segment; with B K x N also the weights' last TMA box past N), K not a multiple of 64, every
// epilogue feature (with C: the unstaged epilogue), every output type.
TEST(Sm90, SwapABTokenTiles) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 4700;
  const std::int64_t shapes[][3] = {{1, 1000, 1032}, {160, 1001, 520}, {320, 2112, 1032}, {333, 200, 130}, {600, 1001, 777}};
  for (Layout b_layout : {Layout::col_major, Layout::row_major})
    for (const char* tile : {"160x128x64_s6_c1x1_sw", "192x128x64_s5_c1x1_sw"})
      for (const auto& sh : shapes)
        for (DType out : {DType::bf16, DType::fp16, DType::fp32}) {
          GemmSpec spec{sh[0], sh[1], sh[2], out == DType::fp16 ? DType::fp16 : DType::bf16, out};
          spec.b_layout = b_layout;
          spec.ld_multiple = 8;
          set_seeded_epilogue(spec, seed);
          GemmOptions options;
          options.backend = Backend::sm90;
          options.sm90_kernel = sm90_kernel_name(spec, std::string(tile) + b_layout_suffix(b_layout));
          check_case(spec, options, seed++);
        }
}

// The gemv kernels (sm90_gemv.cuh: 16 weight rows a CTA, 8 or 16 tokens a pass, mma.sync fragments
// loaded straight from global memory) forced by name: decode sizes and ragged M / N / K (K not a
// multiple of a chunk's 32 columns or of the 8 a lane loads: the guarded last chunk; N not a
// multiple of 16: rows past N read the last row and are not stored; M past a pass: the token passes),
// every epilogue feature, every output type, B stored N x K (the only layout they take).
TEST(Sm90, GemvKernels) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 270;
  const std::int64_t shapes[][3] = {{1, 4096, 4096}, {8, 1000, 1032}, {3, 333, 777}, {5, 2112, 7168}, {17, 200, 136},
                                    {1, 7, 8},       {2, 24, 40},      {8, 4096, 16}};
  for (const char* tile : {"gemv8_w8_u2", "gemv8_w16_u2", "gemv16_w8_u2", "gemv16_w4_u4", "gemv16_w16_u2"})
    for (const auto& sh : shapes)
      for (DType out : {DType::bf16, DType::fp16, DType::fp32}) {
        const DType in = out == DType::fp16 ? DType::fp16 : DType::bf16;
        GemmSpec spec{sh[0], sh[1], sh[2], in, out};
        spec.b_layout = Layout::col_major;
        spec.ld_multiple = 8;
        spec.ld_pad = seed % 2 ? 8 : 0;
        set_seeded_epilogue(spec, seed);
        spec.alpha = seed % 7 == 0 ? 1.5f : 1.0f;
        GemmOptions options;
        options.backend = Backend::sm90;
        options.sm90_kernel = sm90_kernel_name(spec, std::string(tile) + "_bk");
        check_case(spec, options, seed++);
      }
}

// Automatic takes gemv for decode with B stored N x K and says so: at M <= 8 (8 tokens a pass), and
// at M = 9..16 where swap-AB leaves SMs idle (16 a pass); not with B K x N, not at M = 17.
TEST(Sm90, AutomaticTakesGemvForDecode) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 290;
  for (const auto& [m, b_layout, gemv] : std::vector<std::tuple<std::int64_t, Layout, const char*>>{
           {1, Layout::col_major, "_gemv8_"}, {8, Layout::col_major, "_gemv8_"}, {9, Layout::col_major, "_gemv16_"},
           {16, Layout::col_major, "_gemv16_"}, {17, Layout::col_major, nullptr}, {1, Layout::row_major, nullptr}}) {
    GemmSpec spec{m, 4096, 4096, DType::bf16, DType::bf16};
    spec.b_layout = b_layout;
    spec.ld_multiple = 8;
    GemmOptions options;
    options.backend = Backend::sm90;
    const std::string chosen = automatic_choice(spec, options, seed);
    EXPECT_EQ(chosen.find(gemv ? gemv : "_gemv") != std::string::npos, gemv != nullptr) << "M = " << m << ": " << chosen;
    check_case(spec, options, seed++);
  }
}

// The narrow tiles (B N x K) by their rule (choose_kernel, kNarrow*, kFillTileMinFill): 128x96 in one
// wave of 128 CTAs at 1024 x 1536 x 7168 where 128x128 fills 96; 128x80 in its place where one wave of
// 128x80 keeps more CTAs busy, at least 90% of the SMs (2048 x 576 x 7168: 128 against 96; 768 x 1536
// x 7168: 120 against 96; its last 80 columns a fifth full in both), not at 384 x 3072 x 8192 (117
// CTAs against 96); neither at K = 2048, nor where N's last 96 columns are a third full (N = 2048),
// nor with B K x N (no such tile); bias and C on the taken ones.
TEST(Sm90, AutomaticTakesNarrowTileWhereItFillsTheWave) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 300;
  for (const auto& [m, n, k, b_layout, tile] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, Layout, const char*>>{
           {1024, 1536, 7168, Layout::col_major, "_128x96x64_"}, {2048, 576, 7168, Layout::col_major, "_128x80x64_"},
           {768, 1536, 7168, Layout::col_major, "_128x80x64_"}, {384, 3072, 8192, Layout::col_major, "_128x96x64_"},
           {1024, 1536, 2048, Layout::col_major, nullptr}, {768, 2048, 7168, Layout::col_major, nullptr},
           {1024, 1536, 7168, Layout::row_major, nullptr}}) {
    GemmSpec spec{m, n, k, DType::bf16, DType::bf16};
    spec.b_layout = b_layout;
    spec.ld_multiple = 8;
    spec.with_bias = tile != nullptr;
    spec.with_c = tile != nullptr;
    spec.beta = tile != nullptr ? 0.5f : 0.0f;
    GemmOptions options;
    options.backend = Backend::sm90;
    const std::string chosen = automatic_choice(spec, options, seed);
    if (tile != nullptr)
      EXPECT_NE(chosen.find(tile), std::string::npos) << m << "x" << n << "x" << k << ": " << chosen;
    else
      EXPECT_TRUE(chosen.find("_128x96x64_") == std::string::npos && chosen.find("_128x80x64_") == std::string::npos)
          << m << "x" << n << "x" << k << ": " << chosen;
    check_case(spec, options, seed++);
  }
}

// Automatic takes the pair tiles (2x1 clusters sharing B) at two M tiles from K = 4096 where they keep
// more SMs busy in one wave, and 128x112 pairs in several waves of clusters where the model ranks
// them cheaper (session 46): chosen where the rule says, and correct there (ragged M and N, bias, C).
TEST(Sm90, AutomaticTakesPairTilesAtTwoMTiles) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 320;
  for (const auto& [m, n, k, pair] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, bool>>{
           {256, 6144, 4096, true}, {240, 13824, 5120, true}, {200, 27648, 4096, true}, {256, 7168, 2048, false},
           {256, 8192, 4096, false}}) {
    GemmSpec spec{m, n, k, DType::bf16, DType::bf16};
    spec.b_layout = Layout::col_major;
    spec.ld_multiple = 8;
    spec.with_bias = pair;
    spec.with_c = pair;
    spec.beta = pair ? -0.5f : 0.0f;
    GemmOptions options;
    options.backend = Backend::sm90;
    const std::string chosen = automatic_choice(spec, options, seed);
    EXPECT_EQ(chosen.find("_128x112x64_s7_c2x1_") != std::string::npos, pair) << m << "x" << n << "x" << k << ": " << chosen;
    check_case(spec, options, seed++);
  }
}

// Automatic takes the swap-AB token tiles where their waves hold fewer outputs than the 128-row
// tiles' (session 60): 160 tokens at M = 300 / 620 (N and K ragged: 2 / 4 token tiles, the last part
// full; one and two tiles a CTA), 192 at 3000 x 1000 x 4000 (16 token tiles, the last one 120 of 192
// full; N past the last 128 weight rows): chosen where the rule says, and correct there with bias,
// per-row scales and C (the unstaged epilogue) or without C (the staged one). With B stored K x N
// (session 61) at the same shapes and 2000 x 2500 x 2500 (13 token tiles, the last 80 of 160 full).
TEST(Sm90, AutomaticTakesTokenTiles) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 4800;
  for (const auto& [m, n, k, b_layout, tile] :
       std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, Layout, const char*>>{
           {300, 7000, 2000, Layout::col_major, "_160x128x64_s6_c1x1_sw"},
           {620, 8100, 3000, Layout::col_major, "_160x128x64_s6_c1x1_sw"},
           {3000, 1000, 4000, Layout::col_major, "_192x128x64_s5_c1x1_sw"},
           {300, 7000, 2000, Layout::row_major, "_160x128x64_s6_c1x1_sw"},
           {620, 8100, 3000, Layout::row_major, "_160x128x64_s6_c1x1_sw"},
           {3000, 1000, 4000, Layout::row_major, "_192x128x64_s5_c1x1_sw"},
           {2000, 2500, 2500, Layout::row_major, "_160x128x64_s6_c1x1_sw"}})
    for (bool with_c : {false, true}) {
      GemmSpec spec{m, n, k, DType::bf16, DType::bf16};
      spec.b_layout = b_layout;
      spec.ld_multiple = 8;
      spec.with_bias = true;
      spec.scale_a = with_c ? 0 : 2;
      spec.with_c = with_c;
      spec.beta = with_c ? -0.5f : 0.0f;
      GemmOptions options;
      options.backend = Backend::sm90;
      const std::string chosen = automatic_choice(spec, options, seed);
      EXPECT_NE(chosen.find(std::string(tile) + b_layout_suffix(b_layout)), std::string::npos)
          << m << "x" << n << "x" << k << ": " << chosen;
      check_case(spec, options, seed++);
    }
}

// Automatic takes the narrow ping-pong tile 128x112 in place of ping-pong 128x128 where its tiles deal
// evener waves (session 58), and of cooperative tiles where its busiest CTA computes fewer output
// columns (session 59: 600 x 2560 x 10240, one tile a CTA on 115 CTAs; 1000 x 3500 x 18944, two):
// chosen where the rule says, and correct there (ragged M and N with a partial last staging chunk,
// bias and C, one, two and more tiles a CTA: the turn-taking with one staging buffer a warpgroup).
TEST(Sm90, AutomaticTakesNarrowPingpongTile) {
  GRAPHGEMM_REQUIRE_HOPPER();
  std::uint64_t seed = 360;
  for (const auto& [m, n, k, narrow] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, bool>>{
           {512, 7168, 2048, true}, {1000, 7168, 2048, true}, {640, 5120, 2880, true}, {512, 28672, 4096, false},
           {600, 2560, 10240, true}, {1000, 3500, 18944, true}}) {
    GemmSpec spec{m, n, k, DType::bf16, DType::bf16};
    spec.b_layout = Layout::col_major;
    spec.ld_multiple = 8;
    spec.with_bias = narrow;
    spec.with_c = narrow;
    spec.beta = narrow ? 0.75f : 0.0f;
    GemmOptions options;
    options.backend = Backend::sm90;
    const std::string chosen = automatic_choice(spec, options, seed);
    EXPECT_EQ(chosen.find("_128x112x64_s7_c1x1_pp_") != std::string::npos, narrow) << m << "x" << n << "x" << k << ": " << chosen;
    check_case(spec, options, seed++);
  }
}

// The last M tile of an M its tile's rows do not divide loads the A box that ends at row M - 1 and
// reads its own rows further on in the stage (edge_box_row: a box mostly past M is slow to zero-fill,
// session 32). Those rows must get the bits the same rows get in a full tile: each schedule and
// operand-sharing variant forced by name, M just past a multiple of the tile's rows, between and one
// short, against the first M rows of the same GEMM at the next multiple (same A rows, scales and
// epilogue); D's rows past M stay poisoned. Also serial split-K (the last tile's slices hand on all
// their rows) and two swap-AB tiles (they keep the box at the tile's first row: decode grids showed
// no cost from it, and the shifted descriptor cost their 128-row main loops 14 instructions).
TEST(Sm90, LastMTileMatchesAFullTileBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  struct Case {
    const char* tile;
    int block_m;  // rows of an M tile (tokens for swap-AB)
    int splits;
  };
  const Case cases[] = {{"64x64x64_s13_c1x1", 64, 1},   {"64x128x64_s8_c1x1", 64, 1},      {"64x128x64_s8_c1x1", 64, 2},
                        {"128x128x64_s6_c1x1", 128, 1}, {"128x128x64_s6_c1x2", 128, 1},    {"128x112x64_s7_c2x1", 128, 1},
                        {"128x256x64_s4_c2x1", 128, 1}, {"128x128x64_s6_c1x1_pp", 128, 1}, {"64x256x64_s4_c1x1_pp", 64, 1},
                        {"16x64x64_s20_c1x1_sw", 16, 1}, {"32x64x256_s4_c1x1_sw", 32, 1}};
  const graphgemm::testing::Stream stream;
  std::uint64_t seed = 700;
  for (const Case& c : cases)
    for (int m : {c.block_m + 1, c.block_m + 7, 2 * c.block_m + c.block_m / 2 + 3, 3 * c.block_m - 1}) {
      const int m_full = (m + c.block_m - 1) / c.block_m * c.block_m;
      GemmSpec spec{m_full, 1000, 520, DType::bf16, DType::bf16};
      spec.ld_multiple = 8;
      spec.with_bias = true;
      spec.scale_a = 2;  // per row: the rows must line up
      GemmOperands ops(spec, seed++);
      GemmOptions options;
      options.backend = Backend::sm90;
      options.sm90_kernel = std::string("sm90_bf16_bf16_") + c.tile + "_bk";
      if (c.splits > 1) {
        options.split_k_mode = SplitKMode::serial;
        options.split_k_slices = c.splits;
      }
      const auto run = [&](const GemmArgs& args) {
        GemmPlan plan;
        const Status s = plan.initialize(args, options);
        ASSERT_TRUE(s.ok()) << s.to_string();
        support::DeviceBuffer ws(plan.workspace_size(args));
        ASSERT_TRUE(plan.run(args, {ws.get(), ws.bytes()}, stream.s).ok());
        SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
      };
      SCOPED_TRACE(std::string(c.tile) + " splits " + std::to_string(c.splits) + " M " + std::to_string(m));
      ops.poison_output(stream.s);
      run(ops.args());
      const auto full = support::download(ops.args().d);
      ops.poison_output(stream.s);
      SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
      const auto poisoned = support::download(ops.args().d);
      GemmArgs part = ops.args();
      part.a.rows = m;
      part.d.rows = m;
      part.scale_a->size = m;
      run(part);
      const auto got = support::download(ops.args().d);  // all m_full rows
      const std::size_t row_bytes = full.size() / m_full, split = static_cast<std::size_t>(m) * row_bytes;
      EXPECT_TRUE(std::equal(got.begin(), got.begin() + split, full.begin())) << "rows below M differ from a full tile's";
      EXPECT_TRUE(std::equal(got.begin() + split, got.end(), poisoned.begin() + split)) << "rows at or past M were written";
    }
}

// The same for B stored N x K (session 55): the last N tile of an N its tile's columns do not divide
// loads the B box that ends at row N - 1 and its wgmmas read their own columns further on in the
// stage (edge_box_row). Each schedule, operand-sharing and split variant of the K-major tiles forced
// by name, N just past a multiple of the tile's columns, between and one short, against the first N
// columns of the same GEMM at the next multiple (same B rows, bias and per-column scales); D's
// columns past N stay poisoned.
TEST(Sm90, LastNTileMatchesAFullTileBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  struct Case {
    const char* tile;
    int block_n;  // columns of an N tile
    SplitKMode mode;
    int splits;
  };
  const Case cases[] = {{"64x64x64_s13_c1x1", 64, SplitKMode::none, 1},     {"64x128x64_s8_c1x1", 128, SplitKMode::none, 1},
                        {"64x128x64_s8_c1x1", 128, SplitKMode::serial, 2},  {"128x96x64_s6_c1x1", 96, SplitKMode::none, 1},
                        {"128x112x64_s7_c2x1", 112, SplitKMode::none, 1},   {"128x128x64_s6_c1x1", 128, SplitKMode::parallel, 3},
                        {"128x128x64_s6_c1x2", 128, SplitKMode::none, 1},   {"128x128x64_s6_c2x1", 128, SplitKMode::none, 1},
                        {"128x136x64_s5_c1x1", 136, SplitKMode::none, 1},   {"128x176x64_s5_c1x1", 176, SplitKMode::stream_k, 1},
                        {"128x144x64_s5_c1x1", 144, SplitKMode::none, 1},   {"128x144x64_s5_c1x1", 144, SplitKMode::serial, 2},
                        {"128x80x64_s7_c1x1", 80, SplitKMode::none, 1},     {"128x80x64_s7_c1x1", 80, SplitKMode::serial, 2},
                        {"128x256x64_s4_c2x1", 256, SplitKMode::none, 1},   {"128x128x64_s6_c1x1_pp", 128, SplitKMode::none, 1},
                        {"64x256x64_s4_c1x1_pp", 256, SplitKMode::none, 1}, {"128x256x64_s4_c2x2", 256, SplitKMode::none, 1},
                        {"128x256x64_s4_c2x2", 256, SplitKMode::stream_k, 1}};
  const graphgemm::testing::Stream stream;
  std::uint64_t seed = 760;
  for (const Case& c : cases)
    for (int n : {c.block_n + 1, c.block_n + 7, 2 * c.block_n + c.block_n / 2 + 3, 3 * c.block_n - 1}) {
      const int n_full = (n + c.block_n - 1) / c.block_n * c.block_n;
      GemmSpec spec{300, n_full, 1000, DType::bf16, DType::bf16};
      spec.ld_multiple = 8;
      spec.with_bias = true;
      spec.scale_b = 2;  // per column: the columns must line up
      GemmOperands ops(spec, seed++);
      GemmOptions options;
      options.backend = Backend::sm90;
      options.sm90_kernel = std::string("sm90_bf16_bf16_") + c.tile + "_bk";
      options.split_k_mode = c.mode;
      if (c.splits > 1) options.split_k_slices = c.splits;
      const auto run = [&](const GemmArgs& args) {
        GemmPlan plan;
        const Status s = plan.initialize(args, options);
        ASSERT_TRUE(s.ok()) << s.to_string();
        support::DeviceBuffer ws(plan.workspace_size(args));
        ASSERT_TRUE(plan.run(args, {ws.get(), ws.bytes()}, stream.s).ok());
        SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
      };
      SCOPED_TRACE(std::string(c.tile) + " split mode " + std::to_string(static_cast<int>(c.mode)) + " N " + std::to_string(n));
      ops.poison_output(stream.s);
      run(ops.args());
      const auto full = support::download(ops.args().d);
      ops.poison_output(stream.s);
      SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
      const auto poisoned = support::download(ops.args().d);
      GemmArgs part = ops.args();
      part.b.cols = n;  // B N x K (a K x N column-major view): its first n rows
      part.d.cols = n;  // D keeps its leading dimension (n_full)
      part.bias->size = n;
      part.scale_b->size = n;
      run(part);
      const auto got = support::download(ops.args().d);
      const std::size_t row_bytes = full.size() / spec.m, elem = row_bytes / n_full, split = static_cast<std::size_t>(n) * elem;
      int differ = 0, written = 0;
      for (int r = 0; r < spec.m; ++r) {
        const std::size_t o = static_cast<std::size_t>(r) * row_bytes;
        differ += !std::equal(got.begin() + o, got.begin() + o + split, full.begin() + o);
        written += !std::equal(got.begin() + o + split, got.begin() + o + row_bytes, poisoned.begin() + o + split);
      }
      EXPECT_EQ(differ, 0) << "rows whose columns below N differ from a full tile's";
      EXPECT_EQ(written, 0) << "rows whose columns at or past N were written";
    }
}

TEST(Sm90, KZeroAndEmpty) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{33, 64, 0, DType::bf16, DType::bf16};
  spec.with_c = true;
  spec.beta = 0.5f;
  spec.with_bias = true;
  check_case(spec, Backend::sm90, 300);
}

TEST(Sm90, MisalignedLeadingDimensionIsExplained) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmOperands ops(GemmSpec{64, 64, 67}, 400);  // K = 67 bf16: 134-byte rows
  GemmPlan plan;
  const Status s = plan.initialize(ops.args(), {Backend::sm90});
  EXPECT_EQ(s.code(), StatusCode::not_supported) << s.to_string();
  EXPECT_NE(s.message().find("A's leading dimension 67 (134 bytes) must be a multiple of 16 bytes"), std::string::npos)
      << s.message();
}

TEST(Sm90, AutomaticPrefersOursAndFallsBackWithAReason) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec aligned{256, 512, 1024};
  GemmOperands a(aligned, 500);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(a.args()).ok());
  EXPECT_EQ(plan.backend(), Backend::sm90) << plan.describe();

  GemmSpec int8{256, 512, 1024, DType::int8, DType::int32};  // not ours (yet): cuBLASLt, and why
  GemmOperands b(int8, 501);
  ASSERT_TRUE(plan.initialize(b.args()).ok());
  EXPECT_EQ(plan.backend(), Backend::cublaslt);
  EXPECT_NE(plan.describe().find("fallback: sm90 backend: runs bf16 and fp16 inputs"), std::string::npos) << plan.describe();
}

TEST(Sm90, CapturedReplayIsBitwiseEqual) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{300, 520, 1000};
  spec.ld_multiple = 8;
  spec.with_c = true;
  spec.beta = 0.5f;
  spec.with_bias = true;
  GemmOperands ops(spec, 600);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(ops.args(), {Backend::sm90}).ok());
  support::DeviceBuffer ws(plan.workspace_size(ops.args()));  // split-K (automatic) may need one
  const Workspace workspace{ws.get(), ws.bytes()};
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_TRUE(plan.run(ops.args(), workspace, stream).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  const auto eager = support::download(ops.args().d);
  for (cudaStreamCaptureMode mode : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
    ops.poison_output(stream);
    cudaGraphExec_t exec = nullptr;
    const Status s = capture_run(plan, ops.args(), workspace, stream, mode, exec);
    ASSERT_TRUE(s.ok()) << s.to_string();
    SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(support::download(ops.args().d), eager) << "capture mode " << mode;
    SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}

// The tile order (GemmOptions::sm90_raster_*) only moves tiles between CTAs and in time: every
// order gives the automatic order's bits, on a shape ragged in M and N with more tiles (cluster
// tiles) than CTAs (clusters) on H100, for the cooperative, ping-pong and clustered schedules (a
// poisoned D shows any tile left out). The automatic order itself is checked against fp64.
TEST(Sm90, RasterOrderChangesOnlyTheOrder) {
  GRAPHGEMM_REQUIRE_HOPPER();
  GemmSpec spec{2100, 2000, 200};
  spec.ld_multiple = 8;
  spec.with_bias = true;
  GemmOperands ops(spec, 700);
  std::uint64_t seed = 700;
  for (const char* tile : {"128x128x64_s6_c1x1", "128x128x64_s6_c1x1_pp", "128x256x64_s4_c2x1", "64x128x64_s8_c1x1"}) {
    GemmOptions options;
    options.backend = Backend::sm90;
    options.sm90_kernel = std::string("sm90_bf16_bf16_") + tile + "_bk";
    options.split_k_mode = SplitKMode::none;
    check_case(spec, options, seed++);
    const auto run = [&](const GemmOptions& o) {
      GemmPlan plan;
      const Status s = plan.initialize(ops.args(), o);
      EXPECT_TRUE(s.ok()) << s.to_string();
      ops.poison_output();
      EXPECT_TRUE(plan.run(ops.args(), {}, nullptr).ok());
      SUPPORT_CUDA(cudaDeviceSynchronize());
      return std::make_pair(support::download(ops.args().d), plan.describe());
    };
    const auto automatic = run(options);
    EXPECT_NE(automatic.second.find("tiles in groups of 8 along M"), std::string::npos) << automatic.second;
    for (const auto& [order, group] : std::vector<std::pair<RasterOrder, int>>{
             {RasterOrder::along_m, 1}, {RasterOrder::along_m, 3}, {RasterOrder::along_n, 2}, {RasterOrder::along_n, 64}}) {
      GemmOptions o = options;
      o.sm90_raster_order = order;
      o.sm90_raster_group = group;
      const auto [bits, describe] = run(o);
      EXPECT_NE(describe.find("tiles in groups of " + std::to_string(group) + " " + to_string(order)), std::string::npos)
          << describe;
      EXPECT_EQ(bits, automatic.first) << describe;
    }
  }
}

TEST(Sm90, RepeatedCallsWithChangingBuffersAndScalars) {
  GRAPHGEMM_REQUIRE_HOPPER();
  // run() reuses the launch arguments of recent identical calls: cycle through more operand sets
  // than it remembers, twice, changing alpha too, and check every result against fp64.
  constexpr int kSets = 10;
  GemmSpec spec{100, 264, 136};
  spec.ld_multiple = 8;
  spec.with_c = true;
  spec.beta = 0.5f;
  spec.with_bias = true;
  spec.scale_a = 2;
  std::vector<std::unique_ptr<GemmOperands>> sets;
  for (int i = 0; i < kSets; ++i) sets.push_back(std::make_unique<GemmOperands>(spec, 700 + i));
  GemmPlan plan;
  GemmOptions options;
  options.backend = Backend::sm90;
  options.split_k_mode = SplitKMode::none;
  ASSERT_TRUE(plan.initialize(sets[0]->args(), options).ok());
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < kSets; ++i) {
      SCOPED_TRACE("round " + std::to_string(round) + ", operand set " + std::to_string(i));
      GemmOperands& ops = *sets[i];
      ops.args().alpha = round == 0 ? 1.0f : -0.5f;  // check() follows args()
      ops.poison_output();
      const Status s = plan.run(ops.args(), {}, nullptr);
      ASSERT_TRUE(s.ok()) << s.to_string();
      const support::Comparison cmp = ops.check();
      EXPECT_EQ(cmp.non_finite, 0);
      EXPECT_LT(cmp.rel_error, GemmOperands::tolerance(spec.in, spec.out));
    }
}

// Programmatic dependent launch: each GEMM of a chain reads the previous one's output, as A
// (activations) and, last, as B (the operand whose first k-blocks a programmatic launch pulls into
// L2 before waiting). Outputs are poisoned first, so a read before the producer finished shows as
// NaN or as a difference. With and without PDL, eagerly and captured (programmatic graph edges),
// on cooperative, ping-pong and swap-AB kernels: bitwise the same results.
TEST(Sm90, ProgrammaticLaunchChainsMatchSerialLaunchesBitwise) {
  GRAPHGEMM_REQUIRE_HOPPER();
  struct Case {
    std::int64_t m, h;
    const char* kernel;  // the layers' kernel ("" = the heuristic's)
  };
  const Case cases[] = {{296, 512, ""},  // M: the last GEMM's N, 16-byte rows of D
                        {16, 1024, "sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk"},
                        {520, 384, "sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk"},
                        {256, 768, "sm90_bf16_bf16_128x256x64_s4_c2x1_bk"}};
  constexpr int kLayers = 4;
  constexpr std::int64_t kM2 = 200;
  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::uint64_t seed = 900;
  for (const Case& c : cases) {
    SCOPED_TRACE("M " + std::to_string(c.m) + ", H " + std::to_string(c.h) + ", kernel " + c.kernel);
    support::DeviceBuffer x(c.m * c.h * 2), z(kM2 * c.h * 2), out(kM2 * c.m * 2);
    std::vector<support::DeviceBuffer> w, act;
    for (int l = 0; l < kLayers; ++l) {
      w.emplace_back(c.h * c.h * 2);
      act.emplace_back(c.m * c.h * 2);
      support::fill_random(w.back().get(), DType::bf16, c.h * c.h, seed++, 1.0f / 16.0f);
    }
    support::fill_random(x.get(), DType::bf16, c.m * c.h, seed++);
    support::fill_random(z.get(), DType::bf16, kM2 * c.h, seed++, 1.0f / 16.0f);
    SUPPORT_CUDA(cudaDeviceSynchronize());  // the fills ran on the legacy stream; `stream` does not wait for it
    auto layer = [&](int l) {
      GemmArgs g;
      g.a = MatrixView::row_major(l == 0 ? x.get() : act[l - 1].get(), DType::bf16, c.m, c.h);
      g.b = MatrixView::transposed_weight(w[l].get(), DType::bf16, c.h, c.h);
      g.d = MatrixView::row_major(act[l].get(), DType::bf16, c.m, c.h);
      return g;
    };
    GemmArgs last;  // out = Z · act[L-1]ᵀ: B is the previous kernel's output
    last.a = MatrixView::row_major(z.get(), DType::bf16, kM2, c.h);
    last.b = MatrixView::transposed_weight(act[kLayers - 1].get(), DType::bf16, c.m, c.h);
    last.d = MatrixView::row_major(out.get(), DType::bf16, kM2, c.m);

    std::vector<unsigned char> reference;
    for (bool pdl : {false, true}) {
      GemmOptions o;
      o.backend = Backend::sm90;
      o.split_k_mode = SplitKMode::none;
      o.sm90_kernel = c.kernel;
      o.programmatic_launch = pdl ? ProgrammaticLaunch::on : ProgrammaticLaunch::off;
      GemmPlan layers, tail;
      ASSERT_TRUE(layers.initialize(layer(0), o).ok());
      o.sm90_kernel.clear();
      ASSERT_TRUE(tail.initialize(last, o).ok());
      EXPECT_EQ(layers.describe().find("programmatic launch") != std::string::npos, pdl) << layers.describe();
      auto chain = [&](cudaStream_t s) -> Status {
        for (int l = 0; l < kLayers; ++l)
          if (Status st = layers.run(layer(l), {}, s); !st.ok()) return st;
        return tail.run(last, {}, s);
      };
      auto poison = [&] {
        for (auto& a : act) support::fill_poison(a.get(), DType::bf16, c.m * c.h, stream);
        support::fill_poison(out.get(), DType::bf16, kM2 * c.m, stream);
      };
      for (int rep = 0; rep < 3; ++rep) {  // eagerly, a few times
        poison();
        const Status s = chain(stream);
        ASSERT_TRUE(s.ok()) << s.to_string();
        SUPPORT_CUDA(cudaStreamSynchronize(stream));
        const auto got = support::download(last.d);
        if (reference.empty()) reference = got;
        EXPECT_EQ(got, reference) << "eager, pdl " << pdl << ", repetition " << rep;
      }
      cudaGraphExec_t exec = nullptr;
      const Status s = graphgemm::testing::capture(stream, cudaStreamCaptureModeGlobal, chain, exec);
      ASSERT_TRUE(s.ok()) << s.to_string();
      for (int rep = 0; rep < 3; ++rep) {
        poison();
        SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
        SUPPORT_CUDA(cudaStreamSynchronize(stream));
        EXPECT_EQ(support::download(last.d), reference) << "graph, pdl " << pdl << ", replay " << rep;
      }
      SUPPORT_CUDA(cudaGraphExecDestroy(exec));
    }
    graphgemm::testing::expect_filled_bf16(reference);  // the serial reference read no poison
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
}
