// The sm90 instance table and heuristic with ping-pong kernels: host-only (no GPU touched).
// Ping-pong instances have no split-K: the heuristic never pairs them with a split, an explicit
// split request with one forced by name is an error, and their launcher refuses splits > 1.
#include <gtest/gtest.h>

#include <cmath>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <tuple>
#include <string>

#include "backends/sm90_heuristic.hpp"
#include "kernels/sm90_gemm_instances.hpp"

using namespace graphgemm;
namespace gd = graphgemm::detail::sm90;
namespace gk = graphgemm::kernels::sm90;

namespace {

bool is_pp_name(const char* name) { return std::strstr(name, "_pp_") != nullptr; }

int find(const char* name) {
  const int i = gd::find_kernel(name);
  EXPECT_GE(i, 0) << name;
  return i;
}

// choose_split for a bf16 problem (128 x 4096 x 8192, B stored N x K unless given) with kernel
// `forced` and the given request.
gd::SplitChoice choose_forced(int forced, SplitKMode mode, int slices, bool b_k_major = true, std::int64_t m = 128,
                              std::int64_t n = 4096, std::int64_t k = 8192) {
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
  r.mode = mode;
  r.slices = slices;
  r.max_workspace_bytes = std::size_t{1} << 30;
  r.forced_kernel = forced;
  return gd::choose_split(r);
}

// Automatic choose_split for bf16 in and out on 132 SMs with 64 MB of workspace allowed.
gd::SplitChoice automatic_bf16(std::int64_t m, std::int64_t n, std::int64_t k, bool b_k_major = true) {
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
  r.max_workspace_bytes = std::size_t{64} << 20;
  return gd::choose_split(r);
}

// choose_kernel for bf16 in and out on 132 SMs (no measured pair capacity).
gd::KernelChoice chosen_bf16(bool b_k_major, std::int64_t m, std::int64_t n, std::int64_t k) {
  const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132, false, 0);
  EXPECT_GE(c.index, 0);
  return c;
}

// A tile taken unsplit only: automatic split-K never takes any cooperative instance `block_n` wide on
// these K-heavy shapes (B stored N x K, every input / output type), and a forced split in 2 of `mode`
// does.
void expect_split_only_when_forced(int block_n, SplitKMode mode, std::initializer_list<std::tuple<int, int, int>> shapes) {
  for (int i = 0; i < gd::kernel_count(); ++i) {
    const gd::KernelInfo& ki = gd::kernel_info(i);
    if (ki.block_n != block_n || ki.schedule != gk::Schedule::cooperative) continue;
    for (const auto& [m, n, k] : shapes) {
      gd::SplitRequest r{ki.dtype_in, ki.dtype_out, true, m, n, k, 132};
      r.max_workspace_bytes = std::size_t{1} << 30;
      const gd::SplitChoice s = gd::choose_split(r);
      EXPECT_FALSE(s.index == i && s.mode != gk::SplitMode::none) << ki.name << ": " << s.explanation;
    }
    EXPECT_EQ(choose_forced(i, mode, 2).mode, mode == SplitKMode::serial ? gk::SplitMode::serial : gk::SplitMode::parallel)
        << ki.name;
  }
}

}  // namespace

TEST(Sm90Schedule, InstanceTable) {
  int pingpong = 0, swap_ab = 0, swap_ab_kn = 0, swap_ab_wide = 0, swap_ab_token = 0, gemv = 0;
  for (int i = 0; i < gd::kernel_count(); ++i) {
    const gd::KernelInfo& k = gd::kernel_info(i);
    EXPECT_EQ(gd::find_kernel(k.name), i) << k.name;  // names are unique
    EXPECT_EQ(is_pp_name(k.name), k.schedule == gk::Schedule::pingpong) << k.name;
    EXPECT_EQ(std::strstr(k.name, "_sw_") != nullptr, k.schedule == gk::Schedule::swap_ab) << k.name;
    EXPECT_EQ(std::strstr(k.name, "_gemv") != nullptr, k.schedule == gk::Schedule::gemv) << k.name;
    if (k.schedule == gk::Schedule::swap_ab) {
      ++swap_ab;
      EXPECT_FALSE(gd::supports_split_k(k));
      swap_ab_kn += k.b_k_major ? 0 : 1;
      EXPECT_EQ(k.cluster_m * k.cluster_n, 1) << k.name;
      // Decode tiles (16 / 32 tokens): slices summed within one cluster only: 2 or 4 (8 with two
      // consumer warpgroups), no workspace. The wide tile (256 tokens x 64 weight rows, two token
      // halves) and the token tiles (64-256 tokens x 128 weight rows): no split at all.
      const bool wide = k.block_m == 256 && k.block_n == 64;
      const bool token = k.block_m > 32 && k.block_n == 128;
      EXPECT_TRUE(wide || token || k.block_m <= 32) << k.name;
      EXPECT_TRUE(!token || (k.block_m % 16 == 0 && k.block_m <= 256)) << k.name;
      EXPECT_EQ(k.consumer_warpgroups, wide ? 2 : k.block_n / 64) << k.name;
      EXPECT_EQ(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 4).total(), 0u) << k.name;
      if (wide) ++swap_ab_wide;
      if (token) ++swap_ab_token;
      const bool decode = !wide && !token;
      EXPECT_EQ(k.split_cluster, decode) << k.name;
      EXPECT_EQ(gd::can_sum_in_cluster(k, 2, 2), decode) << k.name;
      EXPECT_EQ(gd::can_sum_in_cluster(k, 4, 4), decode) << k.name;
      EXPECT_EQ(gd::can_sum_in_cluster(k, 8, 8), decode && k.consumer_warpgroups == 2) << k.name;
      EXPECT_FALSE(gd::can_sum_in_cluster(k, 8, 4)) << k.name;
      EXPECT_FALSE(gd::can_sum_in_cluster(k, 3, 3)) << k.name;
      EXPECT_EQ(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 4, 4).total(), 0u) << k.name;
    } else if (k.schedule == gk::Schedule::gemv) {
      ++gemv;
      EXPECT_FALSE(gd::supports_split_k(k));
      EXPECT_FALSE(k.split_cluster) << k.name;
      EXPECT_TRUE(k.b_k_major) << k.name;
      EXPECT_EQ(k.cluster_m * k.cluster_n, 1) << k.name;
      EXPECT_EQ(k.block_n, 16) << k.name;
      EXPECT_EQ(k.smem_bytes, 0) << k.name;
      EXPECT_EQ(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 4).total(), 0u) << k.name;
      EXPECT_EQ(gd::kernel_split_cluster_capacity(i, 2, 132), 0) << k.name;
    } else if (k.schedule == gk::Schedule::pingpong) {
      ++pingpong;
      EXPECT_FALSE(gd::supports_split_k(k));
      EXPECT_EQ(k.consumer_warpgroups, 2) << k.name;
      EXPECT_EQ(k.threads, 384) << k.name;
      EXPECT_LE(k.block_m * k.block_n, 64 * 256) << k.name;
      EXPECT_EQ(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 4).total(), 0u) << k.name;
    } else {
      EXPECT_TRUE(gd::supports_split_k(k));
      EXPECT_EQ(k.consumer_warpgroups, k.block_m / 64) << k.name;
      EXPECT_GT(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 4).total(), 0u) << k.name;
      // Sums within clusters: cluster-1x1 kernels with tiles 64 or 128 wide (wider ones spill; the
      // reduction splits rows into whole 4-column quads a thread).
      EXPECT_EQ(k.split_cluster, k.cluster_m * k.cluster_n == 1 && k.block_n <= 128 && k.block_n % 64 == 0) << k.name;
      if (k.split_cluster) {
        // 16 slices in clusters of 4: 4 slots of partial tiles (a quarter of the plain layout's);
        // 8 in clusters of 8: none at all.
        const auto plain = gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 16);
        const auto by4 = gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 16, 4);
        EXPECT_EQ(by4.counter_bytes, plain.counter_bytes) << k.name;
        EXPECT_EQ(by4.partial_bytes * 4, plain.partial_bytes) << k.name;
        EXPECT_EQ(gd::kernel_split_workspace(i, 1000, 1000, gk::SplitMode::parallel, 8, 8).total(), 0u) << k.name;
      }
    }
    if (k.schedule == gk::Schedule::pingpong) EXPECT_FALSE(k.split_cluster) << k.name;
    if (k.schedule == gk::Schedule::cooperative && k.split_cluster) {
      EXPECT_TRUE(gd::can_sum_in_cluster(k, 16, 4)) << k.name;
      EXPECT_TRUE(gd::can_sum_in_cluster(k, 8, 8)) << k.name;
      EXPECT_FALSE(gd::can_sum_in_cluster(k, 6, 4)) << k.name;
    }
    EXPECT_LE(k.smem_bytes, 232448) << k.name;
  }
  EXPECT_EQ(pingpong, 48);  // 3 tiles x 2 B layouts x 3 outputs x 2 inputs, 128x112 c1x1 / c2x1 (B
                            // stored N x K, session 58) x 3 x 2
  EXPECT_EQ(swap_ab, 108);    // 9 tiles x 2 B layouts x 3 outputs x 2 inputs
  EXPECT_EQ(swap_ab_kn, 54);  // (B stored K x N since session 43)
  EXPECT_EQ(swap_ab_wide, 12);  // (256 x 64, session 44)
  EXPECT_EQ(swap_ab_token, 24);  // (160 / 192 x 128: B N x K since session 60, K x N since session 61)
  // cooperative: 6 tiles x 2 B layouts x 3 outputs x 2 inputs, 128x176 and 128x136 (B stored N x K
  // only) x 3 x 2, 64x64 x 2 B layouts x 3 x 2, the pair tiles 128x128 / 128x112 c2x1 (B stored
  // N x K) x 3 x 2, 128x128 c2x1 with B stored K x N x 3 x 2, 128x96 (B stored N x K, session
  // 45) x 3 x 2, 128x144 (B stored N x K, session 56) x 3 x 2 and 128x80 (B stored N x K, session
  // 57) x 3 x 2, and 128x256 in 2x2 clusters (B stored N x K, session 63) x 3 x 2
  EXPECT_EQ(gemv, 30);        // (8 tokens: 2 warp counts, 16 tokens: 3) x 3 outputs x 2 inputs (B N x K only)
  EXPECT_EQ(gd::kernel_count(), 72 + 12 + 12 + 12 + 6 + 6 + 6 + 6 + 6 + 48 + 108 + 30);
  EXPECT_STREQ(gd::schedule_name(gk::Schedule::pingpong), "pingpong");
  EXPECT_STREQ(gd::schedule_name(gk::Schedule::gemv), "gemv");
  for (const char* name : {"sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk", "sm90_bf16_bf16_128x128x64_s6_c2x1_pp_bn",
                           "sm90_f16_f32_64x256x64_s4_c1x1_pp_bk", "sm90_bf16_bf16_128x256x64_s4_c2x1_bk",
                           "sm90_f16_f16_128x192x64_s4_c1x1_bn", "sm90_bf16_f32_16x128x64_s12_c1x1_sw_bk",
                           "sm90_f16_f32_128x176x64_s5_c1x1_bk", "sm90_bf16_f16_128x136x64_s5_c1x1_bk",
                           "sm90_bf16_bf16_16x64x256_s5_c1x1_sw_bk", "sm90_f16_f32_32x64x256_s4_c1x1_sw_bk",
                           "sm90_bf16_bf16_128x112x64_s7_c2x1_bk", "sm90_f16_f32_128x128x64_s6_c2x1_bk",
                           "sm90_bf16_bf16_gemv8_w8_u2_bk", "sm90_f16_f32_gemv8_w16_u2_bk", "sm90_bf16_f16_gemv16_w16_u2_bk",
                           "sm90_bf16_bf16_128x144x64_s5_c1x1_bk", "sm90_f16_f32_128x144x64_s5_c1x1_bk",
                           "sm90_bf16_bf16_128x80x64_s7_c1x1_bk", "sm90_f16_f32_128x80x64_s7_c1x1_bk",
                           "sm90_bf16_bf16_160x128x64_s6_c1x1_sw_bk", "sm90_f16_f32_192x128x64_s5_c1x1_sw_bk",
                           "sm90_bf16_bf16_128x256x64_s4_c2x2_bk", "sm90_f16_f32_128x256x64_s4_c2x2_bk"})
    find(name);
}

