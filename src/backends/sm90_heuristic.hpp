#pragma once
// Chooses an sm90 kernel instance for a problem: deterministic, and explained in words.

#include <cstdint>
#include <string>

#include "graphgemm/gemm.hpp"
#include "kernels/sm90_gemm_instances.hpp"

namespace graphgemm::detail::sm90 {

struct KernelChoice {
  int index = -1;            // into the instance table; -1: none fits
  std::string explanation;   // "128x256 c2x1: 64 tiles on 66 clusters, 1 wave, cost 1.03 (best of 5)"
  // Where the 64x64 rule (kSmallTileGain) replaced the first choice: that choice's estimate_us
  // (automatic split-K measures its gain against it); otherwise 0.
  double replaced_us = 0;
};

// Among the instances for (in, out, b_k_major), the one with the least estimated time
// (relative_cost). Ties go to the larger tile. split_k_only: only instances with split-K
// (the cooperative ones). Then rules: the pair tiles (2x1 clusters sharing B) for a choice of
// 128-row tiles at two M tiles and K >= 4096, in one wave of the `pair_capacity` co-resident
// clusters of 2 (0: num_sms / 2) with more SMs busy, or (128x112) in several waves where the cost
// model at the pair's own efficiency ranks them cheaper; the narrow, wide swap-AB and 64x64 tiles
// where the others leave SMs idle.
[[nodiscard]] KernelChoice choose_kernel(DTypeIn in, DTypeOut out, bool b_k_major, std::int64_t m, std::int64_t n,
                                         std::int64_t k, int num_sms, bool split_k_only = false, int pair_capacity = 0);

// The cost choose_kernel compares (relative units):
//   cooperative: waves · BlockM · BlockN · (K / efficiency(tile) + 3072)
//   pingpong   : (waves · (K / efficiency(tile) + 2048) + 1536) · BlockM · BlockN
// where waves = ceil(tiles / co-resident CTAs) is the number of tiles on the busiest SM,
// efficiency is the tile's relative throughput per output element, and 3072 (in units of K) the
// per-tile cost that does not grow with K; cooperative constants fitted to an H100 sweep, the
// ping-pong ones predicted (docs/sm90_notes.md, "Step 2": its epilogue overlaps the other
// warpgroup's main loop, so most of the per-tile cost is paid once per CTA).
[[nodiscard]] double relative_cost(const KernelInfo& k, std::int64_t m, std::int64_t n, std::int64_t k_dim, int num_sms);

// The efficiency the cost model assumes for a tile (see docs/sm90_notes.md for how it was set).
[[nodiscard]] double tile_efficiency(const KernelInfo& k);

// Split-K: the problem and what the user asked for.
struct SplitRequest {
  DTypeIn in;
  DTypeOut out;
  bool b_k_major;
  std::int64_t m, n, k;
  int num_sms;
  SplitKMode mode = SplitKMode::automatic;
  int slices = 0;                      // 0: the heuristic picks
  std::size_t max_workspace_bytes = 0;
  int forced_kernel = -1;              // GemmOptions::sm90_kernel, resolved; -1: none
  int cluster = 0;                     // GemmOptions::split_k_cluster: 0 the heuristic, 1 none, 2/4/8
  ProgrammaticLaunch programmatic = ProgrammaticLaunch::automatic;  // GemmOptions::programmatic_launch
  // Co-resident clusters of 2, 4, 8 CTAs (index 1, 2, 3) of the cluster-split kernels (one CTA
  // per SM); 0: num_sms / size.
  int cluster_capacity[4] = {0, 0, 0, 0};
};

struct SplitChoice {
  int index = -1;                      // kernel instance; -1: see `error`
  graphgemm::kernels::sm90::SplitMode mode = graphgemm::kernels::sm90::SplitMode::none;
  int slices = 1;
  int cluster = 1;                     // parallel: CTAs of a cluster that sum their slices (GemmParams::split_cluster)
  std::size_t workspace_bytes = 0;
  double predicted_us = 0;             // the cost model's estimate
  std::string explanation;
  Status error;                        // not ok: the request cannot be honoured, and why
};

// Estimated time in µs of instance `k` on M x N x K with `slices` K slices in `mode` (the model
// docs/sm90_notes.md describes): the busiest SM's k-blocks (compute or its load bandwidth, per
// wave), at least the bytes that must come from HBM, plus the split-K reduction. Parallel with
// `cluster` > 1: the slices are summed within clusters of that many CTAs first (at most
// `cluster_capacity` co-resident, one work unit each: infinity when they do not fit).
[[nodiscard]] double estimate_us(const KernelInfo& k, std::int64_t m, std::int64_t n, std::int64_t kk, int num_sms,
                                 graphgemm::kernels::sm90::SplitMode mode, int slices, int cluster = 1,
                                 int cluster_capacity = 0);

// Kernel instance, split mode and slice count for a request; explicit modes and slice counts are
// honoured exactly or reported as an error. automatic: parallel split-K only where the model
// predicts at most 0.7x the time of the best unsplit kernel (choose_kernel's, exactly as without
// split-K), with every slice keeping >= 4 k-blocks and the workspace within max_workspace_bytes.
[[nodiscard]] SplitChoice choose_split(const SplitRequest& r);

// The CTAs of instance `k`'s launch on M x N that have work: the tiles (cluster tiles times the
// cluster's CTAs) times `slices`, at most the co-resident CTAs of `num_sms` SMs (one per SM).
[[nodiscard]] std::int64_t busy_ctas(const KernelInfo& k, std::int64_t m, std::int64_t n, int slices, int num_sms);

// ProgrammaticLaunch::automatic: whether instance `k` on M x N with `slices` K slices (summed in
// clusters of `split_cluster`) gets programmatic dependent launch: when at least a quarter of the
// SMs stay idle for the next kernel's CTAs to set up on, or when M spans at most two tiles (each
// CTA streams its own panel of B), and never for slices the cooperative kernel sums within
// clusters (the swap-AB kernel's pushed sums take it like its unsplit grids).
// MEASURED (H100; sessions 6 and 8, every llm/splitk/square shape with and without PDL in one
// run): grids of <= 96 busy CTAs 0.88-1.01x the time; full grids with M in 1-2 tiles (swap-AB
// decode tiles, M <= 128 on 64-row tiles) 0.90-1.00x; full grids of more M tiles up to 1.11x
// (M = 256 with K >= 4096, 1024^3, 2048^3); cluster sums (256x256x16384 8:c8, 64x2112x7168 4:c4)
// 1.12-1.20x; swap-AB 2 slices in clusters of 2 (session 9) 0.87x (deepseek_v3.a M = 1: 14.8 ->
// 12.9 us), 0.92x (llama3_8b.o M = 1), 0.98x (llama3_8b.down M = 1).
// Splits through the workspace (the programmatic edge goes to their zeroing kernel, session 13):
// when at most half the SMs have work units. MEASURED (H100, sm90_trace, per launch in a graph):
// 52 units (128x128x16384, 26 slices) 10.18 -> 8.31 us, 61 (64x64x65536) 13.65 -> 11.59, 84
// (128x256x32768, 21 slices) 16.74 -> 17.05.
[[nodiscard]] bool programmatic_pays(const KernelInfo& k, std::int64_t m, std::int64_t n, int slices, int split_cluster,
                                     int num_sms);

// Whether a launch of instance `k` gets programmatic launch under `option` (GemmOptions::
// programmatic_launch): on, or automatic where programmatic_pays.
[[nodiscard]] bool programmatic_launch(ProgrammaticLaunch option, const KernelInfo& k, std::int64_t m, std::int64_t n,
                                       int slices, int split_cluster, int num_sms);

}  // namespace graphgemm::detail::sm90