TEST(Sm90Schedule, LauncherRefusesSplitK) {
  const int i = find("sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk");
  ASSERT_GE(i, 0);
  gk::GemmParams p;
  p.m = p.n = p.k = 1024;
  p.split_mode = gk::SplitMode::parallel;
  p.splits = 2;
  gd::LaunchArgsStorage storage;
  EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue);
  p.split_mode = gk::SplitMode::serial;
  EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue);
}

TEST(Sm90Schedule, ForcedPingpongWithSplitKIsAnError) {
  const int i = find("sm90_bf16_bf16_64x256x64_s4_c1x1_pp_bk");
  ASSERT_GE(i, 0);
  for (auto [mode, slices] : {std::pair{SplitKMode::serial, 0}, std::pair{SplitKMode::parallel, 8},
                              std::pair{SplitKMode::automatic, 4}}) {
    const gd::SplitChoice c = choose_forced(i, mode, slices);
    EXPECT_FALSE(c.error.ok());
    EXPECT_EQ(c.error.code(), StatusCode::invalid_argument);
    EXPECT_NE(c.error.message().find("without split-K"), std::string::npos) << c.error.message();
  }
  // automatic, slices 0: the forced kernel unsplit; none / slices 1: likewise.
  for (auto [mode, slices] : {std::pair{SplitKMode::automatic, 0}, std::pair{SplitKMode::none, 0},
                              std::pair{SplitKMode::serial, 1}}) {
    const gd::SplitChoice c = choose_forced(i, mode, slices);
    ASSERT_TRUE(c.error.ok()) << c.error.to_string();
    EXPECT_EQ(c.index, i);
    EXPECT_EQ(c.slices, 1);
    EXPECT_EQ(c.mode, gk::SplitMode::none);
    EXPECT_EQ(c.workspace_bytes, 0u);
  }
}

TEST(Sm90Schedule, HeuristicNeverSplitsAPingpongKernel) {
  const std::int64_t dims[] = {1, 16, 64, 128, 256, 1000, 1024, 4096, 8192};
  const std::int64_t ks[] = {64, 1000, 4096, 16384, 65536};
  int pp_chosen = 0;
  for (std::int64_t m : dims)
    for (std::int64_t n : dims)
      for (std::int64_t k : ks)
        for (SplitKMode mode : {SplitKMode::automatic, SplitKMode::serial, SplitKMode::parallel}) {
          gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
          r.mode = mode;
          r.max_workspace_bytes = std::size_t{32} << 20;
          const gd::SplitChoice c = gd::choose_split(r);
          if (!c.error.ok() || c.index < 0) continue;
          const gd::KernelInfo& ki = gd::kernel_info(c.index);
          if (c.slices > 1) {  // through the workspace, or a swap-AB kernel's slices summed in one cluster
            EXPECT_TRUE(gd::supports_split_k(ki) || (ki.schedule == gk::Schedule::swap_ab && c.cluster == c.slices &&
                                                     c.workspace_bytes == 0))
                << ki.name << " with " << c.slices << " slices";
          }
          if (ki.schedule == gk::Schedule::pingpong) {
            ++pp_chosen;
            EXPECT_EQ(c.slices, 1);
            EXPECT_EQ(c.workspace_bytes, 0u);
          }
        }
  EXPECT_GT(pp_chosen, 0);  // the heuristic does consider them
  // Ping-pong where K is short or the 128x256 tiles would fill few waves (2048^3, deepseek_v3.b at
  // M = 4096, llama3_8b.qkv at M = 1024) ...
  using Mnk = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
  for (auto [m, n, k] : {Mnk{2048, 2048, 2048}, Mnk{4096, 24576, 1536}, Mnk{1024, 6144, 4096}}) {
    const gd::KernelChoice pp = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132);
    ASSERT_GE(pp.index, 0);
    EXPECT_EQ(gd::kernel_info(pp.index).schedule, gk::Schedule::pingpong) << m << "x" << n << "x" << k << ": " << pp.explanation;
  }
  // ... but the cooperative 128x256 where K >= 4096 and its tiles fill >= 3 waves (session 33,
  // H100: fewer joules per FLOP, 2-7% faster under the power cap; 8192^3, 4096^3,
  // 4096 x 28672 x 4096).
  for (auto [m, n, k] : {Mnk{8192, 8192, 8192}, Mnk{4096, 4096, 4096}, Mnk{4096, 28672, 4096}}) {
    const gd::KernelChoice coop = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132);
    ASSERT_GE(coop.index, 0);
    EXPECT_EQ(gd::kernel_info(coop.index).schedule, gk::Schedule::cooperative) << m << "x" << n << "x" << k << ": " << coop.explanation;
    EXPECT_EQ(gd::kernel_info(coop.index).block_n, 256) << coop.explanation;
  }
  // Above 1.6 TFLOP of work, whatever K, a cooperative tile (session 10 sweep, H100: from ~1.9
  // TFLOP on, ping-pong ran 9-30% behind 128x256 / 128x192, e.g. 8192 x 57344 x 8192 14.3 ms
  // against 11.0 ms).
  for (auto [m, n, k] : {Mnk{8192, 57344, 8192}, Mnk{4096, 57344, 8192}, Mnk{8192, 28672, 4096}}) {
    const gd::KernelChoice huge = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132);
    ASSERT_GE(huge.index, 0);
    EXPECT_EQ(gd::kernel_info(huge.index).schedule, gk::Schedule::cooperative) << m << "x" << n << "x" << k << ": " << huge.explanation;
    EXPECT_GE(gd::kernel_info(huge.index).block_n, 192) << huge.explanation;
  }
  // split_k_only: only cooperative instances.
  const gd::KernelChoice coop = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 8192, 8192, 8192, 132, true);
  ASSERT_GE(coop.index, 0);
  EXPECT_TRUE(gd::supports_split_k(gd::kernel_info(coop.index))) << coop.explanation;
}

TEST(Sm90Heuristic, CountsClusterTilesNotCtaTiles) {
  // A 2x1 cluster covers 2 * block_m rows: at M = 128 one of its two CTAs has no rows, so its
  // waves are those of its cluster tiles (session 5: 128x256 c2x1 at M = 128 ran 388 us against
  // 324 us for c1x1 on llama3_70b.gate_up).
  const int c2 = find("sm90_bf16_bf16_128x256x64_s4_c2x1_bk");
  const int c1 = find("sm90_bf16_bf16_128x256x64_s4_c1x1_bk");
  ASSERT_GE(c2, 0);
  ASSERT_GE(c1, 0);
  // At M = 128: c2x1 has 224 cluster tiles (256 x 256, half their rows outside M) on 66 clusters:
  // 4 waves; c1x1 has 224 tiles on 132 CTAs: 2 waves. (Counting CTA tiles gave c2x1 2 waves too.)
  EXPECT_GT(gd::relative_cost(gd::kernel_info(c2), 128, 57344, 8192, 132),
            gd::relative_cost(gd::kernel_info(c1), 128, 57344, 8192, 132));
  const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 128, 57344, 8192, 132);
  ASSERT_GE(c.index, 0);
  EXPECT_EQ(gd::kernel_info(c.index).cluster_m, 1) << c.explanation;
}

TEST(Sm90Heuristic, ProgrammaticLaunchWhereTheGridLeavesSMsIdle) {
  const gd::KernelInfo& k64 = gd::kernel_info(find("sm90_bf16_bf16_64x128x64_s8_c1x1_bk"));
  const gd::KernelInfo& c2 = gd::kernel_info(find("sm90_bf16_bf16_128x256x64_s4_c2x1_bk"));
  // Tiles, times slices, at most the co-resident CTAs; a 2x1 cluster tile is 2 CTAs.
  EXPECT_EQ(gd::busy_ctas(k64, 64, 4096, 1, 132), 32);
  EXPECT_EQ(gd::busy_ctas(k64, 65, 4096, 1, 132), 64);
  EXPECT_EQ(gd::busy_ctas(k64, 64, 2112, 4, 132), 68);
  EXPECT_EQ(gd::busy_ctas(k64, 8192, 8192, 1, 132), 132);
  EXPECT_EQ(gd::busy_ctas(c2, 128, 1024, 1, 132), 8);
  EXPECT_EQ(gd::busy_ctas(c2, 4096, 4096, 1, 132), 132);
  // Automatic: at most 3/4 of the SMs busy (99 of 132), or M within two tiles; never cluster sums.
  EXPECT_TRUE(gd::programmatic_pays(k64, 256, 2112, 1, 1, 132));     // 4 x 17 = 68 CTAs
  EXPECT_TRUE(gd::programmatic_pays(k64, 64, 24576, 1, 1, 132));     // 132 CTAs, one M tile
  EXPECT_TRUE(gd::programmatic_pays(k64, 128, 7168, 1, 1, 132));     // 112 CTAs, two M tiles
  EXPECT_FALSE(gd::programmatic_pays(k64, 256, 4096, 1, 1, 132));    // 128 CTAs, four M tiles
  EXPECT_FALSE(gd::programmatic_pays(k64, 8192, 8192, 1, 1, 132));
  EXPECT_FALSE(gd::programmatic_pays(k64, 64, 2112, 4, 4, 132));     // slices summed in clusters of 4
  EXPECT_TRUE(gd::programmatic_pays(k64, 128, 128, 26, 1, 132));     // through the workspace: 52 units
  EXPECT_FALSE(gd::programmatic_pays(k64, 128, 256, 21, 1, 132));    // ... 84 units, more than half
  const gd::KernelInfo& sw = gd::kernel_info(find("sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk"));
  EXPECT_TRUE(gd::programmatic_pays(sw, 1, 7168, 1, 1, 132));        // swap-AB: one token tile, 112 CTAs
  EXPECT_TRUE(gd::programmatic_pays(sw, 1, 4096, 2, 2, 132));        // ... its slices pushed within clusters of 2
}

TEST(Sm90Heuristic, SwapABForDecodeSizedM) {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k, bool b_k_major, SplitKMode mode) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
    r.mode = mode;
    r.max_workspace_bytes = std::size_t{1} << 30;
    return gd::choose_split(r);
  };
  // M = 9 and 16 on a weight of 7168 x 2048: the 64-row cooperative tile is compute-bound per SM
  // in the model, the swap-AB tile at the DRAM bound. (M <= 8 and, where swap-AB leaves SMs idle,
  // M <= 16: gemv, GemvForDecode.)
  for (std::int64_t m : {9, 16}) {
    for (SplitKMode mode : {SplitKMode::automatic, SplitKMode::none}) {
      const gd::SplitChoice c = choose(m, 7168, 2048, true, mode);
      ASSERT_GE(c.index, 0) << c.error.message();
      const gd::KernelInfo& k = gd::kernel_info(c.index);
      EXPECT_EQ(k.schedule, gk::Schedule::swap_ab) << c.explanation;
      EXPECT_GE(k.block_m, m);
      EXPECT_EQ(c.slices, 1);
      EXPECT_EQ(c.workspace_bytes, 0u);
    }
  }
  // B stored K x N (no gemv instance): swap-AB at M = 1 and 16 too, its `_bn` kernel.
  for (std::int64_t m : {1, 16}) {
    const gd::SplitChoice c = choose(m, 4096, 4096, false, SplitKMode::automatic);
    ASSERT_GE(c.index, 0) << c.error.message();
    const gd::KernelInfo& k = gd::kernel_info(c.index);
    EXPECT_EQ(k.schedule, gk::Schedule::swap_ab) << m << " " << c.explanation;
    EXPECT_FALSE(k.b_k_major) << k.name;
  }
  // Not for M beyond one token tile, not when a kernel is forced by name.
  for (const auto& [m, k_major] : {std::pair{64, true}, std::pair{1024, true}, std::pair{64, false}}) {
    const gd::SplitChoice c = choose(m, 4096, 4096, k_major, SplitKMode::automatic);
    ASSERT_GE(c.index, 0) << c.error.message();
    EXPECT_NE(gd::kernel_info(c.index).schedule, gk::Schedule::swap_ab) << m << " " << c.explanation;
  }
  // Swap-AB grids with room for twice the CTAs and K for >= 48 k-blocks per slice: split in two,
  // summed in clusters of 2 (no workspace); not with K too short, too many tiles, split_k_cluster 1,
  // or split_k_mode none. (Measured, session 9: deepseek_v3.a M = 1 18.1 -> 12.9 us.) Stages of 4
  // k-blocks (block_k 256) for grids of at most a quarter of the SMs (session 18, deepseek_v3.a:
  // 14.2 us unsplit, 13.3 split); the tile whose grid is one wave (10240 rows: 80 tiles of 128
  // against 160 of 64), else the narrower (28672 rows: 224 tiles of 128, 448 of 64).
  struct Want { std::int64_t m, n, k; SplitKMode mode; int cluster; bool split; int block_n, block_k; };
  for (const Want& w : {Want{16, 2112, 7168, SplitKMode::automatic, 0, true, 64, 256},
                        Want{32, 2112, 7168, SplitKMode::automatic, 0, true, 64, 256},
                        Want{16, 4096, 14336, SplitKMode::automatic, 0, true, 64, 64},
                        Want{32, 4096, 14336, SplitKMode::automatic, 2, true, 64, 64},
                        Want{16, 8192, 14336, SplitKMode::automatic, 0, false, 64, 64},
                        Want{16, 4096, 8192, SplitKMode::automatic, 0, true, 64, 64},
                        Want{16, 28672, 8192, SplitKMode::automatic, 0, false, 64, 64},
                        Want{16, 7168, 2048, SplitKMode::automatic, 0, false, 64, 64},
                        Want{16, 10240, 8192, SplitKMode::automatic, 0, false, 128, 64},
                        Want{16, 2112, 7168, SplitKMode::automatic, 1, false, 64, 256},
                        Want{16, 2112, 7168, SplitKMode::none, 0, false, 64, 256}}) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, w.m, w.n, w.k, 132};
    r.mode = w.mode;
    r.cluster = w.cluster;
    r.max_workspace_bytes = std::size_t{1} << 30;
    const gd::SplitChoice c = gd::choose_split(r);
    ASSERT_GE(c.index, 0) << c.error.message();
    EXPECT_EQ(gd::kernel_info(c.index).schedule, gk::Schedule::swap_ab) << c.explanation;
    EXPECT_EQ(c.slices, w.split ? 2 : 1) << w.m << "x" << w.n << "x" << w.k << ": " << c.explanation;
    EXPECT_EQ(gd::kernel_info(c.index).block_n, w.block_n) << w.m << "x" << w.n << "x" << w.k << ": " << c.explanation;
    EXPECT_EQ(gd::kernel_info(c.index).block_k, w.block_k) << w.m << "x" << w.n << "x" << w.k << ": " << c.explanation;
    EXPECT_EQ(c.cluster, w.split ? 2 : 1) << c.explanation;
    EXPECT_EQ(c.workspace_bytes, 0u);
  }
  // describe() says why: the stage size and the grid.
  EXPECT_NE(choose(16, 2112, 7168, true, SplitKMode::none).explanation.find("stages of 256 k-columns (33 tiles"),
            std::string::npos);
  EXPECT_NE(choose(16, 10240, 8192, true, SplitKMode::none).explanation.find("80 tiles: one wave"), std::string::npos);
  const gd::SplitChoice forced = choose_forced(find("sm90_bf16_bf16_64x128x64_s8_c1x1_bk"), SplitKMode::none, 0);
  EXPECT_EQ(forced.index, find("sm90_bf16_bf16_64x128x64_s8_c1x1_bk"));
}

// Decode with B stored N x K: gemv. At most 8 tokens (8 a pass): 8 warps, 16 where one CTA an SM
// covers N or K >= 8192, except where the swap-AB choice runs a full wave of CTAs over K >= 8192
// (session 39). 9..16 tokens (16 a pass): where swap-AB's CTAs fill < 0.8 of the SMs, 2048 <= K
// <= 6144 and the gemv grid is one wave of more CTAs than SMs (8 warps up to 2 CTAs an SM, else
// 4) (session 40), or at 2048 <= K <= 4096 a grid of at most one CTA an SM (16 warps), or one of
// several waves whose last (3 CTAs an SM) is >= 0.75 full and at least as full as swap-AB's (4
// warps) (session 41). Measured: kGemvMaxM, kGemv16MaxM in sm90_heuristic.cpp. Never for B K x N, 17
// tokens, an explicit split or a forced kernel.
TEST(Sm90Heuristic, GemvForDecode) {
  struct Want { std::int64_t m, n, k; SplitKMode mode; int warps; int tokens = 8; };  // warps 0: not gemv
  for (const Want& w : {Want{1, 4096, 4096, SplitKMode::automatic, 8}, Want{8, 4096, 4096, SplitKMode::none, 8},
                        Want{1, 6144, 4096, SplitKMode::automatic, 8}, Want{1, 28672, 4096, SplitKMode::automatic, 8},
                        Want{1, 7168, 2048, SplitKMode::automatic, 8}, Want{1, 2112, 7168, SplitKMode::automatic, 16},
                        Want{1, 4096, 14336, SplitKMode::automatic, 16}, Want{1, 10240, 8192, SplitKMode::automatic, 16},
                        Want{1, 7168, 16384, SplitKMode::automatic, 16}, Want{1, 8192, 8192, SplitKMode::automatic, 0},
                        Want{1, 57344, 8192, SplitKMode::automatic, 0}, Want{1, 8192, 28672, SplitKMode::automatic, 0},
                        Want{1, 4096, 4096, SplitKMode::parallel, 0},
                        // 9..16 tokens
                        Want{9, 4096, 4096, SplitKMode::automatic, 8, 16}, Want{16, 4096, 4096, SplitKMode::none, 8, 16},
                        Want{16, 4096, 2048, SplitKMode::automatic, 8, 16}, Want{16, 6144, 4096, SplitKMode::automatic, 4, 16},
                        Want{12, 4096, 6144, SplitKMode::automatic, 8, 16}, Want{16, 4096, 1536, SplitKMode::automatic, 0},
                        Want{12, 28672, 4096, SplitKMode::automatic, 4, 16}, Want{16, 24576, 1536, SplitKMode::automatic, 0},
                        Want{16, 4096, 8192, SplitKMode::automatic, 0}, Want{16, 28672, 8192, SplitKMode::automatic, 0},
                        Want{16, 7168, 2048, SplitKMode::automatic, 0}, Want{16, 7168, 4096, SplitKMode::automatic, 0},
                        Want{16, 2112, 7168, SplitKMode::automatic, 0}, Want{16, 2048, 4096, SplitKMode::automatic, 16, 16},
                        Want{9, 1024, 2048, SplitKMode::automatic, 16, 16}, Want{12, 2112, 4096, SplitKMode::none, 16, 16},
                        Want{12, 2048, 8192, SplitKMode::automatic, 0}, Want{16, 1024, 1536, SplitKMode::automatic, 0},
                        // several waves
                        Want{16, 28672, 4096, SplitKMode::automatic, 4, 16}, Want{9, 10240, 2048, SplitKMode::automatic, 4, 16},
                        Want{12, 20480, 3072, SplitKMode::automatic, 4, 16}, Want{16, 57344, 4096, SplitKMode::automatic, 0},
                        Want{16, 8448, 4096, SplitKMode::automatic, 0}, Want{9, 14336, 2048, SplitKMode::automatic, 0},
                        Want{16, 28672, 6144, SplitKMode::automatic, 0},
                        Want{16, 14336, 4096, SplitKMode::automatic, 0}, Want{17, 4096, 4096, SplitKMode::automatic, 0},
                        Want{16, 4096, 4096, SplitKMode::parallel, 0}}) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, w.m, w.n, w.k, 132};
    r.mode = w.mode;
    r.max_workspace_bytes = std::size_t{1} << 30;
    const gd::SplitChoice c = gd::choose_split(r);
    ASSERT_GE(c.index, 0) << c.error.message();
    const gd::KernelInfo& k = gd::kernel_info(c.index);
    const std::string what = std::to_string(w.m) + "x" + std::to_string(w.n) + "x" + std::to_string(w.k) + ": " + c.explanation;
    EXPECT_EQ(k.schedule == gk::Schedule::gemv, w.warps > 0) << what;
    if (w.warps > 0) {
      EXPECT_EQ(k.threads, 32 * w.warps) << what;
      EXPECT_EQ(k.block_m, w.tokens) << what;
      EXPECT_EQ(c.slices, 1) << what;
      EXPECT_EQ(c.workspace_bytes, 0u) << what;
      EXPECT_NE(c.explanation.find("gemv: "), std::string::npos) << what;
    }
  }
  // Not with B stored K x N (no gemv instance), nor when a kernel is forced by name.
  gd::SplitRequest kn{gd::DTypeIn::bf16, gd::DTypeOut::bf16, false, 1, 4096, 4096, 132};
  kn.max_workspace_bytes = std::size_t{1} << 30;
  EXPECT_NE(gd::kernel_info(gd::choose_split(kn).index).schedule, gk::Schedule::gemv);
  const int swap = find("sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk");
  gd::SplitRequest forced{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 1, 4096, 4096, 132};
  forced.forced_kernel = swap;
  EXPECT_EQ(gd::choose_split(forced).index, swap);
}

// A forced kernel's slices are counted in its own k-blocks: 256 columns for stages of 4 k-blocks.
TEST(Sm90Schedule, ForcedSlicesCountTheKernelsOwnKBlocks) {
  const int wide = find("sm90_bf16_bf16_16x64x256_s5_c1x1_sw_bk");
  ASSERT_GE(wide, 0);
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 1, 2112, 1000, 132};  // 4 k-blocks of 256
  r.mode = SplitKMode::parallel;
  r.slices = 8;
  r.max_workspace_bytes = std::size_t{1} << 30;
  r.forced_kernel = wide;
  const gd::SplitChoice c = gd::choose_split(r);
  EXPECT_FALSE(c.error.ok());
  EXPECT_NE(c.error.message().find("split_k_slices = 8 exceeds the 4 k-blocks of K = 1000 (256 per block)"),
            std::string::npos)
      << c.error.message();
  r.slices = 4;  // 4 slices of one k-block each, summed in a cluster of 4
  const gd::SplitChoice ok = gd::choose_split(r);
  ASSERT_TRUE(ok.error.ok()) << ok.error.to_string();
  EXPECT_EQ(ok.slices, 4);
  EXPECT_EQ(ok.cluster, 4);
}

TEST(Sm90Schedule, ForcedSwapABSplitsOnlyWithinOneCluster) {
  const int one_wg = find("sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk");
  const int two_wg = find("sm90_bf16_bf16_16x128x64_s12_c1x1_sw_bk");
  ASSERT_GE(one_wg, 0);
  ASSERT_GE(two_wg, 0);
  auto choose = [](int forced, SplitKMode mode, int slices, int cluster) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 1, 2112, 7168, 132};
    r.mode = mode;
    r.slices = slices;
    r.cluster = cluster;
    r.max_workspace_bytes = std::size_t{1} << 30;
    r.forced_kernel = forced;
    r.cluster_capacity[1] = 66, r.cluster_capacity[2] = 32, r.cluster_capacity[3] = 16;
    return gd::choose_split(r);
  };
  // parallel (or automatic) with S slices: summed in a cluster of S, no workspace.
  for (auto [mode, slices, cluster] : {std::tuple{SplitKMode::parallel, 2, 0}, std::tuple{SplitKMode::parallel, 2, 2},
                                       std::tuple{SplitKMode::automatic, 2, 0}}) {
    const gd::SplitChoice c = choose(one_wg, mode, slices, cluster);
    ASSERT_TRUE(c.error.ok()) << c.error.to_string();
    EXPECT_EQ(c.index, one_wg);
    EXPECT_EQ(c.mode, gk::SplitMode::parallel);
    EXPECT_EQ(c.slices, slices);
    EXPECT_EQ(c.cluster, slices);
    EXPECT_EQ(c.workspace_bytes, 0u);
  }
  // 4 slices of 33 tiles: 132 CTAs in 33 clusters of 4, more than the 32 co-resident ones.
  EXPECT_FALSE(choose(one_wg, SplitKMode::parallel, 4, 4).error.ok());
  // The 128-row tile: 17 tiles, in clusters of 2 or 4; of 8 (two consumer warpgroups: 8 warps)
  // 17 clusters, more than the 16 co-resident ones.
  for (int s : {2, 4}) {
    const gd::SplitChoice c = choose(two_wg, SplitKMode::parallel, s, s);
    ASSERT_TRUE(c.error.ok()) << s << ": " << c.error.to_string();
    EXPECT_EQ(c.cluster, s);
  }
  const gd::SplitChoice by8 = choose(two_wg, SplitKMode::parallel, 8, 8);
  EXPECT_NE(by8.error.message().find("co-resident"), std::string::npos) << by8.error.message();
  // Errors, each saying what to do: serial; slices not summed within one cluster; 8 with 4 warps.
  for (auto [forced, mode, slices, cluster, what] :
       {std::tuple{one_wg, SplitKMode::serial, 2, 0, "split_k_mode = SplitKMode::parallel"},
        std::tuple{one_wg, SplitKMode::parallel, 4, 2, "must equal split_k_cluster"},
        std::tuple{one_wg, SplitKMode::parallel, 3, 0, "must equal split_k_cluster"},
        std::tuple{one_wg, SplitKMode::parallel, 8, 8, "must equal split_k_cluster"},
        std::tuple{two_wg, SplitKMode::parallel, 4, 1, "must equal split_k_cluster"}}) {
    const gd::SplitChoice c = choose(forced, mode, slices, cluster);
    EXPECT_FALSE(c.error.ok()) << slices << " " << cluster;
    EXPECT_NE(c.error.message().find(what), std::string::npos) << c.error.message();
  }
  // The launcher: splits == split_cluster, parallel only (refused before any tensor map is made).
  gk::GemmParams p;
  p.m = 1;
  p.n = 2112;
  p.k = 7168;
  p.a = p.b = p.d = reinterpret_cast<void*>(std::uintptr_t{1} << 20);  // aligned; never dereferenced
  p.lda = p.ldb = p.k;
  p.ldd = p.n;
  gd::LaunchArgsStorage storage;
  for (auto [mode, splits, cluster] : {std::tuple{gk::SplitMode::parallel, 4, 1}, std::tuple{gk::SplitMode::parallel, 4, 2},
                                       std::tuple{gk::SplitMode::serial, 2, 2}, std::tuple{gk::SplitMode::parallel, 8, 8},
                                       std::tuple{gk::SplitMode::none, 2, 2}, std::tuple{gk::SplitMode::stream_k, 2, 1}}) {
    p.split_mode = mode;
    p.splits = splits;
    p.split_cluster = cluster;
    EXPECT_EQ(gd::kernel_make_launch_args(one_wg, p, 132, storage), cudaErrorInvalidValue) << splits << " " << cluster;
  }
}

// The wide swap-AB tile (256 tokens x 64 weight columns): no split-K of any kind (a split request
// with it forced by name is an error that says so; automatic runs it unsplit), and automatic takes
// it only by its rule: where the first choice's one wave leaves SMs idle and its own 132 tiles
// fill them (1024 x 2112 x 7168 with B K x N), not with B N x K there (128x136: 128 CTAs), not for
// decode-sized M.
// Decode with 9-32 tokens at long K where N / 64 tiles of 64 weight rows fill most of one wave
// (N = 7168: 112 of 132 SMs): automatic takes the 32x128 swap-AB tile unsplit in both B layouts
// (not split in clusters); not at K < 8192, not where the 64-row tiles fill the SMs (N = 8192) or
// leave half idle (N = 4096), not at M <= 8.
TEST(Sm90Schedule, SwapAB32x128UnsplitWhere64RowTilesMostlyFillOneWave) {
  for (bool b_k_major : {true, false}) {
    auto choose = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
      gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
      r.max_workspace_bytes = std::size_t{32} << 20;
      return gd::choose_split(r);
    };
    for (std::int64_t m : {9, 16, 32})
      for (std::int64_t k : {8192, 16384}) {
        const gd::SplitChoice c = choose(m, 7168, k);
        ASSERT_GE(c.index, 0);
        const gd::KernelInfo& ki = gd::kernel_info(c.index);
        EXPECT_EQ(ki.schedule, gk::Schedule::swap_ab) << c.explanation;
        EXPECT_EQ(ki.block_m, 32) << c.explanation;
        EXPECT_EQ(ki.block_n, 128) << c.explanation;
        EXPECT_EQ(c.slices, 1) << c.explanation;
      }
    for (auto [m, n, k] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{16, 7168, 4096}, {16, 8192, 16384},
                           {16, 4096, 16384}}) {
      const gd::SplitChoice c = choose(m, n, k);
      EXPECT_EQ(c.explanation.find("unsplit, "), std::string::npos) << m << "x" << n << "x" << k << ": " << c.explanation;
    }
    const gd::SplitChoice m8 = choose(8, 7168, 16384);  // gemv (N x K) or the decode swap tile (K x N)
    EXPECT_EQ(m8.explanation.find("unsplit, "), std::string::npos) << m8.explanation;
  }
}

TEST(Sm90Schedule, WideSwapABTile) {
  for (bool b_k_major : {true, false}) {
    const int wide = find(b_k_major ? "sm90_bf16_bf16_256x64x64_s5_c1x1_sw_bk" : "sm90_bf16_bf16_256x64x64_s5_c1x1_sw_bn");
    ASSERT_GE(wide, 0);
    auto forced = [&](SplitKMode mode, int slices) { return choose_forced(wide, mode, slices, b_k_major, 1024, 2112, 7168); };
    for (auto [mode, slices] : {std::pair{SplitKMode::serial, 0}, std::pair{SplitKMode::parallel, 2},
                                std::pair{SplitKMode::automatic, 4}}) {
      const gd::SplitChoice c = forced(mode, slices);
      EXPECT_FALSE(c.error.ok());
      EXPECT_NE(c.error.message().find("without split-K"), std::string::npos) << c.error.message();
    }
    const gd::SplitChoice unsplit = forced(SplitKMode::automatic, 0);
    ASSERT_TRUE(unsplit.error.ok()) << unsplit.error.to_string();
    EXPECT_EQ(unsplit.index, wide);
    EXPECT_EQ(unsplit.slices, 1);

    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, 1024, 2112, 7168, 132};
    const gd::SplitChoice a = gd::choose_split(r);
    ASSERT_TRUE(a.error.ok()) << a.error.to_string();
    EXPECT_EQ(a.index == wide, !b_k_major) << a.explanation;
    for (std::int64_t m : {1, 16, 32, 256}) {  // decode and M below kWideSwapMinM: never
      r.m = m;
      const gd::SplitChoice d = gd::choose_split(r);
      ASSERT_GE(d.index, 0);
      EXPECT_NE(gd::kernel_info(d.index).block_m, 256) << m << ": " << d.explanation;
    }
  }
}


TEST(Sm90Schedule, LauncherChecksClusterSums) {
  const int i = find("sm90_bf16_bf16_64x128x64_s8_c1x1_bk");
  const int wide = find("sm90_bf16_bf16_128x256x64_s4_c1x1_bk");
  const int pair = find("sm90_bf16_bf16_128x128x64_s6_c1x2_bk");
  ASSERT_GE(i, 0);
  gk::GemmParams p;
  p.m = p.n = 128;
  p.k = 16384;
  p.a = p.b = p.d = reinterpret_cast<void*>(std::uintptr_t{1} << 20);  // aligned; never dereferenced
  p.lda = p.ldb = p.k;
  p.ldd = p.n;
  p.split_mode = gk::SplitMode::parallel;
  p.splits = 8;
  gd::LaunchArgsStorage storage;
  // (The accepted launch, 2 clusters of 8 without a memset, is checked on a GPU: encoding the
  // tensor maps needs the driver. Everything below is refused before that.)
  for (int bad_cluster : {3, 16}) {
    p.split_cluster = bad_cluster;
    EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue) << bad_cluster;
  }
  p.split_cluster = 8;
  p.splits = 12;  // not whole clusters of slices
  EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue);
  p.splits = 8;
  p.split_mode = gk::SplitMode::serial;
  EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue);
  p.split_mode = gk::SplitMode::parallel;
  EXPECT_EQ(gd::kernel_make_launch_args(wide, p, 132, storage), cudaErrorInvalidValue);
  EXPECT_EQ(gd::kernel_make_launch_args(pair, p, 132, storage), cudaErrorInvalidValue);
  // Every cluster holds one unit: 64 x 32 tiles x 8 slices / 8 = 2048 clusters do not fit.
  p.m = 4096;
  p.n = 4096;
  p.ldd = p.n;
  EXPECT_EQ(gd::kernel_make_launch_args(i, p, 132, storage), cudaErrorInvalidValue);
}

TEST(Sm90Heuristic, SumsSlicesWithinClustersForSkinnyKHeavyShapes) {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k, int cluster) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{1} << 30;
    r.cluster = cluster;
    return gd::choose_split(r);
  };
  // 128 x 1024 x 16384 (8 tiles of 128x128, K = 16384): 8 slices, all summed within one cluster
  // per tile, so no workspace (H100, session 22, experiments_s22/final: 20.5-20.7 us, the best of
  // ours there; through the workspace 128x128 in 8 / 16 slices 21.9 / 25.8, 64x128 23.0 / 26.2).
  // The explanation says so.
  const gd::SplitChoice c = choose(128, 1024, 16384, 0);
  ASSERT_GE(c.index, 0) << c.error.message();
  EXPECT_EQ(c.mode, gk::SplitMode::parallel) << c.explanation;
  EXPECT_GT(c.cluster, 1) << c.explanation;
  EXPECT_EQ(c.slices, c.cluster) << c.explanation;
  EXPECT_EQ(c.workspace_bytes, 0u) << c.explanation;
  EXPECT_TRUE(gd::kernel_info(c.index).split_cluster) << c.explanation;
  EXPECT_NE(c.explanation.find("summed in clusters of " + std::to_string(c.cluster) + " (no workspace)"), std::string::npos)
      << c.explanation;
  // 256 x 256 x 16384 (8 tiles of 64x128): 8 slices through the workspace rather than summed in
  // clusters of 8 (H100, session 21: 13.1-13.2 us in both split-K tables and call 9's three rounds,
  // against 13.5-14.0 in clusters of 8; the 64x128 split units' efficiency, session 22).
  const gd::SplitChoice w = choose(256, 256, 16384, 0);
  ASSERT_GE(w.index, 0) << w.error.message();
  EXPECT_EQ(w.mode, gk::SplitMode::parallel) << w.explanation;
  EXPECT_EQ(w.slices, 8) << w.explanation;
  EXPECT_EQ(w.cluster, 1) << w.explanation;
  EXPECT_GT(w.workspace_bytes, 0u) << w.explanation;
  EXPECT_EQ(gd::kernel_info(w.index).block_m, 64) << w.explanation;
  EXPECT_EQ(gd::kernel_info(w.index).block_n, 128) << w.explanation;
  EXPECT_EQ(w.explanation.find("clusters"), std::string::npos) << w.explanation;
  // Sums that still go through the workspace cost a cluster sum on top of it (measured): never
  // chosen automatically.
  for (const auto& [m, n, k] : {std::tuple{128, 128, 16384}, std::tuple{64, 64, 65536}, std::tuple{256, 256, 16384}}) {
    const gd::SplitChoice s = choose(m, n, k, 0);
    EXPECT_TRUE(s.cluster == 1 || s.slices == s.cluster) << s.explanation;
  }
  // 128 x 1536 x 7168: summed in clusters it would put two clusters of 8 on some GPCs, each GPC
  // streaming at one rate (session 8): not summed in clusters (H100, sessions 14-19: 15.5-15.7 us
  // on unsplit 64x64 tiles against 16.2-16.7 summed in 12 clusters of 8).
  const gd::SplitChoice unsplit = choose(128, 1536, 7168, 0);
  EXPECT_EQ(unsplit.cluster, 1) << unsplit.explanation;
  // split_k_cluster = 1: never; = 4: exactly 4.
  const gd::SplitChoice none = choose(128, 128, 16384, 1);
  EXPECT_EQ(none.cluster, 1) << none.explanation;
  EXPECT_EQ(none.explanation.find("clusters"), std::string::npos) << none.explanation;
  const gd::SplitChoice four = choose(128, 128, 16384, 4);
  EXPECT_EQ(four.cluster, 4) << four.explanation;
  // Large problems stay unsplit.
  EXPECT_EQ(choose(4096, 4096, 4096, 0).slices, 1);
}

// The 64x64 tile: automatic takes it unsplit where the larger tiles leave most SMs idle on a
// load-bound GEMM (session 14, H100, two A/B rounds: 256 x 2112 x 7168, 132 tiles, 20.4-21.6 us
// against 23.2-25.8 on 68 tiles of 64x128), not where they already stream near the DRAM bound (64 x 6144 x 4096); in automatic
// splits only for outputs of at most 128 x 128 (faster there, slower at 128 x 256 and 256 x 256);
// forced by name it splits anything.
TEST(Sm90Heuristic, SmallTileOnlyWhereLargerTilesLeaveSmsIdle) {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k, int forced = -1, int slices = 0) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{32} << 20;
    r.forced_kernel = forced;
    r.slices = slices;
    return gd::choose_split(r);
  };
  auto is_small = [](const gd::SplitChoice& c) {
    return c.index >= 0 && gd::kernel_info(c.index).block_m == 64 && gd::kernel_info(c.index).block_n == 64;
  };
  for (const auto& [m, n, k] : {std::tuple{256, 2112, 7168}, std::tuple{128, 2112, 7168}, std::tuple{64, 4096, 4096},
                                std::tuple{128, 4096, 14336}}) {
    const gd::SplitChoice c = choose(m, n, k);
    EXPECT_TRUE(is_small(c)) << m << "x" << n << "x" << k << ": " << c.explanation;
    EXPECT_EQ(c.slices, 1) << c.explanation;
    EXPECT_NE(c.explanation.find("tiles of 64x64 on 132 SMs: predicted"), std::string::npos) << c.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{64, 6144, 4096}, std::tuple{256, 4096, 4096}, std::tuple{256, 8192, 8192},
                                std::tuple{128, 256, 32768}, std::tuple{256, 256, 16384}}) {
    const gd::SplitChoice c = choose(m, n, k);
    EXPECT_FALSE(is_small(c)) << m << "x" << n << "x" << k << ": " << c.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{128, 128, 16384}, std::tuple{64, 64, 65536}}) {
    const gd::SplitChoice c = choose(m, n, k);
    EXPECT_TRUE(is_small(c)) << m << "x" << n << "x" << k << ": " << c.explanation;
    EXPECT_GT(c.slices, 1) << c.explanation;
  }
  // B stored K x N has its own 64x64 tile (session 23), taken by the same rule.
  const gd::KernelChoice kn = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, false, 256, 2112, 7168, 132);
  ASSERT_GE(kn.index, 0);
  EXPECT_STREQ(gd::kernel_info(kn.index).name, "sm90_bf16_bf16_64x64x64_s13_c1x1_bn") << kn.explanation;
  const int small = gd::find_kernel("sm90_bf16_bf16_64x64x64_s13_c1x1_bk");
  ASSERT_GE(small, 0);
  const gd::SplitChoice forced = choose(128, 128, 16384, small, 16);
  EXPECT_EQ(forced.index, small) << forced.explanation;
  EXPECT_EQ(forced.slices, 16) << forced.explanation;
}

// The 64x64 tile also in place of 64x128 where its CTAs fill the last wave >= 0.8 full and >= 1.25x
// as full, at 1024 <= K <= 3072 (B K x N: 2048): session 41, H100, two rounds, 0.93-0.99x the time
// on 35 of 36 such rows; slower where 64x64 still leaves a quarter of the SMs idle (N = 5120 /
// 6144), at K = 512 and at longer K.
TEST(Sm90Heuristic, SmallTileWhereItFillsTheLastWave) {
  auto choose = [](bool b_k_major, std::int64_t m, std::int64_t n, std::int64_t k) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{32} << 20;
    return gd::choose_split(r);
  };
  auto tile = [](const gd::SplitChoice& c) {
    return c.index < 0 ? std::string("none")
                       : std::to_string(gd::kernel_info(c.index).block_m) + "x" + std::to_string(gd::kernel_info(c.index).block_n);
  };
  struct Want {
    bool b_k_major;
    std::int64_t m, n, k;
    const char* tile;
  };
  for (const Want& w : {Want{true, 64, 7168, 2048, "64x64"}, Want{true, 33, 24576, 1536, "64x64"},
                        Want{true, 48, 8192, 3072, "64x64"}, Want{false, 48, 24576, 2048, "64x64"},
                        Want{false, 64, 7168, 1024, "64x64"},
                        // fill 0.61 / 0.73: 64x128 stays
                        Want{true, 64, 5120, 2048, "64x128"}, Want{true, 64, 6144, 2048, "64x128"},
                        // K outside [1024, 3072] (B K x N: 2048)
                        Want{true, 64, 24576, 512, "64x128"}, Want{true, 64, 7168, 4096, "64x128"},
                        Want{false, 64, 7168, 3072, "64x128"},
                        // two M tiles of 64: 64x128 fills as much as 64x64
                        Want{true, 128, 7168, 2048, "64x128"}}) {
    const gd::SplitChoice c = choose(w.b_k_major, w.m, w.n, w.k);
    const std::string where = (w.b_k_major ? "NxK " : "KxN ") + std::to_string(w.m) + "x" + std::to_string(w.n) + "x" +
                              std::to_string(w.k) + ": " + c.explanation;
    EXPECT_EQ(tile(c), w.tile) << where;
    EXPECT_EQ(c.slices, 1) << where;
    if (std::string(w.tile) == "64x64") EXPECT_NE(c.explanation.find("of the last wave's 132 SMs"), std::string::npos) << where;
  }
}

// A cluster tile only past two waves: with one or two, the same tile without a cluster (session
// 14, H100, three rounds: llama3_8b.o M = 1024, 128 tiles of 128x256, 0.936-0.942 -> 0.962-0.967x
// cuBLASLt in 1x1 clusters); from four waves on the 2x1 multicast tile stays.
TEST(Sm90Heuristic, ClusterTileOnlyPastTwoWaves) {
  auto chosen = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132);
    EXPECT_GE(c.index, 0);
    return gd::kernel_info(c.index);
  };
  for (const auto& [m, n, k] : {std::tuple{1024, 4096, 4096}, std::tuple{1024, 8192, 8192}}) {
    const gd::KernelInfo ki = chosen(m, n, k);
    EXPECT_EQ(ki.block_m * ki.block_n, 128 * 256) << ki.name;
    EXPECT_EQ(ki.cluster_m * ki.cluster_n, 1) << ki.name;
  }
  const gd::KernelInfo big = chosen(12288, 12288, 12288);
  EXPECT_EQ(big.block_m * big.block_n, 128 * 256) << big.name;
  EXPECT_EQ(big.cluster_m, 2) << big.name;
}

// Automatic split-K ranks splits through the workspace with the programmatic launch they will get
// (session 13, H100: 128x256x32768 at 16 slices, 64 work units and programmatic, 14.8 us against
// 16.2 at the 21 slices the model alone then preferred, whose 84 units get no programmatic launch;
// since session 22's 64x128 split-unit efficiency the model alone takes 16 there too). 256x256x16384:
// 8 slices through the workspace, programmatic (session 21: 13.1-13.2 us), against the same 8
// slices summed in clusters of 8 (13.5-14.0 us; no programmatic launch), which the model alone
// predicts faster.
TEST(Sm90Heuristic, SplitRankingCountsTheProgrammaticLaunch) {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k, ProgrammaticLaunch pdl) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{32} << 20;
    r.programmatic = pdl;
    return gd::choose_split(r);
  };
  const gd::SplitChoice with = choose(256, 256, 16384, ProgrammaticLaunch::automatic);
  const gd::SplitChoice without = choose(256, 256, 16384, ProgrammaticLaunch::off);
  ASSERT_GE(with.index, 0) << with.error.message();
  ASSERT_GE(without.index, 0) << without.error.message();
  EXPECT_EQ(with.mode, gk::SplitMode::parallel) << with.explanation;
  EXPECT_EQ(with.cluster, 1) << with.explanation;
  EXPECT_TRUE(gd::programmatic_pays(gd::kernel_info(with.index), 256, 256, with.slices, with.cluster, 132)) << with.explanation;
  EXPECT_GT(without.cluster, 1) << without.explanation;
  EXPECT_FALSE(gd::programmatic_pays(gd::kernel_info(without.index), 256, 256, without.slices, without.cluster, 132))
      << without.explanation;
  // Ranking only: the reported prediction is the model's, without the programmatic gain.
  EXPECT_GT(with.predicted_us, 0.0);
  EXPECT_GE(with.predicted_us, without.predicted_us);
  for (ProgrammaticLaunch pdl : {ProgrammaticLaunch::automatic, ProgrammaticLaunch::off}) {
    const gd::SplitChoice c = choose(128, 256, 32768, pdl);
    EXPECT_EQ(c.slices, 16) << c.explanation;
    EXPECT_EQ(c.cluster, 1) << c.explanation;
  }
}

// Automatic serial split-K: 2 slices, only where the split grid keeps half the SMs idle, against
// unsplit or a split through the workspace (kSerialSplitGain). MEASURED (H100, session 21 / 22):
// 64x2112x7168 unsplit 64x64 15.8-15.9 us -> serial 2 slices 15.1-15.2; 192x384x4096 9.6 -> 8.2.
// Not taken: 512x512x16384 (128 CTAs: 29.1 us against 24.8 for 4 parallel slices), 256x4096x14336
// (128 CTAs of 128x128: 57.3-57.6 against 53.9 unsplit), 128x2112x7168 (132 CTAs: 17.4 against
// 16.3-16.5), 320x128x4096 (the parallel split ranks first: 7.4 against 8.2). Taken since the
// 128x128 cluster-sum refit (kClusterSumFloors; call 8, experiments_s22/split_sweep): 256x512x4096
// (8 slices of 128x128 in clusters of 8 10.2 us -> serial 64x64 8.4), 512x256x8192 (12.9 -> 12.2).
TEST(Sm90Heuristic, SerialSplitOnlyWithinHalfTheSms) {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{32} << 20;
    return gd::choose_split(r);
  };
  for (const auto& [m, n, k] : {std::tuple{64, 2112, 7168}, std::tuple{192, 384, 4096}, std::tuple{256, 512, 4096},
                                std::tuple{512, 256, 8192}}) {
    const gd::SplitChoice c = choose(m, n, k);
    ASSERT_GE(c.index, 0) << c.error.message();
    EXPECT_EQ(c.mode, gk::SplitMode::serial) << m << "x" << n << "x" << k << ": " << c.explanation;
    EXPECT_EQ(c.slices, 2) << c.explanation;
    EXPECT_LE(2 * gd::busy_ctas(gd::kernel_info(c.index), m, n, c.slices, 132), 132) << c.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{512, 512, 16384}, std::tuple{256, 4096, 14336}, std::tuple{128, 2112, 7168},
                                std::tuple{320, 128, 4096}, std::tuple{1024, 1024, 16384}}) {
    const gd::SplitChoice c = choose(m, n, k);
    ASSERT_GE(c.index, 0) << c.error.message();
    EXPECT_NE(c.mode, gk::SplitMode::serial) << m << "x" << n << "x" << k << ": " << c.explanation;
  }
}

// Two M tiles sharing B: where automatic took the cooperative 128x128 tile, M spans two 128-row
// tiles and K >= 8192, the 2x1-cluster tile with the most CTAs in one wave of clusters (session 26,
// H100: deepseek_v3.c 256x7168x16384 112.2 -> 103.8 us on 128x112; llama3_70b.down 256x8192x28672
// 204.1 -> 194.0 and llama3_70b.o 256x8192x8192 56.7 -> 55.9 on 128x128); from K = 4096 on where it
// also keeps more SMs busy (session 46: 256x6144x4096 0.979x automatic's time); 128x112 in several
// waves of clusters where the model ranks them cheaper than ping-pong or 128x256 (session 46:
// 256x28672x4096 0.946x, 256x14336x8192 0.935x). Not at short K, one M tile, many M tiles, in waves
// that quantize worse than the first choice's, nor where another tile keeps more SMs busy.
TEST(Sm90Heuristic, PairTilesForTwoMTilesAndLongK) {
  auto chosen = [](std::int64_t m, std::int64_t n, std::int64_t k, int capacity = 0) {
    const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132, false, capacity);
    EXPECT_GE(c.index, 0);
    return c;
  };
  const gd::KernelChoice c7168 = chosen(256, 7168, 16384);
  const gd::KernelInfo& k7168 = gd::kernel_info(c7168.index);
  EXPECT_STREQ(k7168.name, "sm90_bf16_bf16_128x112x64_s7_c2x1_bk") << c7168.explanation;
  EXPECT_NE(c7168.explanation.find("share B"), std::string::npos) << c7168.explanation;
  EXPECT_STREQ(gd::kernel_info(chosen(200, 7168, 16384).index).name, "sm90_bf16_bf16_128x112x64_s7_c2x1_bk");
  for (const auto& [m, n, k] : {std::tuple{256, 8192, 28672}, std::tuple{256, 8192, 8192}})
    EXPECT_STREQ(gd::kernel_info(chosen(m, n, k).index).name, "sm90_bf16_bf16_128x128x64_s6_c2x1_bk") << n << " " << k;
  // Fewer co-resident clusters than 64: the pair does not fit one wave.
  EXPECT_STRNE(gd::kernel_info(chosen(256, 8192, 8192, 60).index).name, "sm90_bf16_bf16_128x128x64_s6_c2x1_bk");
  for (const auto& [m, n, k] : {std::tuple{256, 6144, 4096}, std::tuple{192, 7168, 4096}, std::tuple{256, 28672, 4096},
                                std::tuple{256, 14336, 8192}, std::tuple{160, 28672, 14336}}) {
    const gd::KernelChoice c = chosen(m, n, k);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x112x64_s7_c2x1_bk") << m << "x" << n << "x" << k;
    EXPECT_NE(c.explanation.find(n > 8192 ? "waves of 66" : "in one wave"), std::string::npos) << c.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{256, 7168, 2048}, std::tuple{256, 8192, 4096}, std::tuple{128, 7168, 16384},
                                std::tuple{512, 7168, 16384}, std::tuple{4096, 8192, 8192}, std::tuple{256, 10240, 8192},
                                std::tuple{256, 4096, 14336}, std::tuple{256, 57344, 8192}, std::tuple{256, 24576, 1536},
                                std::tuple{256, 28672, 2048}, std::tuple{192, 5120, 8192}}) {
    const gd::KernelInfo& ki = gd::kernel_info(chosen(m, n, k).index);
    EXPECT_FALSE(ki.cluster_m == 2 && ki.block_n <= 128) << m << "x" << n << "x" << k << ": " << ki.name;
  }
  // B stored K x N (session 43): 128x128 in 2x1 clusters where it takes the cooperative 128x128 tile
  // (no 128x112 with an N-major B: a box is 64 columns), not at short K.
  for (const auto& [m, n, k] : {std::tuple{256, 8192, 8192}, std::tuple{256, 7168, 16384}, std::tuple{256, 8192, 28672}}) {
    const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, false, m, n, k, 132, false, 0);
    ASSERT_GE(c.index, 0);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x128x64_s6_c2x1_bn") << n << " " << k << ": " << c.explanation;
  }
  {
    const gd::KernelChoice c = gd::choose_kernel(gd::DTypeIn::bf16, gd::DTypeOut::bf16, false, 256, 7168, 2048, 132, false, 0);
    ASSERT_GE(c.index, 0);
    EXPECT_STRNE(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x128x64_s6_c2x1_bn") << c.explanation;
  }
  // Never split automatically (256x7168x16384 with automatic split-K stays unsplit on the pair).
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 256, 7168, 16384, 132};
  r.max_workspace_bytes = std::size_t{1} << 30;
  const gd::SplitChoice s = gd::choose_split(r);
  EXPECT_EQ(s.index, c7168.index) << s.explanation;
  EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
}

// The wave tile 128x144 (B stored N x K, session 56): weighed after the narrow and pair rules, taken
// where the cost model ranks it cheaper than the first choice, K >= 3072 (experiments_s55/call11's
// faster rows, from 3584; session 59: 1536 / 768 x 3072 x 3072); not where the model ranks it
// costlier, not with B stored K x N, and never split automatically.
TEST(Sm90Heuristic, WaveTileWhereItTakesFewerWaves) {
  const auto chosen = chosen_bf16;
  for (const auto& [m, n, k] : {std::tuple{3072, 1536, 7168}, std::tuple{1536, 1536, 7168}, std::tuple{384, 18432, 16384},
                                std::tuple{512, 4608, 3584}, std::tuple{1536, 3072, 3072}, std::tuple{768, 3072, 3072}}) {
    const gd::KernelChoice c = chosen(true, m, n, k);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x144x64_s5_c1x1_bk") << m << "x" << n << "x" << k << ": "
                                                                                          << c.explanation;
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{1} << 30;
    const gd::SplitChoice s = gd::choose_split(r);
    if (s.index == c.index) EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
  }
  // Ranked costlier (2048 x 1536 x 7168 and 768 x 4096 x 4096 took 1.5x automatic's time with it in
  // call 11), and below K = 3072, the shortest K measured (640 x 7168 x 2048: the model's choice
  // without that bound).
  for (const auto& [m, n, k] : {std::tuple{2048, 1536, 7168}, std::tuple{768, 4096, 4096}, std::tuple{8192, 8192, 8192},
                                std::tuple{4096, 4096, 4096}, std::tuple{2048, 5120, 2880}, std::tuple{1024, 2112, 7168},
                                std::tuple{640, 7168, 2048}}) {
    const gd::KernelChoice c = chosen(true, m, n, k);
    EXPECT_NE(gd::kernel_info(c.index).block_n, 144) << m << "x" << n << "x" << k << ": " << c.explanation;
  }
  // Not in place of a 64-row first choice (session 57, call 1: 160 / 192 x 27648 x 5120 1.05-1.07x
  // 64x128's time).
  for (const auto& [m, n, k] : {std::tuple{160, 27648, 5120}, std::tuple{192, 27648, 5120}})
    EXPECT_STREQ(gd::kernel_info(chosen(true, m, n, k).index).name, "sm90_bf16_bf16_64x128x64_s8_c1x1_bk") << m << "x" << n << "x" << k;
  EXPECT_NE(gd::kernel_info(chosen(false, 3072, 1536, 7168).index).block_n, 144);
  // The pair rule's measured rows keep the pair (weighed before the wave tile; session 56, call 1).
  for (const auto& [m, n, k] : {std::tuple{200, 27648, 4096}, std::tuple{256, 27648, 5120}, std::tuple{240, 13824, 5120}})
    EXPECT_STREQ(gd::kernel_info(chosen(true, m, n, k).index).name, "sm90_bf16_bf16_128x112x64_s7_c2x1_bk") << m << "x" << n << "x" << k;
  // The narrow rule's (1024 x 1536 x 7168: one wave of 128 CTAs of 128x96) too.
  EXPECT_STREQ(gd::kernel_info(chosen(true, 1024, 1536, 7168).index).name, "sm90_bf16_bf16_128x96x64_s6_c1x1_bk");
  // Automatic split-K never takes it (a forced split does).
  expect_split_only_when_forced(144, SplitKMode::parallel, {{128, 1536, 65536}, {64, 4608, 16384}, {256, 1536, 32768}});
}

// The narrow ping-pong tile 128x112 (B stored N x K, session 58) in place of ping-pong 128x128 where the
// cost model ranks it at most kPingpongNarrowGain of that choice's cost (its tiles deal evener waves:
// 512 x 7168 x 2048 256 tiles against 224, 1024 x 7168 x 2048, 640 x 5120 x 2880); not where ping-pong
// 128x128 deals as evenly (512 x 28672 x 4096, 768 x 24576 x 1536) or K < kPingpongNarrowMinK (1280 x
// 4096 x 1024: 1.01x in session 58's call E); in place of a cooperative 128-row first choice at M >
// 256 (call F: 2048 x 2560 x 2560, 1280 x 10240 x 5120, 768 x 4608 x 3584) but not where its tiles
// leave SMs without one (320 / 512 x 3584 x 18944: serial 2 / 128x128 stay), nor at M <= 256 (the pair
// rule's 256 x 28672 x 4096), nor where it is costlier (4096 / 8192 x 7168 x 2048), nor with B K x N (no
// such tile); never split automatically.
TEST(Sm90Heuristic, NarrowPingpongTileWhereItDealsEvenerWaves) {
  const auto chosen = chosen_bf16;
  for (const auto& [m, n, k] : {std::tuple{512, 7168, 2048}, std::tuple{1024, 7168, 2048}, std::tuple{640, 5120, 2880},
                                std::tuple{768, 7168, 2048}, std::tuple{2048, 2560, 2560}, std::tuple{1280, 10240, 5120},
                                std::tuple{768, 4608, 3584}}) {
    const gd::KernelChoice c = chosen(true, m, n, k);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x112x64_s7_c1x1_pp_bk") << m << "x" << n << "x" << k << ": "
                                                                                             << c.explanation;
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{1} << 30;
    const gd::SplitChoice s = gd::choose_split(r);
    EXPECT_EQ(s.index, c.index) << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{512, 28672, 4096}, std::tuple{768, 24576, 1536}, std::tuple{1280, 4096, 1024}})
    EXPECT_STREQ(gd::kernel_info(chosen(true, m, n, k).index).name, "sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk") << m << "x" << n << "x" << k;
  for (const auto& [m, n, k] : {std::tuple{256, 28672, 4096}, std::tuple{4096, 7168, 2048}, std::tuple{8192, 7168, 2048},
                                std::tuple{256, 7168, 2048}, std::tuple{320, 3584, 18944}, std::tuple{512, 3584, 4096}})
    EXPECT_STRNE(gd::kernel_info(chosen(true, m, n, k).index).name, "sm90_bf16_bf16_128x112x64_s7_c1x1_pp_bk") << m << "x" << n << "x" << k;
  EXPECT_NE(gd::kernel_info(chosen(false, 512, 7168, 2048).index).block_n, 112);
}

// ... and by its second criterion (session 59, kPingpongEvenShare / kPingpongEvenMinK /
// kPingpongEvenMinFill): where the busiest CTA computes at most 7/8 of the first choice's output
// columns, K >= 5120, at least 85% of the SMs busy, M <= 1024: 512 x 3584 x 18944 (128 tiles against
// 112 of 128x128), 640 x 2560 x 10240 (115 against 100 of 128x128), 1024 x 3584 x 18944, 512 / 1024 x
// 7168 x 16384, 640 x 5120 x 5120 (two 112-column tiles against one 128x256 a CTA), never split. Not
// at K <= 4096 (512 x 3584 x 4096, 512 x 3072 x 3072), where the 128x256 tile's energy per FLOP rules
// out ping-pong (4096 x 3584 x 18944) or M > 1024 (2048 x 3584 x 18944, 1280 x 2560 x 10240), where a
// one-wave split rule takes the shape (384 x 3584 x 18944 serial, 640 x 5120 x 17920 stream-K), at a
// share above 7/8 (1024 x 18432 x 16384), nor with B K x N.
TEST(Sm90Heuristic, NarrowPingpongTileWhereTheBusiestCtaComputesFewerColumns) {
  const auto chosen = chosen_bf16;
  for (const auto& [m, n, k] : {std::tuple{512, 3584, 18944}, std::tuple{640, 2560, 10240}, std::tuple{1024, 3584, 18944},
                                std::tuple{512, 7168, 16384}, std::tuple{1024, 7168, 16384},
                                std::tuple{640, 5120, 5120}}) {
    const gd::KernelChoice c = chosen(true, m, n, k);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x112x64_s7_c1x1_pp_bk") << m << "x" << n << "x" << k << ": "
                                                                                             << c.explanation;
    EXPECT_NE(c.explanation.find("the busiest CTA computes"), std::string::npos) << c.explanation;
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    EXPECT_EQ(s.index, c.index) << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{512, 3584, 4096}, std::tuple{512, 3072, 3072}, std::tuple{4096, 3584, 18944},
                                std::tuple{2048, 3584, 18944}, std::tuple{1280, 2560, 10240}, std::tuple{1024, 18432, 16384}})
    EXPECT_NE(gd::kernel_info(chosen(true, m, n, k).index).schedule, gk::Schedule::pingpong) << m << "x" << n << "x" << k;
  EXPECT_EQ(automatic_bf16(384, 3584, 18944).mode, gk::SplitMode::serial);
  EXPECT_EQ(automatic_bf16(640, 5120, 17920).mode, gk::SplitMode::stream_k);
  EXPECT_NE(gd::kernel_info(chosen(false, 1024, 3584, 18944).index).schedule, gk::Schedule::pingpong);
}

// The swap-AB token tiles (session 60, kTokenTile*) in place of an unsplit 128-row first choice whose
// waves compute more outputs: M = 320 (2 tiles of 160 tokens against 3 of 128 rows: 0.795 of ping-pong
// 128x128's at N = 57344, 0.833 of 128x192's at N = 8192), 1280 x 4096 (0.909 of 128x176's), ragged
// 300 x 7000 x 2000; 192 tokens at 3072 / 3000 x 1024 (128 tiles against 96 of 128x256: 0.75). Not at
// K = 512 (kTokenTileMinK), at a share of 0.938 (320 x 20480 x 2560), where a one-wave split rule takes
// the shape (320 x 3584 x 18944: serial), at M <= 256, where 128-row tiles fit M (1024 x 4096), nor
// with fp32 D. With B K x N (session 61) too, in place of that layout's first choices: 320 x 57344
// (ping-pong 128x128), 320 x 8192 (128x192), 2048 x 2560 x 2560 (ping-pong 128x128 in 3 waves, 160
// tokens in 2: 0.833), 3072 x 1024 (192 tokens against 128x256).
TEST(Sm90Heuristic, TokenTilesWhereTheirWavesHoldFewerOutputs) {
  for (const auto& [m, n, k, tokens] : {std::tuple{320, 57344, 8192, 160}, std::tuple{320, 8192, 8192, 160},
                                        std::tuple{1280, 4096, 4096, 160}, std::tuple{300, 7000, 2000, 160},
                                        std::tuple{3072, 1024, 4096, 192}, std::tuple{3000, 1000, 4000, 192}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    ASSERT_GE(s.index, 0);
    const gd::KernelInfo& ki = gd::kernel_info(s.index);
    EXPECT_EQ(ki.schedule, gk::Schedule::swap_ab) << m << "x" << n << "x" << k << ": " << s.explanation;
    EXPECT_EQ(ki.block_m, tokens) << s.explanation;
    EXPECT_EQ(ki.block_n, 128) << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
    EXPECT_NE(s.explanation.find("(tokens x weight rows)"), std::string::npos) << s.explanation;
    EXPECT_GT(s.predicted_us, 0.0) << s.explanation;
    // Never by choose_kernel alone (the rule runs after the split rules).
    EXPECT_NE(gd::kernel_info(chosen_bf16(true, m, n, k).index).schedule, gk::Schedule::swap_ab);
  }
  for (const auto& [m, n, k] : {std::tuple{320, 32768, 512}, std::tuple{320, 20480, 2560}, std::tuple{256, 57344, 8192},
                                std::tuple{1024, 4096, 4096}, std::tuple{320, 3584, 18944}})
    EXPECT_NE(gd::kernel_info(automatic_bf16(m, n, k).index).schedule, gk::Schedule::swap_ab) << m << "x" << n << "x" << k;
  EXPECT_EQ(automatic_bf16(320, 3584, 18944).mode, gk::SplitMode::serial);
  for (const auto& [m, n, k, name] :
       {std::tuple{320, 57344, 8192, "sm90_bf16_bf16_160x128x64_s6_c1x1_sw_bn"},
        std::tuple{320, 8192, 8192, "sm90_bf16_bf16_160x128x64_s6_c1x1_sw_bn"},
        std::tuple{2048, 2560, 2560, "sm90_bf16_bf16_160x128x64_s6_c1x1_sw_bn"},
        std::tuple{3072, 1024, 4096, "sm90_bf16_bf16_192x128x64_s5_c1x1_sw_bn"}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k, false);
    EXPECT_STREQ(gd::kernel_info(s.index).name, name) << m << "x" << n << "x" << k << ": " << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
    EXPECT_NE(gd::kernel_info(chosen_bf16(false, m, n, k).index).schedule, gk::Schedule::swap_ab);
  }
  EXPECT_NE(gd::kernel_info(automatic_bf16(1024, 4096, 4096, false).index).schedule, gk::Schedule::swap_ab);
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::fp32, true, 320, 57344, 8192, 132};
  r.max_workspace_bytes = std::size_t{64} << 20;
  EXPECT_NE(gd::kernel_info(gd::choose_split(r).index).schedule, gk::Schedule::swap_ab);
}

// The fill tile 128x80 (session 57, kFillTileMinFill) in the narrow rule's place where one wave of it
// keeps more CTAs busy than 128x96's and at least 90% of the SMs: 2048 x 576 x 7168 (128 against 96),
// 768 x 1536 x 7168 (120 against 96); not at 384 x 3072 x 8192 (117), 1024 x 1536 x 7168 (160 tiles:
// two waves), where the narrow rule does not fire (K = 2048, 1536 x 576 x 7168: 64x128), nor with B
// K x N; never split automatically.
TEST(Sm90Heuristic, FillTileInTheNarrowRulesPlace) {
  const auto chosen = chosen_bf16;
  for (const auto& [m, n, k] : {std::tuple{2048, 576, 7168}, std::tuple{768, 1536, 7168}, std::tuple{512, 2560, 10240}}) {
    const gd::KernelChoice c = chosen(true, m, n, k);
    EXPECT_STREQ(gd::kernel_info(c.index).name, "sm90_bf16_bf16_128x80x64_s7_c1x1_bk") << m << "x" << n << "x" << k << ": "
                                                                                         << c.explanation;
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    r.max_workspace_bytes = std::size_t{1} << 30;
    const gd::SplitChoice s = gd::choose_split(r);
    EXPECT_EQ(s.index, c.index) << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{384, 3072, 8192}, std::tuple{1024, 1536, 7168}})
    EXPECT_STREQ(gd::kernel_info(chosen(true, m, n, k).index).name, "sm90_bf16_bf16_128x96x64_s6_c1x1_bk") << m << "x" << n << "x" << k;
  for (const auto& [m, n, k] : {std::tuple{2048, 576, 2048}, std::tuple{1536, 576, 7168}, std::tuple{768, 1536, 2048}})
    EXPECT_NE(gd::kernel_info(chosen(true, m, n, k).index).block_n, 80) << m << "x" << n << "x" << k;
  EXPECT_NE(gd::kernel_info(chosen(false, 2048, 576, 7168).index).block_n, 80);
  expect_split_only_when_forced(80, SplitKMode::serial, {{128, 1536, 65536}, {64, 576, 16384}, {256, 1536, 32768}});
}

// The narrow rule from K = 2560 (session 61, kNarrowMinK; session 60 measured these forced): 128x96
// at 384 / 512 x 3072 x 3072 (96 / 128 CTAs where 128x128 fills 72 / 96), 128x80 in its place at 512
// x 2560 x 2560 (128 CTAs against 80); unsplit; not at K = 2048.
TEST(Sm90Heuristic, NarrowTilesFromK2560) {
  for (const auto& [m, n, k, name] : {std::tuple{384, 3072, 3072, "sm90_bf16_bf16_128x96x64_s6_c1x1_bk"},
                                      std::tuple{512, 3072, 3072, "sm90_bf16_bf16_128x96x64_s6_c1x1_bk"},
                                      std::tuple{512, 2560, 2560, "sm90_bf16_bf16_128x80x64_s7_c1x1_bk"}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    EXPECT_STREQ(gd::kernel_info(s.index).name, name) << m << "x" << n << "x" << k << ": " << s.explanation;
    EXPECT_EQ(s.mode, gk::SplitMode::none) << s.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{384, 3072, 2048}, std::tuple{512, 2560, 2048}}) {
    const int block_n = gd::kernel_info(automatic_bf16(m, n, k).index).block_n;
    EXPECT_TRUE(block_n != 96 && block_n != 80) << m << "x" << n << "x" << k;
  }
}

// One wave leaving SMs idle on a long K (session 57, kSerialWave* / kStreamKWave*, B N x K): serial
// split-K in 2 slices of 128x176 (126 CTAs) at 320 / 384 x 3584 x 18944 (84 tiles of 128x128, 64%);
// stream-K on 128x256 at 640 x 5120 x 13824 / 17920 (100 tiles, 76%: c1x1); neither at 512 x 7168 x
// 16384 / 1024 x 3584 x 18944 (112 tiles of 128x256, 85%), 448 / 512 x 3584 x 18944 (128x128 at 85%),
// 320 x 2112 x 7168 (K), 640 x 2560 x 10240 (128x128, K), with B K x N, or with a forced kernel.
TEST(Sm90Heuristic, OneWaveThatLeavesSmsIdleSplitsOnLongK) {
  for (const auto& [m, n, k] : {std::tuple{320, 3584, 18944}, std::tuple{384, 3584, 18944}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    ASSERT_GE(s.index, 0) << s.error.to_string();
    EXPECT_EQ(s.mode, gk::SplitMode::serial) << s.explanation;
    EXPECT_EQ(s.slices, 2) << s.explanation;
    EXPECT_STREQ(gd::kernel_info(s.index).name, "sm90_bf16_bf16_128x176x64_s5_c1x1_bk") << s.explanation;
  }
  for (const auto& [m, n, k, name] : {std::tuple{640, 5120, 13824, "sm90_bf16_bf16_128x256x64_s4_c1x1_bk"},
                                      std::tuple{640, 5120, 17920, "sm90_bf16_bf16_128x256x64_s4_c1x1_bk"}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    ASSERT_GE(s.index, 0) << s.error.to_string();
    EXPECT_EQ(s.mode, gk::SplitMode::stream_k) << s.explanation;
    EXPECT_STREQ(gd::kernel_info(s.index).name, name) << s.explanation;
    EXPECT_GT(s.workspace_bytes, 0u);
  }
  for (const auto& [m, n, k] : {std::tuple{512, 7168, 16384}, std::tuple{1024, 3584, 18944}, std::tuple{448, 3584, 18944},
                                std::tuple{512, 3584, 18944}, std::tuple{320, 2112, 7168}, std::tuple{640, 2560, 10240},
                                std::tuple{256, 3584, 18944}}) {
    const gd::SplitChoice s = automatic_bf16(m, n, k);
    EXPECT_EQ(s.mode, gk::SplitMode::none) << m << "x" << n << "x" << k << ": " << s.explanation;
  }
  for (const auto& [m, n, k] : {std::tuple{384, 3584, 18944}, std::tuple{640, 5120, 17920}})
    EXPECT_EQ(automatic_bf16(m, n, k, false).mode, gk::SplitMode::none) << m << "x" << n << "x" << k;
  const int i = find("sm90_bf16_bf16_128x128x64_s6_c1x1_bk");
  ASSERT_GE(i, 0);
  gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, 384, 3584, 18944, 132};
  r.max_workspace_bytes = std::size_t{64} << 20;
  r.forced_kernel = i;
  EXPECT_EQ(gd::choose_split(r).mode, gk::SplitMode::none);
  // Nor where the request asks for cluster sums (split_k_cluster = 2).
  for (const auto& [m, n, k] : {std::tuple{384, 3584, 18944}, std::tuple{640, 5120, 17920}}) {
    gd::SplitRequest c{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
    c.max_workspace_bytes = std::size_t{64} << 20;
    c.cluster = 2;
    const gd::SplitChoice s = gd::choose_split(c);
    EXPECT_TRUE(s.mode != gk::SplitMode::serial && s.mode != gk::SplitMode::stream_k) << m << "x" << n << "x" << k << ": " << s.explanation;
  }
}

// Automatic stream-K (session 52, kStreamKMinWaves / kStreamKMaxTailFill / kStreamKMinK): on the
// 128x256 tile in 2x1 clusters where its grid has >= 8 whole waves of 66 clusters and a last one
// at most 74% full, K >= 4096; not where the last wave is fuller, the waves fewer or K shorter, and
// not when the workspace (one fp32 tile per SM) exceeds max_workspace_bytes.
TEST(Sm90Heuristic, AutomaticStreamKOverAShortLastWave) {
  auto automatic = [](std::int64_t m, std::int64_t n, std::int64_t k, bool b_k_major = true,
                      std::size_t max_ws = std::size_t{32} << 20) {
    gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, b_k_major, m, n, k, 132};
    r.max_workspace_bytes = max_ws;
    return gd::choose_split(r);
  };
  // 8192^3: 1024 cluster tiles, 15 waves and 34 (52%); 6144^3: 8 and 48 (73%).
  for (const auto& [m, n, k] : {std::tuple{8192, 8192, 8192}, std::tuple{6144, 6144, 6144}, std::tuple{4096, 10240, 8192}}) {
    for (bool b_k_major : {true, false}) {
      const gd::SplitChoice s = automatic(m, n, k, b_k_major);
      ASSERT_GE(s.index, 0) << s.error.to_string();
      const gd::KernelInfo& ki = gd::kernel_info(s.index);
      EXPECT_EQ(s.mode, gk::SplitMode::stream_k) << m << "x" << n << "x" << k << ": " << s.explanation;
      EXPECT_TRUE(ki.block_m == 128 && ki.block_n == 256 && ki.cluster_m == 2) << ki.name;
      EXPECT_EQ(s.slices, 132);
      EXPECT_GT(s.workspace_bytes, std::size_t{132} * 128 * 256 * 4 - 1);
      EXPECT_NE(s.explanation.find("stream-K (automatic)"), std::string::npos) << s.explanation;
    }
  }
  // 4096^3: 3 waves and 58 (88%); 8192 x 4096 x 4096: 7 and 50 (76%); K = 2048; 2048^3: one wave.
  for (const auto& [m, n, k] : {std::tuple{4096, 4096, 4096}, std::tuple{8192, 4096, 4096}, std::tuple{8192, 8192, 2048},
                                std::tuple{2048, 2048, 2048}}) {
    const gd::SplitChoice s = automatic(m, n, k);
    EXPECT_NE(s.mode, gk::SplitMode::stream_k) << m << "x" << n << "x" << k << ": " << s.explanation;
  }
  // A grid of whole waves shares nothing (StreamKPartition): no fix-up in the estimate, which
  // stays finite (66 cluster tiles of 256 x 256 on 66 clusters).
  {
    const gd::KernelInfo& c2 = gd::kernel_info(find("sm90_bf16_bf16_128x256x64_s4_c2x1_bk"));
    const double sk = gd::estimate_us(c2, 16896, 256, 4096, 132, gk::SplitMode::stream_k, 132);
    EXPECT_TRUE(std::isfinite(sk)) << sk;
  }
  // The workspace bound: unsplit, not an error.
  const gd::SplitChoice small = automatic(8192, 8192, 8192, true, std::size_t{8} << 20);
  ASSERT_GE(small.index, 0) << small.error.to_string();
  EXPECT_EQ(small.mode, gk::SplitMode::none) << small.explanation;
  EXPECT_EQ(small.workspace_bytes, 0u);
}
