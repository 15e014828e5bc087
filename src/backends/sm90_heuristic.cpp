#include "backends/sm90_heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>
#include <vector>

namespace graphgemm::detail::sm90 {

namespace {
// Swap-AB for decode: candidates where one token tile (16 or 32) covers M (choose_split); wider
// token tiles are the wide swap-AB tile (choose_kernel's rule).
constexpr int kSwapABMaxM = 32;
// The swap-AB tiles past decode M: the wide tile (256 tokens x 64 weight rows; its rule: kWideSwap*)
// and the token tiles (160 / 192 tokens x 128 weight rows; kTokenTile*).
bool wide_swap_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::swap_ab && k.block_m > kSwapABMaxM && k.block_n == 64;
}
bool token_swap_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::swap_ab && k.block_m > kSwapABMaxM && k.block_n == 128;
}
// Ping-pong 128x112 (B N x K, session 58): FITTED (H100, experiments_s58/callE: forced beside
// ping-pong 128x128 on the 14 shapes the narrow ping-pong rule moved at 0.86, two rounds): its time
// 0.89-0.98x 128x128's (mean ~0.94) where the model at 0.86 said 0.89-0.90; at 0.80 the model says
// 0.92-0.95 on those shapes.
constexpr double kPingpong112Efficiency = 0.80;
}  // namespace

double tile_efficiency(const KernelInfo& k) {
  // Relative throughput per output element, fitted to the H100 sweep of every tile over the llm
  // and square suites (bench/results/h100/tune_tiles_bf16.json, tools/fit_sm90_heuristic.py;
  // cross-validated on alternate shapes): larger tiles reuse operands more; the 2x1 cluster
  // multicasts B.
  const bool cluster = k.cluster_m * k.cluster_n > 1;
  // Swap-AB: wgmma n16 / n32 on 64 weight rows; its compute is a small fraction of its load time
  // (load-bound by design), so this only keeps the estimate's compute term from vanishing. The
  // wide token tile (256 tokens x 64 weight columns, two m64n128 warpgroups): PREDICTED (session
  // 44) a little below 128x128 by operand bytes per output and k-block row (320 for 16384 outputs
  // against 256); MEASURED (call 2, 1024 x 2112 x K, B K x N, K = 2048 / 7168: 0.356 us a k-block
  // of 64 and 8.6 us fixed; at 0.80 the model's k-block is 0.446 us).
  // The token tiles (160 / 192 tokens x 128 weight rows, two m64n160 / m64n192 warpgroups): MEASURED
  // (H100, session 60, experiments_s60/callC) as fast per output as 128x176 (0.91-0.94x its time where
  // their waves hold 0.909x its outputs).
  if (k.schedule == kernels::sm90::Schedule::swap_ab)
    return k.block_m <= kSwapABMaxM ? 0.55 : token_swap_tile(k) ? 0.92 : 0.80;
  if (k.schedule == kernels::sm90::Schedule::pingpong) {
    // PREDICTED, not yet measured (docs/sm90_notes.md, "Step 2"): one warpgroup's main loop on
    // the tensor cores at a time, operand traffic per CTA as the cooperative tile of the same
    // bytes per k-block (128x128 pp c1x1: 32 KB like cooperative 128x128; c2x1: 24 KB like
    // cooperative 128x256 c1x1; 64x256: 40 KB).
    // MEASURED for 128x128 c1x1 (0.957x cuBLASLt on llm M >= 1024 against 0.932x for the
    // cooperative choice, same run): 0.90. The other two are not chosen automatically.
    if (k.block_m == 128 && k.block_n == 128) return cluster ? 0.95 : 0.90;
    if (k.block_m == 128 && k.block_n == 112 && !cluster) return kPingpong112Efficiency;
    return 0.80;
  }
  if (k.block_m * k.block_n >= 128 * 256) return cluster ? 1.0 : 0.97;
  // PREDICTED (session 5, not yet fitted): 128x192 between 128x128 and 128x256 by operand bytes
  // per output element and k-block (320/24576 against 256/16384 and 384/32768).
  if (k.block_m == 128 && k.block_n == 192) return 0.92;
  // PREDICTED (session 10): 128x176 as 128x192 (304 against 320 operand bytes per k-block row).
  if (k.block_m == 128 && k.block_n == 176) return 0.92;
  // PREDICTED (session 11): 128x136 as 128x128, by the rule below (264 operand bytes per k-block
  // row for 136 columns: per output within 3% of 128x128's 256 for 128). Session 27: the 128x112
  // pair tile too (240 for 112: 7% more per output), so that the estimates automatic split-K weighs
  // against a pair choice are the 128x128 tile's in the same cluster, not the 64-row tiles' 0.55.
  // Session 56: 128x144 too (272 for 144: 6% less per output than 128x128; the wave tile, below).
  if (k.block_m * k.block_n >= 128 * 112) return cluster ? 0.75 : 0.84;
  // MEASURED (H100, session 45, experiments_s45/call4): 128x96 (B N x K) forced beside 128x128 at
  // 1024 x 1536 x K, one wave each (128 against 96 CTAs), two rounds: its time 0.89-0.95x
  // 128x128's at K = 2048-16384; this model's ratio matches at 0.63-0.69 (0.53 at K = 2048).
  if (k.block_m == 128 && k.block_n == 96) return 0.65;
  // FITTED (H100, session 55, experiments_s55/call11: forced by name beside automatic's 128x96, one
  // wave each, two rounds): 128x80's time 0.83-0.85x at 2048 x 576 x 7168 and 0.91-0.92x at 768 x
  // 1536 x 7168 (128 / 120 tiles against 96), which this model matches at 0.64 / 0.58.
  if (k.block_m == 128 && k.block_n == 80) return 0.60;
  return 0.55;
}

namespace {
// Per-tile cost not proportional to K (pipeline fill, epilogue), in units of K: fitted with the
// efficiencies above.
constexpr double kTileOverheadK = 3072;
// Ping-pong (PREDICTED, docs/sm90_notes.md "Step 2"): a tile's epilogue runs while the other
// warpgroup's main loop is on the tensor cores, so one epilogue is paid once per CTA and per tile
// only the rest of the fitted per-tile cost (turn hand-over, whatever else the flat fit put into
// 3072: assumed two thirds of it).
constexpr double kPingpongTileOverheadK = 2048;
constexpr double kPingpongOnceOverheadK = 1536;
// Ping-pong 128x128 only below this much work (2 M N K flops). MEASURED (H100, session 10, one
// sweep of every tile over square + llm M >= 1024, bench/results/h100/tune_tiles_bf16_s10.json):
// at 1.9-7.7 TFLOP the ping-pong pick ran 9-30% behind 128x256 / 128x192 (llama3_8b.gate_up
// M = 8192 3170 vs 2905 us; llama3_70b.gate_up M = 4096 6204 vs 5641, M = 8192 14296 vs 10958),
// the cooperative 128x128 as well; at <= 1.4 TFLOP it won or stayed within 2% of the best
// (deepseek_v3.b, llama3_70b.qkv M = 8192 +2%, llama3_70b.o M = 8192 and 8192^3 -1.6%). The model
// has no term for it (not the wave count: those grids run 55-218 waves); the 128x128 tiles move
// twice the operand bytes per flop of 128x256.
constexpr double kPingpongMaxFlops = 1.6e12;
// ... and not where K >= kPingpongMaxK and the 128x256 tiles fill at least kPingpongCoopWaves waves
// of SMs: there the cooperative 128x256 tile takes fewer joules per FLOP (~0.75x the operand bytes
// per FLOP through L2 and shared memory), and compute-bound GEMMs run at the clock the GPU's power
// cap allows. MEASURED (H100, session 33, experiments_s33): graphgemm_clock_probe, 3 s of
// back-to-back launches per kernel, both at ~695 W: 8192^3 ping-pong 636-645 TFLOP/s, 128x256
// c2x1 670-677, cuBLASLt 670-681; at locked clocks (ncu) the three take 2.16-2.21 M cycles, so the
// difference is the clock the power cap leaves each. The bench with --sustain-ms 500 (each backend
// alone before it is timed), square + llm M >= 1024, two rounds: 128x256 ahead of ping-pong by
// 2-7% on every shape with K >= 4096 and >= 3.9 waves of 128x256 tiles (4096^3 / 6144^3 / 8192^3,
// llama3_8b.qkv / .o / .gate_up and llama3_70b.qkv / .o at M = 4096 / 8192, .gate_up M = 1024);
// behind or level where K <= 2048 (deepseek_v3.b / .d: 0-5%; deepseek_v3.b M = 8192 2-4% ahead) or
// where the 128x256 tiles fill < 3 waves (llama3_8b.qkv / llama3_70b.qkv M = 1024: 7-14%). That
// bench ran the backends in one fixed order, which favoured the later ones (session 34); again with
// the order alternating, the moved rows ran 0.991x cuBLASLt against 0.963x with ping-pong forced
// (experiments_s34/call3): the rule holds, by ~3% rather than 4%. In the bench's default turns (backends
// alternating every replay, so all run at the clock of the mix) ping-pong was 0-4% ahead on the
// moved shapes. Only from M = kPingpongEnergyMinM on (what was measured): at M <= 256 the llm
// GEMMs are bound by streaming B from DRAM rather than by the tensor cores' clock.
constexpr std::int64_t kPingpongMaxK = 4096;
constexpr double kPingpongCoopWaves = 3.0;
constexpr std::int64_t kPingpongEnergyMinM = 1024;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The 64x64 tile (B N x K): twice the CTAs of 64x128 for the same output, each streaming 2/3 of a
// 64x128 CTA's operand bytes (4/3 per output). Automatic takes it only where estimate_us (which
// sees the per-SM load rate and the DRAM bound, unlike relative_cost) predicts at most this
// fraction of the best other tile's time: where the larger tiles leave most SMs idle on a
// load-bound GEMM. MEASURED (H100, session 14, the tile forced over llm M <= 256 and splitk against
// the automatic choice of b8ce75b, one call; bench/results/h100/experiments_s14/tile64_sweep):
// predicted 0.50-0.57x -> measured 5-20% faster (llama3_8b.o / .down M = 64 / 128, deepseek_v3.a
// M = 64 / 128 / 256); predicted 0.82-1.0x -> -11% to +5% (llama3_8b.qkv M = 64 / 128,
// deepseek_v3.c M = 64 / 128, llama3_70b.down M = 128).
constexpr double kSmallTileGain = 0.6;
// ... and not for decode-sized M (at most 16 rows of 64). MEASURED (H100, session 23, call 4, B
// stored K x N, which had no swap-AB tiles then): 1x4096x4096 14.8 -> 16.8 us, 1x4096x14336 43.8 -> 53.6,
// 16x4096x14336 45.2 -> 48.9 against 64x128 (unsplit or 2 slices); 64x4096x4096 14.8 -> 13.5 faster.
constexpr std::int64_t kSmallTileMinM = 17;
// ... and, whatever estimate_us predicts (it calls both DRAM-bound there and equal), in place of
// the 64x128 tile where the 64x64 tile's twice as many CTAs fill the last wave of SMs at least
// kSmallTileFillMin full and kSmallTileFillGain times as full as 64x128's, on K from
// kSmallTileFillMinK up to kSmallTileFillMaxK (B N x K) or kSmallTileFillMaxKBn (B K x N).
// MEASURED (H100, session 41, experiments_s41/call1-2: M = 33 / 48 / 64, N 5120-24576 x K
// 512-3072, B N x K; M = 24 / 64 with B K x N; both tiles forced in one run, two rounds; time
// 64x64 / 64x128), B N x K:
//   fill 0.85 / 0.97 (N = 7168 / 8192 / 24576), K 1024-3072: 0.927-0.989 on 35 of 36 rows (33x7168x3072
//     1.006 / 1.007); K = 512: 0.945-1.044 (N = 24576: 3 waves of 8 k-blocks against 2, slower)
//   fill 0.61 / 0.73 (N = 5120 / 6144), K >= 1024: 0.966-1.109, slower on 17 of 24 rows
// B K x N, fill 0.85 / 0.97: K = 1024 0.964-0.995, K = 2048 0.966-1.005, K = 3072 0.969-1.023.
// Session 40 (M = 64, experiments_s40/call7-8): fill 0.85, K = 4096 / 16384 1.005 / 1.029; fill
// 0.97, K = 4096 0.976. The fuller grid shortens the launch's fixed part (pipeline fill, epilogue,
// tail), not its DRAM stream, so the gain shrinks as K grows.
constexpr double kSmallTileFillMin = 0.8;
constexpr double kSmallTileFillGain = 1.25;
constexpr std::int64_t kSmallTileFillMinK = 1024;
constexpr std::int64_t kSmallTileFillMaxK = 3072;
constexpr std::int64_t kSmallTileFillMaxKBn = 2048;
// Automatic split-K against the 64x64 tile where its rule replaced the first choice (choose_split):
// a split of the 64x128 tile through the workspace must be predicted at most this fraction of the
// 64x64 tile's time (a split of 128-row tiles: less than it). FITTED (session 23, by hand, call 4:
// 20 such moves with B N x K, old and new forced in one binary, two rounds): 64x128 splits predicted
// at most 0.82x -> 0.81-0.95x the time of the 64x64 tile (9 of 9 faster, 256x768x8192 18.1 -> 15.7
// us), at 0.87-0.97x -> 0.99-1.11x (128x1536x7168 15.9 -> 17.7, 384x768x8192 17.6 -> 18.4,
// 256x1024x8192 17.6 -> 18.2); 128x128 / 128x256 splits at 0.74-0.96x -> 0.63-0.90x (6 of 6
// faster, 512x768x32768 70.9 -> 46.7).
constexpr double kSmallTileSplitGain = 0.85;
constexpr std::int64_t kSmallTileSplitMaxOutputs = 128 * 128;  // see choose_split
// The cooperative 64x128 tile (one consumer warpgroup; instantiated without clusters only).
bool tile_64x128(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::cooperative && k.block_m == 64 && k.block_n == 128;
}
bool small_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::cooperative && k.block_m * k.block_n < 64 * 128;
}

// The pair tiles (128x128 / 128x112 in 2x1 clusters: the two M tiles of an N column share B by
// multicast) replace a first choice of 128-row tiles without clusters (cooperative 128x128 or
// 128x256, ping-pong 128x128) where M spans two 128-row tiles and K >= kPairMinK:
//   - one wave of clusters with at least as many CTAs busy as the first choice (from K =
//     kPairSharedMinK on, where sharing B pays alone; below it only with more CTAs busy), the
//     first choice being the cooperative 128x128 tile: the most CTAs, then the wider tile;
//   - or, 128x112 only, several waves of clusters that cost less than the first choice by
//     relative_cost's terms with the pair's own efficiency kPairEfficiency (pair_waves_cost).
// Taken by this rule only (not ranked with the others, not split automatically).
// MEASURED (H100, session 26, experiments_s26/m256_cluster, forced beside the automatic 128x128,
// two rounds, us): deepseek_v3.c 256x7168x16384 112.2 / 112.8 -> 103.8 / 103.5 (128x112: 128 CTAs
// against 112), llama3_70b.down 256x8192x28672 204.1 / 196.7 -> 194.0 / 191.6 and llama3_70b.o
// 256x8192x8192 56.7 / 57.3 -> 55.9 / 56.5 (128x128, 128 CTAs either way: B read once per pair).
// Session 28: 128x112 in 7 stages (one D staging buffer), deepseek_v3.c 96.6-97.7 -> 94.1-94.5 us.
// Session 46 (experiments_s46/call2: M 160-256 x N 3072-28672 x K 2048-14336, both pair tiles forced
// without programmatic launch beside automatic with it, two rounds; time pair / automatic): the
// 7-stage 128x112 at K = 4096 in one wave with more CTAs than 128x128 (N 5120-7168) 0.954-0.983 on
// all 14 rows (session 26's 6-stage tile had been slower at 256x6144x4096); at K = 2048 0.997-1.028.
// In several waves (N = 14336: 128 clusters, 2 waves; N = 28672: 256, 3.9 waves) 0.904-0.951
// against 128x256 at K >= 8192, 0.929-0.946 against ping-pong at N = 28672, K = 4096, 0.973-0.994
// at N = 14336, K = 4096, 0.990-1.003 at K = 2048; slower where the waves quantize worse than the
// first choice's (N = 8192: 74 clusters, 1.5-2.0x; N = 10240 against 128x176: 1.23-1.33x; call 1:
// 256x57344x8192, 7.8 waves, 1.05x against ping-pong's 6.8) and against 64x128 (N <= 5120 at M <=
// 192: 1.14-1.43x). 128x128 c2x1 at K = 4096 with the CTAs of 128x128 (N = 8192): 0.97-1.04; in
// several waves 1.01-1.05 (N = 14336 / 28672; call 1, 256x57344x8192: 1.01).
constexpr std::int64_t kPairMinK = 4096;
constexpr std::int64_t kPairSharedMinK = 8192;
// Fitted to the 64 rows of call 2 with several waves of 128x112 clusters (N 8192-28672) and call
// 1's 256x57344x8192 / 256x24576x1536: with it the model ranks the pair cheaper exactly where it
// ran faster at K >= 4096 (0.904-0.994x automatic's time; 256x57344x8192 predicted 1.11x, measured
// 1.05x).
constexpr double kPairEfficiency = 0.86;
constexpr int kPairWavesTileN = 112;  // (the tile that was measured in several waves)
// The cost unit of relative_cost: `waves` of a tile's per-tile cost (in K) plus a cost paid once,
// scaled by the tile's area, relative to 128x256 tiles at K = 4096.
double waves_cost(const KernelInfo& k, std::int64_t waves, double per_tile, double once) {
  return (static_cast<double>(waves) * per_tile + once) * k.block_m * k.block_n / (128.0 * 256.0 * 4096.0);
}
// relative_cost of a pair tile's `waves` of clusters, at kPairEfficiency.
double pair_waves_cost(const KernelInfo& k, std::int64_t waves, std::int64_t k_dim) {
  return waves_cost(k, waves, static_cast<double>(k_dim) / kPairEfficiency + kTileOverheadK, 0.0);
}
// The narrow ping-pong tile 128x112 (B N x K, c1x1) replaces a first choice of ping-pong 128x128
// c1x1, or at M > 256 of a cooperative 128-row tile when its own tiles give every SM at least one
// (a ping-pong CTA with one tile leaves a warpgroup idle), where relative_cost (tile_efficiency
// kPingpong112Efficiency) ranks it at most kPingpongNarrowGain of that choice's cost and K >=
// kPingpongNarrowMinK: the 112-column tiles deal evener waves over the SMs (M = 512, N = 7168: 256
// tiles, two a CTA on 128 CTAs, against 224 of 128x128 on 132, whose busiest CTAs run two
// 128-column main loops), and a CTA's epilogue overlaps its next tile's main loop. Taken by this
// rule only, after the others.
// MEASURED (H100, session 58, experiments_s58/callE: automatic with this rule beside ping-pong
// 128x128 forced, two rounds; time new / old): 13 of the 14 shapes of 663 it moved faster in both
// rounds, 0.89-0.98 (1024 x 7168 x 2048, deepseek_v3.d M = 1024: 0.94; 512 / 768 x 7168 x 2048
// 0.98 / 0.95; 320 / 384 x 28672 x 4096 0.89), 1280 x 4096 x 1024 1.01 (K = 1024: hence
// kPingpongNarrowMinK, the shortest K among the faster rows); where the model ranks it costlier it
// was slower (512 x 28672 x 4096, 768 x 24576 x 1536, 2048 / 4096 x 7168 x 2048: 1.03-1.05).
// Cooperative first choices (experiments_s58/callF, the 7 shapes of 663 this moves, each beside its
// previous choice forced, two rounds): all faster in both rounds, new / old 0.93-0.99 (1280 x 10240 x
// 5120 0.95 against 128x136, 2048 x 2560 x 2560 0.96 and 1024 x 5120 x 2880 0.94-0.97 against 128x176,
// 768 x 4608 x 3584 0.93-0.99 against 128x256, 1536 x 12288 x 4096 / 3072 x 6144 x 4096 0.97-0.98
// against 128x192).
// Also, by a second criterion, where its tiles give the busiest CTA at most kPingpongEvenShare of the
// first choice's output columns (ceil(tiles / SMs) x 112 against waves x BN: 7/8 is 112 against 128 or
// 224 against 256), K >= kPingpongEvenMinK, the grid keeps kPingpongEvenMinFill of the SMs busy, and not
// where the 128x256 tile's energy per FLOP rules out ping-pong (pingpong_costs_energy, M >
// kPingpongEvenMaxM) or one of choose_split's one-wave rules takes the shape (one_wave_split). The
// cost model ranks ping-pong 128x112 against a one-wave 128x256 at 0.97 wrongly (0.99 of its cost at
// 1024 x 3584 x 18944).
// MEASURED (H100, session 59, experiments_s59/callH 'ppwide': the 54 B N x K shapes of 663 at M > 256,
// K >= 1536 where the busiest CTA's columns shrink by >= 2.5%, ping-pong 128x112 forced beside
// automatic, two rounds; time forced / automatic): at 7/8 and K >= 5120 all 9 shapes faster in both
// rounds, 0.90-0.95 (512 x 3584 x 18944 0.93 / 0.95 and 640 x 2560 x 10240 0.94-0.95 against 128x128's
// 112 / 100 tiles; 512 / 1024 x 7168 x 16384 0.90-0.92, 1024 / 2048 x 3584 x 18944 0.92, 1280 x 2560 x
// 10240 0.92-0.95, 640 x 5120 x 5120 0.94-0.95 against 128x256 c1x1's one wave; 4096 x 3584 x 18944
// 0.91-0.93 against 128x256 c2x1's four waves: left to the energy rule); at 7/8 and K <= 4096 level
// or slower (512 x 3072 x 3072 1.05, 512 x 2560 x 2560 1.01, 384 x 4608 x 3584 0.97-0.99; session
// 58's call G: 512 x 3584 x 4096 0.99, x 2048 1.02); at shares of 0.94-0.97 (38 shapes) 0.96-1.03.
constexpr double kPingpongNarrowGain = 0.95;
constexpr std::int64_t kPingpongNarrowMinK = 1536;
constexpr double kPingpongEvenShare = 0.875 + 1e-9;
constexpr std::int64_t kPingpongEvenMinK = 5120;
constexpr double kPingpongEvenMinFill = 0.85;
// ... and M <= kPingpongEvenMaxM: under the power cap (sustained turns, --sustain-ms 400: session 33's
// energy per FLOP) the 112-column tiles lose at larger M. MEASURED (H100, session 59, calls I / J):
// 2048 x 3584 x 18944 (two tiles of 128x256 a CTA against four of 128x112) ping-pong 0.92 in call H's
// turns, 1.01-1.06x 128x256 c1x1 in call I's, 1.08 / 1.11x sustained (calls I / J); 1280 x 2560 x
// 10240 0.92-0.95x in turns (calls H, I) but 1.05x sustained (call J); 1024 x 7168 x 16384 0.97x
// sustained (call I).
constexpr std::int64_t kPingpongEvenMaxM = 1024;
bool pingpong_narrow_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::pingpong && k.block_m == 128 && k.block_n == 112 &&
         k.cluster_m * k.cluster_n == 1;
}
bool pair_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::cooperative && k.cluster_m == 2 && k.cluster_n == 1 &&
         k.block_m == 128 && k.block_n <= 128;
}

// The wide swap-AB tile (256 tokens x 64 weight columns: sm90_gemm_swapab.cuh) replaces the first
// choice where that choice's grid is one wave keeping at most kWideSwapMaxFirstFill of the SMs
// busy and the wide tile's grid is one wave keeping at least kWideSwapMinFill busy, M a multiple of
// its 256 tokens from kWideSwapMinM on, K >= kWideSwapMinK: output shapes the cooperative tiles
// cannot spread over the SMs (with B stored K x N their widths are multiples of 64). Taken by this
// rule only. Why: deepseek_v3.a at M = 1024 with B K x N (1024 x 2112 x 7168) ran 128x192 in 88
// tiles at 0.70x cuBLASLt (session 43), whose tile there is 64 weight columns x 256 tokens
// (cuBLASLt tile id 19, CUBLASLT_MATMUL_TILE_64x256: 132 tiles).
// MEASURED (H100, session 44, experiments_s44/call2: 13 shapes M 512-4096, both B layouts, the
// wide tile, 128x192 and 128x128 forced beside automatic and cuBLASLt in one run; cuBLASLt / ours):
// B K x N 1024 x 2112 x 7168 0.845 against 128x192's 0.766; x 16384 0.895 against 0.685; but x 2048
// 0.826 against 0.852 (hence kWideSwapMinK, between the two); 640 x 2560 x 4096 0.47 (both layouts:
// the last token tile half past M, whose A box is slow to zero-fill; 128x128 0.99), hence M a
// multiple of 256. With B N x K at 1024 x 2112 the first choice (128x136, 128 CTAs) stays: 0.965
// against 0.805. On every other shape of the set the first choice was as fast or faster (one wave
// of 128-row tiles filling >= 0.97 of the SMs: the rule does not fire there). Call 1: the same tile
// with one consumer warpgroup issuing m64n256 ran 0.58-0.66x cuBLASLt everywhere.
constexpr std::int64_t kWideSwapMinM = 512;
constexpr std::int64_t kWideSwapMinK = 4096;
constexpr double kWideSwapMaxFirstFill = 0.8;
constexpr double kWideSwapMinFill = 0.9;
// The swap-AB token tiles (160 / 192 tokens x 128 weight rows; B N x K since session 60, K x N since
// session 62) replace an unsplit 128-row first choice (cooperative or ping-pong, no cluster; after
// every split rule) where M > kTokenTileMinM, K >= kTokenTileMinK and their waves of tiles (tiles /
// SMs rounded up, times the tile's outputs) hold at most kTokenTileMaxWork of the first choice's:
// where 128-row tiles pad M (M = 320: 3 tiles of 128 rows, 2 of 160 tokens) or N (N = 1024: 8
// columns of 128x256 in 96 CTAs, 128 tiles of 192 x 128 at M = 3072). Taken by this rule only
// (choose_split).
// MEASURED (H100, session 60, experiments_s60/callC: the token tiles forced beside automatic, 84 rows
// of M 288-6144, two rounds on 29): against 128-row first choices their time / automatic's followed
// that share closely: share 0.795-0.833 -> 0.82-0.91 (320 x 57344 x 8192 0.82, cuBLASLt 0.80; 3072 x
// 1024 x 4096 at 0.75 -> 0.81, cuBLASLt 0.78), 0.857-0.909 -> 0.905-0.947 on all 16 such rows (M
// 320-2304, K 1536-28672: 1280 x 4096 x 4096 0.93, 640 x 8192 x 28672 0.92), 0.938 -> 1.00,
// 0.952 -> 0.97 / 1.04, >= 0.97 slower; and at K = 512 (share 0.833) 1.10, hence kTokenTileMinK.
// B K x N (H100, session 62, experiments_s62/table_tokkn: the 46 of 663 broad shapes the rule moves
// with that layout, the token tiles forced beside automatic = the previous choice, two rounds): the
// chosen tile's time / automatic's 0.81-0.99 on 44 (geomean of the 46 0.873; 320 x 57344 x 8192
// 0.82, 640 x 8192 x 8192 0.83, 3072 x 1024 x 4096 0.81), 1.002 and 1.016 on two 192-token picks
// at share 0.900 (1280 x 7168 x 2048, 384 x 24576 x 1536); sustained (400 ms) 0.83-0.89 at four.
// M <= 256 has its own rules (decode, the pair tiles) and no measurement of these tiles; fp32 D takes
// the unstaged epilogue (store_swapped) and was not measured: 16-bit D only.
constexpr std::int64_t kTokenTileMinM = 256;
constexpr std::int64_t kTokenTileMinK = 1536;
constexpr double kTokenTileMaxWork = 0.92;

// The narrow tile 128x96 (B N x K) replaces the first choice where its own grid is one wave, the
// model costs it less (tile_efficiency), M > kNarrowMinM, K >= kNarrowMinK and N's last 96-column
// tile is at least half full: one wave of 128 CTAs where 128x128 fills 96 (M = 1024, N = 1536:
// deepseek_v3's q_a_proj alone; cuBLASLt's tile there). Taken by this rule only.
// MEASURED (H100, session 45, experiments_s45/call5: the 106 of 1586 B N x K grid shapes that the
// cost model alone moved to 128x96, automatic beside the previous choice forced, two rounds): 0.80-0.96x
// the time where this rule takes it (M 384-1536, N 1024-4096 with the last tile >= 2/3 full, K 4096-14336;
// 1024 x 1536 x 7168 0.886, 768 x 2112 x 14336 0.813); slower at K <= 2048 (up to 1.08x), at N = 2048 /
// 1280 (last tile a third full: 1.01-1.05x at every K but 8192 / 14336), in two waves (3072 x 1024 x
// 4096 1.15x against 128x256) and at M <= 256 against the pair tiles (1.00-1.035x).
// MEASURED (H100, session 60, experiments_s60/callA table_weak2 and callB table_weak: forced beside
// automatic's 128x128, which leaves 40-60 SMs idle there): at K = 2560 / 3072, 384 x 3072 x 3072
// 128x96 0.916 (128x80 0.906 / 0.912, 117 CTAs: below kFillTileMinFill), 512 x 3072 x 3072 128x96
// 0.932, 512 x 2560 x 2560 128x80 0.910 / 0.920 (128x96 0.970); hence kNarrowMinK 2560 (was 4096,
// session 61), which moves exactly those three of the 663 broad shapes (no suite shape).
constexpr std::int64_t kNarrowMinM = 256;
constexpr std::int64_t kNarrowMinK = 2560;
// ... and 128x80 in the narrow rule's place where its own grid is one wave of more CTAs than 128x96's,
// at least kFillTileMinFill of the SMs (N's last 80 columns however full). Taken by this rule only.
// MEASURED (H100, session 55, experiments_s55/call11: forced by name over the 132 'grid' shapes, two
// rounds; time 128x80 / automatic): 0.83-0.85 at 2048 x 576 x 7168 (128 tiles, 97% of the SMs,
// against 96 of 128x96; the last 80 columns a fifth full) and 0.91-0.92 at 768 x 1536 x 7168 (120,
// 91%, against 96); 1.06-1.17x where its grid is one wave of fewer CTAs than the first choice's (1536
// / 512 x 1536 / 576 x 7168 against 64x128), 1.03-2.7x on every grid row of more than one wave.
constexpr double kFillTileMinFill = 0.9;
bool narrow_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::cooperative && k.block_m == 128 &&
         (k.block_n == 96 || k.block_n == 80) && k.cluster_m * k.cluster_n == 1;
}
bool fill_tile(const KernelInfo& k) { return narrow_tile(k) && k.block_n == 80; }

// The wave tile 128x144 (B N x K) replaces the first choice where relative_cost (tile_efficiency
// 0.84, as 128x128 / 128x136) ranks it cheaper, K >= kWaveMinK: fewer waves than every other tile
// (11 or 128 columns of 144 fill whole waves that the wider tiles leave short), or as many waves of
// a smaller tile than 128x176 / 128x256. Set aside from the cost loop and weighed after the pair
// rule, which keeps its measured rows (session 56, call 1: ranked in the loop it took 200 x 27648 x
// 4096 from the 128x112 pair, which the pair rule takes only from a first choice of 128x128 /
// 128x256). Unsplit only (choose_split): its splits were not measured.
// MEASURED (H100, session 55, experiments_s55/call11: forced by name beside automatic over the 132
// 'grid' shapes, two rounds; time 128x144 / automatic) on the 8 grid rows this rule moves: 0.83 at
// 3072 x 1536 x 7168 (264 tiles in two waves against 128x176's 216 in two), 0.84 at 1536 x 1536 x
// 7168 (132 tiles, one wave, against 108 of 128x176), 0.855 / 0.86 at 192 / 384 x 18432 x 16384
// (two / three waves against 128x176's two, 128x256's two), 0.88 at 512 / 1536 x 4608 x 3584 (against
// 128x176's one wave of 108, ping-pong's four waves), 0.97 / 0.99 at 96 x 37888 x 3584 / 96 x 18432
// x 16384. On the 124 grid rows it leaves alone it took 0.96-6.1x (the worse round): faster only at
// 768 / 1536 x 18432 x 16384 (0.96 / 0.98; left to ping-pong / 128x256 c2x1), level at 32 x 18432 x
// 16384, slower on the other 121. Of 663 shapes (17 M from 64 to 4096 x 39 weights) the rule moves
// 28, none of the suites'; the 20 not on the grid are not yet measured (experiments_s56/call2.sh
// times all 28 beside the previous choice).
// (Session 45 saw the narrow 128x96 tile lose to its first choice at K <= 2048, where a launch's
// fixed part weighs more than fuller waves; no wave tile row below K = 3584 was measured.)
// MEASURED (H100, session 57, experiments_s57/call1: the 28 moved shapes, automatic beside the previous
// choice forced, two rounds): 0.82-0.99x on 26 (geomean of the 28 0.886; 640 x 7168 x 16384 0.82,
// 320 / 384 x 6144 x 4096 0.86-0.89, 1536 x 4608 x 3584 against ping-pong 0.90), 1.05-1.07x at 160 /
// 192 x 27648 x 5120 against 64x128 (M <= 256: streaming B, where the 64-row tiles' fuller grid
// counts for more than the model's per-tile cost): hence not in place of a 64-row first choice.
// Session 59 (experiments_s59/callI 'weak', one round): 1536 x 3072 x 3072, 264 tiles of 128x144 in
// two whole waves against 216 of 128x176, 0.84x; kWaveMinK 3584 -> 3072 moves it and 768 x 3072 x
// 3072 (132 tiles against 108). MEASURED (call J, two rounds; 128x176 forced / automatic): 1.14-1.15
// and 1.13 (sustained 1.09 at 1536).
constexpr std::int64_t kWaveMinK = 3072;
bool wave_tile(const KernelInfo& k) {
  return k.schedule == kernels::sm90::Schedule::cooperative && k.block_m == 128 && k.block_n == 144 &&
         k.cluster_m * k.cluster_n == 1;
}

// 128x256 in 2x2 clusters (A and B both multicast): chosen by name only until measured (session 63).
bool quad_tile(const KernelInfo& k) { return k.cluster_m == 2 && k.cluster_n == 2; }

// The clusters of kernel k that run at once on num_sms SMs (its persistent grid's workers), >= 1.
std::int64_t co_resident_clusters(const KernelInfo& k, int num_sms) {
  return std::max(1, num_sms / (k.cluster_m * k.cluster_n));
}
// Cluster tiles ((cluster_m * block_m) x (cluster_n * block_n)) covering M x N: the scheduler's
// work units without split-K.
std::int64_t cluster_tiles(const KernelInfo& k, std::int64_t m, std::int64_t n) {
  return ceil_div(m, std::int64_t{k.block_m} * k.cluster_m) * ceil_div(n, std::int64_t{k.block_n} * k.cluster_n);
}
}  // namespace

// Waves of work units: the scheduler hands out cluster tiles ((cluster_m * block_m) x
// (cluster_n * block_n)), one per cluster at a time, so a 2x1 cluster at M <= block_m still
// occupies two SMs for one tile's worth of rows (the second CTA's rows lie outside M).
std::int64_t cluster_waves(const KernelInfo& k, std::int64_t m, std::int64_t n, int num_sms) {
  return ceil_div(cluster_tiles(k, m, n), co_resident_clusters(k, num_sms));
}

namespace {
// The share of the last wave's slots that `units` of work keep busy, `slots` at a time.
double wave_fill(std::int64_t units, std::int64_t slots) {
  return static_cast<double>(units) / static_cast<double>(ceil_div(units, slots) * slots);
}
// ... for a tile's clusters: cluster tiles over the co-resident clusters.
double last_wave_fill(const KernelInfo& k, std::int64_t m, std::int64_t n, int num_sms) {
  return wave_fill(cluster_tiles(k, m, n), co_resident_clusters(k, num_sms));
}
// automatic, one wave that leaves SMs idle on a long K (B N x K, what was measured): where the unsplit
// choice is a 128-row cooperative tile whose grid is one wave,
//   - 128x128 / 128x176 / ... without a cluster, at most kSerialWaveMaxFill of the SMs busy, K >=
//     kSerialWaveMinK: serial split-K in 2 slices on the model's kernel for it, where those slices
//     are one wave of at least kSerialWaveMinFill of the SMs;
//   - 128x256, at most kStreamKWaveMaxFill of the clusters busy, K >= kStreamKWaveMinK: stream-K on
//     the 128x256 tile (c1x1 or c2x1) the model ranks faster for it.
// MEASURED (H100, session 57, experiments_s57/call1 'serial_cand': 23 one-wave shapes, M 256-768,
// K 7168-18944, automatic beside serial 2, stream-K and parallel 2 with the model's kernels, two
// rounds; time / automatic): serial 2 (128x176, 126 CTAs) 0.81-0.87 at 320 / 384 x 3584 x 18944
// (84 / 84 tiles of 128x128, 64% of the SMs); slower or level wherever K <= 14336 (1.00-1.28, also at
// 64% full: 320 x 2112 x 7168 1.03-1.07) or the grid was fuller (448 / 512 x 3584 x 18944, 85%:
// 1.10-1.12). Stream-K 0.84-0.86 at 640 x 5120 x 17920, 0.87-0.92 at x 13824 (100 tiles of 128x256,
// 76%), 0.94-0.95 at 448 / 512 x 7168 x 16384 (112 tiles, 85%; c2x1); slower against 128x128 first
// choices (448 / 512 x 3584 x 18944 1.06-1.10, 640 x 2560 x 10240 1.02-1.06) and at K <= 10240.
// Call 2 (these rules at 85%, automatic beside the unsplit choice forced, two rounds): 320 / 384 x 3584
// x 18944 0.88 / 0.86, 640 x 5120 x 13824 / 17920 0.89-0.90 / 0.94; at 85% full 512 x 7168 x 16384
// 1.03 (0.95 in call 1) and 1024 x 3584 x 18944 0.98: no gain to count on there, hence 80%.
constexpr double kSerialWaveMaxFill = 0.67;
constexpr double kSerialWaveMinFill = 0.9;
constexpr std::int64_t kSerialWaveMinK = 16384;
constexpr double kStreamKWaveMaxFill = 0.8;
constexpr std::int64_t kStreamKWaveMinK = 13824;

// Which of those one-wave rules (choose_split) may take a first choice ki's shape: a 128-row
// cooperative tile whose grid is one wave (B N x K, what was measured) at most kSerialWaveMaxFill
// (no cluster, narrower than 256) or kStreamKWaveMaxFill (128x256) of the SMs busy on a long K.
// choose_kernel leaves those shapes to them (the narrow ping-pong rule's evener-columns criterion).
enum class OneWaveSplit { none, serial, stream_k };
OneWaveSplit one_wave_split(const KernelInfo& ki, std::int64_t m, std::int64_t n, std::int64_t k_dim, int num_sms) {
  if (!ki.b_k_major || ki.schedule != kernels::sm90::Schedule::cooperative || ki.block_m != 128 ||
      cluster_waves(ki, m, n, num_sms) != 1)
    return OneWaveSplit::none;
  const double fill = last_wave_fill(ki, m, n, num_sms);
  if (ki.block_n < 256 && ki.cluster_m * ki.cluster_n == 1 && k_dim >= kSerialWaveMinK && fill <= kSerialWaveMaxFill)
    return OneWaveSplit::serial;
  if (ki.block_n == 256 && k_dim >= kStreamKWaveMinK && fill <= kStreamKWaveMaxFill) return OneWaveSplit::stream_k;
  return OneWaveSplit::none;
}
}  // namespace

double relative_cost(const KernelInfo& k, std::int64_t m, std::int64_t n, std::int64_t k_dim, int num_sms) {
  // MEASURED (session 5): counting CTA tiles instead of cluster tiles here picked 128x256 c2x1 at
  // M = 128 (half its CTAs idle): llama3_70b.gate_up 128 rows 388 us against 324 for c1x1.
  const std::int64_t waves = cluster_waves(k, m, n, num_sms);
  const bool pingpong = k.schedule == kernels::sm90::Schedule::pingpong;
  // A cluster's multicast pays in the steady state; a grid of one or two waves pays the cluster's
  // launch instead, so it gets the efficiency of the same tile without a cluster (and ties go to
  // the smaller cluster, choose_kernel). MEASURED (H100, session 14; bench/results/h100/
  // experiments_s14/tile256_clusters): 128x256 forced in 1x1 and 2x1 clusters over llm M >= 1024
  // and square, three rounds: with one or two waves 1x1 ran 0.3-2.7% faster, from four waves on the
  // same within noise. A/B of this rule, three rounds (experiments_s14/cluster_waves_ab): the five
  // llm M = 1024 shapes it moves to 1x1 faster in every round (llama3_8b.o 0.937-0.946 ->
  // 0.963-0.967x cuBLASLt, the others +0.3-1%).
  KernelInfo flat = k;
  if (waves <= 2) flat.cluster_m = flat.cluster_n = 1;
  const double per_tile = static_cast<double>(k_dim) / tile_efficiency(flat) + (pingpong ? kPingpongTileOverheadK : kTileOverheadK);
  const double once = pingpong ? kPingpongOnceOverheadK : 0.0;
  return waves_cost(k, waves, per_tile, once);
}

KernelChoice choose_kernel(DTypeIn in, DTypeOut out, bool b_k_major, std::int64_t m, std::int64_t n, std::int64_t k_dim,
                           int num_sms, bool split_k_only, int pair_capacity) {
  KernelChoice best;
  double best_cost = INFINITY;
  int candidates = 0;
  std::vector<int> small_tiles;  // the candidates small_tile() sets aside for the rule below the loop
  std::vector<int> pair_tiles;   // ... and pair_tile()
  std::vector<int> wide_tiles;   // ... and wide_swap_tile()
  std::vector<int> narrow_tiles;  // ... and narrow_tile()
  std::vector<int> wave_tiles;    // ... and wave_tile()
  std::vector<int> pingpong_narrow_tiles;  // ... and pingpong_narrow_tile()
  char buf[256];
  // Ties: the larger tile, then the smaller cluster.
  const auto area = [](const KernelInfo& x) { return x.block_m * x.block_n; };
  const auto cluster_of = [](const KernelInfo& x) { return x.cluster_m * x.cluster_n; };
  // A property of the shape: where the 128x256 tile's lower energy per FLOP beats ping-pong
  // (kPingpongMaxK).
  const bool pingpong_costs_energy = m >= kPingpongEnergyMinM && k_dim >= kPingpongMaxK &&
                                     static_cast<double>(ceil_div(m, 128) * ceil_div(n, 256)) >= kPingpongCoopWaves * num_sms;
  for (int i = 0; i < kernel_count(); ++i) {
    const KernelInfo& k = kernel_info(i);
    if (k.dtype_in != in || k.dtype_out != out || k.b_k_major != b_k_major) continue;
    if (split_k_only && !supports_split_k(k)) continue;
    const int cluster = k.cluster_m * k.cluster_n;
    const std::int64_t ctas = (num_sms / cluster) * cluster;
    const std::int64_t tiles_m = (m + k.block_m - 1) / k.block_m, tiles_n = (n + k.block_n - 1) / k.block_n;
    const std::int64_t tiles = tiles_m * tiles_n;
    const std::int64_t waves = cluster_waves(k, m, n, num_sms);
    // Swap-AB kernels: for decode by choose_split's rule, the wide tile by its rule below.
    if (k.schedule == kernels::sm90::Schedule::swap_ab) {
      if (wide_swap_tile(k) && !split_k_only) wide_tiles.push_back(i);
      continue;
    }
    if (k.schedule == kernels::sm90::Schedule::gemv) continue;  // (by the decode rule in choose_split)
    if (quad_tile(k)) continue;                                  // (by name only)
    if (narrow_tile(k)) {  // by its own rule, below
      if (!split_k_only) narrow_tiles.push_back(i);
      continue;
    }
    if (wave_tile(k)) {  // by its own rule, below
      if (!split_k_only) wave_tiles.push_back(i);
      continue;
    }
    if (small_tile(k)) {  // by its own rule, below
      small_tiles.push_back(i);
      continue;
    }
    if (pair_tile(k)) {  // by its own rule, below
      pair_tiles.push_back(i);
      continue;
    }
    if (pingpong_narrow_tile(k)) {  // by its own rule, below
      if (!split_k_only) pingpong_narrow_tiles.push_back(i);
      continue;
    }
    if (k.schedule == kernels::sm90::Schedule::pingpong) {
      // MEASURED (H100, docs/sm90_notes.md "Step 2 measured"): the 2x1 cluster and the 64x256
      // ping-pong tiles lost to the other tiles on every suite (0.77/0.79x cuBLASLt square, 0.90/0.86x
      // llm M >= 1024): chosen by name only. 128x128 c1x1 wins once every CTA has a tile (a
      // CTA with one tile leaves one warpgroup idle: 1024^3 ran at 0.49x).
      if (cluster > 1 || k.block_n != 128 || tiles < ctas) continue;
      if (2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k_dim) > kPingpongMaxFlops) continue;
      if (pingpong_costs_energy) continue;
    }
    ++candidates;
    const double cost = relative_cost(k, m, n, k_dim, num_sms);
    const bool tie = best.index >= 0 && cost <= best_cost * (1 + 1e-9);
    const bool better =
        cost < best_cost * (1 - 1e-9) ||
        (tie && (area(k) > area(kernel_info(best.index)) ||
                 (area(k) == area(kernel_info(best.index)) && cluster_of(k) < cluster_of(kernel_info(best.index)))));
    if (best.index < 0 || better) {
      best_cost = cost;
      best.index = i;
      std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d%s on %lld CTAs: %lld wave(s), cost %.3f", static_cast<long long>(tiles),
                    k.block_m, k.block_n, k.schedule == kernels::sm90::Schedule::pingpong ? " (pingpong)" : "",
                    static_cast<long long>(ctas), static_cast<long long>(waves), cost);
      best.explanation = buf;
    }
  }
  if (best.index < 0) return best;
  best.explanation += " (least of " + std::to_string(candidates) + " candidates)";
  if (m > kNarrowMinM && k_dim >= kNarrowMinK) {
    for (const int i : narrow_tiles) {
      const KernelInfo& k = kernel_info(i);
      if (fill_tile(k)) continue;  // (in 128x96's place, below)
      const std::int64_t tiles = cluster_tiles(k, m, n);
      const std::int64_t last = n % k.block_n;
      const double cost = relative_cost(k, m, n, k_dim, num_sms);
      if (tiles > num_sms || (last != 0 && 2 * last < k.block_n) || cost >= best_cost) continue;
      const KernelInfo& first = kernel_info(best.index);
      std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d on %d SMs: one wave, cost %.3f against %.3f for %lld tiles of %dx%d",
                    static_cast<long long>(tiles), k.block_m, k.block_n, num_sms, cost, best_cost,
                    static_cast<long long>(cluster_tiles(first, m, n)), first.block_m, first.block_n);
      best.index = i;
      best.explanation = buf;
      for (const int j : narrow_tiles) {
        const KernelInfo& f = kernel_info(j);
        const std::int64_t fill_tiles = cluster_tiles(f, m, n);
        if (!fill_tile(f) || fill_tiles > num_sms || fill_tiles <= tiles ||
            static_cast<double>(fill_tiles) < kFillTileMinFill * num_sms)
          continue;
        std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d on %d SMs: one wave of more CTAs than %lld of %dx%d (the narrow "
                      "rule's, cost %.3f against %.3f for %lld tiles of %dx%d)",
                      static_cast<long long>(fill_tiles), f.block_m, f.block_n, num_sms, static_cast<long long>(tiles),
                      k.block_m, k.block_n, cost, best_cost, static_cast<long long>(cluster_tiles(first, m, n)),
                      first.block_m, first.block_n);
        best.index = j;
        best.explanation = buf;
        break;
      }
      return best;
    }
  }
  if (const KernelInfo& b = kernel_info(best.index);
      b.block_m == 128 && (b.block_n == 128 || b.block_n == 256) && b.cluster_m * b.cluster_n == 1 && m > 128 && m <= 256 &&
      k_dim >= kPairMinK) {
    const bool first_128x128 = b.schedule == kernels::sm90::Schedule::cooperative && b.block_n == 128;
    const std::int64_t busy = std::min<std::int64_t>(cluster_tiles(b, m, n), num_sms);
    const std::int64_t slots = pair_capacity > 0 ? pair_capacity : num_sms / 2;  // co-resident clusters
    int pick = -1;
    std::int64_t pick_waves = 0, pick_ctas = 0;
    for (const int i : pair_tiles) {
      const KernelInfo& k = kernel_info(i);
      const std::int64_t clusters = cluster_tiles(k, m, n);
      const std::int64_t waves = ceil_div(clusters, slots);
      const std::int64_t ctas = 2 * clusters;  // (in one wave; several are ranked by pair_waves_cost)
      if (waves == 1 ? !first_128x128 || ctas < busy || (k_dim < kPairSharedMinK && ctas == busy)
                     : k.block_n != kPairWavesTileN || pair_waves_cost(k, waves, k_dim) >= best_cost)
        continue;
      if (pick < 0 || waves < pick_waves || (waves == pick_waves && ctas > pick_ctas) ||
          (waves == pick_waves && ctas == pick_ctas && k.block_n > kernel_info(pick).block_n)) {
        pick = i;
        pick_waves = waves;
        pick_ctas = ctas;
      }
    }
    if (pick >= 0) {
      const KernelInfo& k = kernel_info(pick);
      if (pick_waves == 1) {
        std::snprintf(buf, sizeof buf, "the two M tiles of each N column share B in 2x1 clusters: %lld clusters of %dx%d, "
                      "%lld CTAs in one wave (K = %lld), against %lld tiles of %dx%d",
                      static_cast<long long>(pick_ctas / 2), k.block_m, k.block_n, static_cast<long long>(pick_ctas),
                      static_cast<long long>(k_dim), static_cast<long long>(cluster_tiles(b, m, n)), b.block_m, b.block_n);
      } else {
        std::snprintf(buf, sizeof buf, "the two M tiles of each N column share B in 2x1 clusters: %lld clusters of %dx%d in "
                      "%lld waves of %lld, cost %.3f against %.3f for %lld tiles of %dx%d%s (K = %lld)",
                      static_cast<long long>(pick_ctas / 2), k.block_m, k.block_n, static_cast<long long>(pick_waves),
                      static_cast<long long>(slots), pair_waves_cost(k, pick_waves, k_dim), best_cost,
                      static_cast<long long>(cluster_tiles(b, m, n)), b.block_m, b.block_n,
                      b.schedule == kernels::sm90::Schedule::pingpong ? " (pingpong)" : "", static_cast<long long>(k_dim));
      }
      best.index = pick;
      best.explanation = buf;
      return best;
    }
  }
  for (const int i : wave_tiles) {
    if (k_dim < kWaveMinK || kernel_info(best.index).block_m < 128) break;
    const KernelInfo& k = kernel_info(i);
    const double cost = relative_cost(k, m, n, k_dim, num_sms);
    if (cost >= best_cost * (1 - 1e-9)) continue;
    const KernelInfo& first = kernel_info(best.index);
    std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d on %d SMs: %lld wave(s), cost %.3f against %.3f for %lld tiles of %dx%d%s",
                  static_cast<long long>(cluster_tiles(k, m, n)), k.block_m, k.block_n, num_sms,
                  static_cast<long long>(cluster_waves(k, m, n, num_sms)), cost, best_cost,
                  static_cast<long long>(cluster_tiles(first, m, n)), first.block_m, first.block_n,
                  first.schedule == kernels::sm90::Schedule::pingpong ? " (pingpong)" : "");
    best.index = i;
    best.explanation = buf;
    best_cost = cost;
  }
  if (const KernelInfo& first = kernel_info(best.index);
      ((first.schedule == kernels::sm90::Schedule::pingpong && first.block_n == 128 && first.cluster_m * first.cluster_n == 1) ||
       (first.schedule == kernels::sm90::Schedule::cooperative && first.block_m == 128 && m > 256)) &&
      k_dim >= kPingpongNarrowMinK) {
    // The first choice's side of both criteria. Output columns of the busiest CTA: its tiles (ping-pong:
    // a CTA's two warpgroups take turns on the tensor cores) times their width.
    const std::int64_t first_columns = cluster_waves(first, m, n, num_sms) * first.block_n;
    const bool even_shape = k_dim >= kPingpongEvenMinK && m <= kPingpongEvenMaxM && !pingpong_costs_energy &&
                            one_wave_split(first, m, n, k_dim, num_sms) == OneWaveSplit::none;
    const long long first_tiles = cluster_tiles(first, m, n);
    const char* first_pingpong = first.schedule == kernels::sm90::Schedule::pingpong ? " (pingpong)" : "";
    for (const int i : pingpong_narrow_tiles) {
      const KernelInfo& k = kernel_info(i);
      const std::int64_t tiles = cluster_tiles(k, m, n), waves = cluster_waves(k, m, n, num_sms);
      const double cost = relative_cost(k, m, n, k_dim, num_sms);
      const bool cheaper = cost < kPingpongNarrowGain * best_cost &&
                           (first.schedule == kernels::sm90::Schedule::pingpong || tiles >= num_sms);
      const std::int64_t columns = waves * k.block_n;
      const bool evener = even_shape &&
                          static_cast<double>(columns) <= kPingpongEvenShare * static_cast<double>(first_columns) &&
                          static_cast<double>(std::min<std::int64_t>(tiles, num_sms)) >= kPingpongEvenMinFill * num_sms;
      if (!cheaper && !evener) continue;
      if (cheaper)
        std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d (pingpong) on %d SMs: %lld wave(s), cost %.3f against %.3f for "
                      "%lld tiles of %dx%d%s", static_cast<long long>(tiles), k.block_m, k.block_n, num_sms,
                      static_cast<long long>(waves), cost, best_cost, first_tiles, first.block_m, first.block_n, first_pingpong);
      else
        std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d (pingpong) on %d SMs: the busiest CTA computes %lld output "
                      "columns against %lld for %lld tiles of %dx%d%s (K = %lld)", static_cast<long long>(tiles),
                      k.block_m, k.block_n, num_sms, static_cast<long long>(columns), static_cast<long long>(first_columns),
                      first_tiles, first.block_m, first.block_n, first_pingpong, static_cast<long long>(k_dim));
      best.index = i;
      best.explanation = buf;
      return best;
    }
  }
  if (const KernelInfo& first = kernel_info(best.index);
      m >= kWideSwapMinM && k_dim >= kWideSwapMinK && cluster_waves(first, m, n, num_sms) == 1) {
    const std::int64_t first_ctas = cluster_tiles(first, m, n) * first.cluster_m * first.cluster_n;
    for (const int i : wide_tiles) {
      const KernelInfo& k = kernel_info(i);
      const std::int64_t tiles = cluster_tiles(k, m, n);
      if (m % k.block_m != 0 || first_ctas > kWideSwapMaxFirstFill * num_sms || tiles > num_sms ||
          tiles < kWideSwapMinFill * num_sms)
        continue;
      std::snprintf(buf, sizeof buf, "swap-AB %dx%d (tokens x weight columns): %lld tiles on %d SMs, one wave, against %lld "
                    "CTAs of %dx%d", k.block_m, k.block_n, static_cast<long long>(tiles), num_sms,
                    static_cast<long long>(first_ctas), first.block_m, first.block_n);
      best.index = i;
      best.explanation = buf;
      return best;
    }
  }
  if (small_tiles.empty() || m < kSmallTileMinM) return best;
  const KernelInfo& first = kernel_info(best.index);
  const double best_us = estimate_us(first, m, n, k_dim, num_sms, kernels::sm90::SplitMode::none, 1);
  const double first_fill = last_wave_fill(first, m, n, num_sms);
  for (const int i : small_tiles) {
    const KernelInfo& k = kernel_info(i);
    const double t = estimate_us(k, m, n, k_dim, num_sms, kernels::sm90::SplitMode::none, 1);
    const double fill = last_wave_fill(k, m, n, num_sms);
    if (t <= kSmallTileGain * best_us) {
      std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d on %d SMs: predicted %.1f us against %.1f us for %s",
                    static_cast<long long>(cluster_tiles(k, m, n)), k.block_m, k.block_n, num_sms, t, best_us, first.name);
    } else if (tile_64x128(first) && k_dim >= kSmallTileFillMinK && k_dim <= (b_k_major ? kSmallTileFillMaxK : kSmallTileFillMaxKBn) &&
               fill >= kSmallTileFillMin && fill >= kSmallTileFillGain * first_fill) {
      std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d fill %.0f%% of the last wave's %d SMs against %.0f%% for %s (K = %lld)",
                    static_cast<long long>(cluster_tiles(k, m, n)), k.block_m, k.block_n, 100 * fill, num_sms,
                    100 * first_fill, first.name, static_cast<long long>(k_dim));
    } else {
      continue;
    }
    best.index = i;
    best.explanation = buf;
    best.replaced_us = best_us;
    break;
  }
  return best;
}

namespace {

namespace k90 = graphgemm::kernels::sm90;

// Cost model constants (H100 SXM; see docs/sm90_notes.md, "Split-K", for where they come from and
// what to measure to refine them).
constexpr double kHbmBytesPerUs = 3.0e6;      // 3.0 TB/s: copy bandwidth measured by the bench
constexpr double kSmBytesPerUs = 150.0e3;     // one SM's load rate, fitted to the split-K table (150 GB/s)
constexpr double kSmFlopsPerUs = 5.88e6;      // 776 TFLOP/s dense bf16 / 132 SMs
constexpr double kL2BytesPerUs = 1.0e6;       // partial tiles written + read through L2 (fitted: 1 TB/s)
// The 64x128 tile (one consumer warpgroup) in parallel split-K units through the workspace: its
// tensor efficiency there, in place of tile_efficiency's 0.55 (fitted by relative_cost to full
// grids; kept for the unsplit, stream-K and cluster-sum estimates; serial units since the serial
// refit below: the same CTAs on a K slice, median estimate / measured of one-wave 64x128 serial
// cells within half the SMs 1.22 at 0.55, 1.05 at 0.70, with the serial terms below). FITTED (session 22,
// offline) to the H100 split-K tables (bench/results/h100/splitk/, sessions 14 and 21) and the
// forced split tiles of session 21 (experiments_s21/split_tiles, call 9): less the model's other
// terms, such a CTA took 0.15-0.18 us per k-block with 4-32 CTAs busy, 0.21 with 64 (256x256x16384
// in 8 slices) and 0.24 with 128 (unsplit, llama3_8b.down M = 256), where 0.55 puts 0.32. At 0.70
// (0.255 us): 256x256x16384 in 8 slices 16.8 -> 14.6 us (ranked 12.7 with kSplitPdlGainUs; measured
// 13.1-13.2, against 13.5-14.0 for the 8 slices summed in clusters of 8, predicted 13.6: automatic
// now takes the workspace split), 128x256x32768 in 16 slices 16.8 -> 14.6 (measured 14.7-15.0).
// Of the 111 suite shapes' automatic choices, any value in [0.63, 0.74] moves that one only; above
// it 128x256x32768 leaves its 16 slices (the measured best) for 11-15 (not measured). The 64x64
// tile keeps 0.55: outside 0.54-0.56 automatic's 32 slices at 64x64x65536 (measured best) move.
// Off the suite it moves 101 of a 245-shape grid's choices, mostly to fewer 64x128 slices through
// the workspace; MEASURED (H100, session 22, experiments_s22/refit: 15 of them, old and new choice
// forced in one binary, two rounds): 13 faster (320x1024x32768 66.0 -> 48.8 us, 512x512x16384 32.7
// -> 25.0, 320x128x4096 9.4 -> 7.3, 192x1024x65536 68.4 -> 64.7, 256x256x16384 13.7 -> 13.1), two
// slower by 0.5-2% (512x128x16384, 64x384x4096).
constexpr double kWorkspaceSplitEfficiency64x128 = 0.70;
// Slices summed within clusters: a cluster's CTAs run in one GPC, and the clusters of a launch
// share the GPCs, so the busiest GPC streams ceil(clusters / kGpcs) clusters' operands at one GPC's
// rate. MEASURED (H100, session 8, docs/sm90_notes.md): one cluster of 8 or 16 CTAs streamed
// 0.52-0.67 TB/s whatever its size. Session 20: without this term automatic summed 128x1536x7168
// in 12 clusters of 8 (predicted 11.1 us; measured 16.2-16.7 us in the six committed suite runs of
// sessions 14-19, where unsplit 64x64 tiles took 15.5-15.7); with it (2 clusters on the busiest
// GPC: 12.2 us of streaming, then the sum) automatic runs that shape unsplit. Of the 111 suite
// shapes' automatic choices it changes only that one.
constexpr double kGpcBytesPerUs = 0.6e6;
constexpr int kGpcs = 8;                      // H100 SXM: 132 SMs in 8 GPCs
// Fitted floors on the estimate of a tile's slices summed in clusters of a size (the terms above
// still apply; the floor binds where it is higher):
//   busiest >= max(fill_us + kblock_us x (k-blocks of a slice), gpc_fill_us + busiest GPC's bytes / 0.97 TB/s)
// - 128x128 in clusters of 8: the busiest GPC's clusters stream their operands at 0.97 TB/s (its
//   CTAs' tensor time does not bind: few SMs run), plus 5.5 us (cluster launch and pipeline fill;
//   the sum of its 64 KB fp32 partials through DSMEM, 4x the bytes of the 64x64 tile traced at 3.1
//   us in session 7) before the sum (kClusterSumUs; the fill hides under a DRAM-bound launch).
//   FITTED (session 22, offline, experiments_s22/cluster/offline) to the 26 measured cells of 8
//   slices in clusters of 8 (split-K tables of sessions 14, 21, 22; forced split tiles of session
//   21; call 8's sweep; K = 4096-65536, 1-12 clusters): 8.5 us + bytes / 0.97 TB/s puts all within
//   -2.0 / +0.8 us (before: -17.8 / +3.6; the old terms put K = 4096-8192 2.1-3.6 us too fast,
//   64-128 k-blocks a slice 5-16 us too slow). A floor, not a replacement: at 64+ k-blocks a slice
//   the old terms still bind (5-16 us high), since the lower estimate there would move automatic
//   (grid: 13 shapes) onto 128x128 sums not measured at those shapes. With the floor, cells of up to
//   32 k-blocks a slice: -0.9 / +0.8 us. Automatic then leaves the 128x128 sum where serial 64x64
//   measured faster (call 8): 256x512x4096 10.2 -> 8.4 us, 512x256x8192 12.9 -> 12.2.
// - 128x128 and 64x128 in clusters of 4: FITTED (session 23, by hand to the 116 measured cells of 4
//   slices in clusters of 4, 68 of 128x128 and 48 of 64x128, both B layouts, K = 4096-32768, 1-3
//   clusters a GPC; bench/results/h100/experiments_s23/c4cells, call 1): the terms above put them up
//   to 3.6 us too fast at 16-32 k-blocks a slice (which sent automatic to 128x128 4:c4 at 12.7-17.1
//   us where 64x64 tiles ran 10.0) and 4-13 us too slow at 64-128. With the floors, measured -
//   estimate: median -0.2 / -1.0 us, at most +0.5 / +0.7 (128x128 / 64x128); above 64 k-blocks a
//   slice the old terms still bind (pessimistic).
// Other tiles and clusters of 2 keep the terms above (not fitted).
constexpr double kClusterFloorGpcBytesPerUs = 0.97e6;
struct ClusterSumFloor {
  int block_m, block_n, cluster;
  double kblock_us;    // per k-block of a slice (0: no such term)
  double fill_us;      // with the k-blocks
  double gpc_fill_us;  // with the busiest GPC's bytes
};
constexpr ClusterSumFloor kClusterSumFloors[] = {
    {128, 128, 8, 0.0, 0.0, 5.5},    // session 22
    {128, 128, 4, 0.283, 5.3, 7.6},  // session 23
    {64, 128, 4, 0.25, 3.0, 4.6},    // session 23
};
constexpr double kUnitLatencyUs = 0.25;       // per wave: first loads, epilogue tail (fitted)
constexpr double kSplitFixedUs = 2.0;         // split-K: counter zeroing + hand-offs (fitted; the refit to
                                              // session 13's table, zeroing kernel instead of a memset node, kept 2)
// Serial split-K: a tile's slices form one chain (slice s waits for s - 1's running sum, adds it,
// hands it on), and no reduction pass follows the GEMM work as in the parallel mode: per hand-off
// kSerialStepUs plus one fp32 tile round trip (write + read) per slice at kSerialBytesPerUs (the
// running sum moves as plain stores and loads from registers, not TMA). FITTED (session 22,
// offline, experiments_s22/serial/offline) to the H100 serial cells less the model's parallel cell of the
// same shape, tile and slices (same work units): split-K tables of sessions 14, 21 and 22, forced
// split tiles of session 21, and call 8's sweep (experiments_s22/split_sweep), 181 one-wave cells.
// Medians measured / now / before (2.0 us fixed, 2.0 us a hand-off, 150 GB/s): 64x64, 2 slices 2.0
// / 2.0 / 4.2 us, 16 slices 22.3 / 23.1 / 35.3; 64x128, 2 slices 3.2 / 3.0 / 4.4, 16 slices 31.5 /
// 31.1 / 38.6; 128x128, 2 slices 5.2 / 5.0 / 4.9, 4 slices 11.0 / 11.1 / 10.6. Grids of more than
// one wave measured 5-6 us above this on average (automatic takes serial within half the SMs only).
constexpr double kSerialStepUs = 1.0;         // serial: one semaphore hand-off (fitted)
constexpr double kSerialBytesPerUs = 65.0e3;  // serial: the running sum's fp32 tile, per slice (fitted: 65 GB/s)
constexpr double kClusterSumUs = 3.0;         // parallel, summed in clusters: smem write, 2 cluster barriers,
                                              // DSMEM reads (sm90_trace, H100, session 7: 3.1 us)
constexpr double kClusterPushUs = 1.0;        // swap-AB: fragments pushed to their owner (st.async): one
                                              // one-way DSMEM trip (PREDICTED, session 9)
constexpr double kSplitGain = 0.7;            // automatic: split only if predicted <= 0.7x unsplit
// automatic, serial: K in 2 slices of the 64x64 tile where the split grid keeps at least half the
// SMs idle (2 x tiles x 2 CTAs <= SMs; there every CTA streams at the per-SM rate the model
// assumes; grids filling the SMs measured up to 26% above the model: 64x64 at 512x512x16384, 128
// CTAs, 29.1 us against 23.0 predicted), if predicted at most kSerialSplitGain x unsplit and, where
// automatic already takes a split through the workspace, ranked before it. A cluster sum stays:
// the model's error differs there (measured minus ranked, call 8, K = 4096-8192: 8 slices of
// 64x128 +0.4 to +1.7 us, of 128x128 +2.1 to +3.6, serial 64x64 in 2 +1.2 to +2.9; measured, the
// serial 64x64 grid beat the 128x128 sum on 5 of 5 shapes, 256x512x4096 10.2 -> 8.4 us, and the
// 64x128 sum on 1 of 3, 320x128x4096 7.6 against 8.2). The 64x64 tile's output bound
// (kSmallTileSplitMaxOutputs, measured on grids filling the SMs) does not apply. MEASURED (H100,
// every serial-2 cell of the sources above within half the SMs with the unsplit choice of the same
// run): predicted 0.51-0.70x unsplit -> measured 0.53-0.96x (192x384x4096 0.70 -> 0.85,
// 64x2112x7168 0.68 -> 0.95-0.96, 128x128x16384 0.55 -> 0.61); none slower. Of the 111 suite
// shapes' automatic choices it changes only 64x2112x7168: unsplit 64x64, 15.8-15.9 us -> serial 2
// slices, 15.1-15.2 (session 21, two calls).
constexpr double kSerialSplitGain = 0.75;
// A split through the workspace launched programmatically (its zeroing kernel overlaps the previous
// kernel's tail): MEASURED (H100, session 13, per launch in a graph) -1.9 us at 128x128x16384 (26
// slices), -2.1 us at 64x64x65536 (61). Used to rank the split candidates only, not to decide
// against the unsplit launch (which takes programmatic launch by the same rule).
constexpr double kSplitPdlGainUs = 1.9;
// automatic, stream-K (StreamKPartition: whole waves, then the last, partial wave's k-blocks
// shared by every cluster) on the 128x256 tile in 2x1 clusters, where its unsplit grid has at
// least kStreamKMinWaves whole waves and a last wave at most kStreamKMaxTailFill full, K >=
// kStreamKMinK. MEASURED (H100, session 52, experiments_s52/call3, two rounds, stream-K / the same
// tile unsplit, automatic's choice): 15.5 waves (last 0.52 full) 8192^3 0.980 / 0.982, 8192 x
// 8192 x 28672 0.989 / 0.976; 8.7 waves (0.73) 6144^3 0.995 / 0.989; 9.7 waves (0.70) 4096 x
// 10240 x 8192 0.995 / 0.997; slower with fuller last waves: 7.8 waves (0.76) 1.008-1.013 at K =
// 4096-8192, 1.026-1.053 at K = 28672; 5-7 waves (0.79-0.82) 1.02-1.09; 3.9 waves (0.88) 1.04-1.05.
// What sharing costs is the hand-off, not the k-blocks (session 53, per-CTA traces of the shared
// part, experiments_s53/call2): a CTA whose range holds one segment streams it at 0.99-1.06x the
// whole waves' rate a k-block, one whose range also crosses into the next tile at 1.14-1.25x, the
// ~4.5 us its partial store and release take; the owner then hands off ~6-7 us after its main
// loop. Those ~10 us pay only where the last wave is short enough and the launch long.
// (Owners' heads all at one k, session 53: the aligned heads ran 0.94-0.97x the whole waves' rate,
// but helpers holding several tails paid a store each: faster only at K >= 14336, level at 8192^3,
// slower at K <= 8192 with fuller last waves; not kept.)
constexpr std::int64_t kStreamKMinWaves = 8;
constexpr double kStreamKMaxTailFill = 0.74;
constexpr std::int64_t kStreamKMinK = 4096;
constexpr int kMinKBlocksPerSlice = 4;        // automatic: every slice keeps >= 256 of K
constexpr int kMaxAutoSlices = 256;
constexpr double kSwapABGain = 1.0 + 1e-9;    // ... chosen unless the other is predicted faster
// automatic, swap-AB: K split in two, summed in clusters of 2, where every slice keeps at least this
// many k-blocks and 2 x tiles CTAs fit. MEASURED (H100, session 9, llm M <= 16, one run, graph
// replay, 16x64 tile unsplit -> 2 slices with PDL): deepseek_v3.a (33 tiles, 56 k-blocks per slice)
// 18.1 -> 12.9 us, llama3_8b.down (64 tiles, 112 per slice) 45.4 -> 42.0, llama3_8b.o (64 tiles,
// 32 per slice) 13.7 -> 13.7. The DRAM-bound model sees none of it (it predicts the unsplit grids
// at the HBM rate), hence a rule, not the estimate.
constexpr int kSwapABSplitMinKBlocks = 48;
// Swap-AB, stages of several k-blocks (block_k > 64): only for grids of at most num_sms /
// kSwapABAtomsMaxBusy tiles (the split rule above then applies as to the others).
// MEASURED (H100, session 18, llm and splitk M <= 16, forced tiles, two rounds in one call;
// bench/results/h100/experiments_s18/swap_atoms, round 1, M = 1): 16x64x256 (5 stages of 40 KB)
// against 16x64x64 (20 of 10 KB), unsplit: deepseek_v3.a (33 tiles) 18.3 -> 14.2 us, and split in
// two (clusters of 2, 66 CTAs) 13.3; 32x2112x7168 (32x64x256 against 32x64x64, experiments_s18/
// swap_ab) 1.86 -> 1.62x the floor unsplit, 1.41 split. With more tiles mixed or slower: 64 tiles,
// llama3_8b.down 42.9 -> 41.8 us and split 43.0, llama3_8b.o 14.3 -> 14.0, 32x4096x14336 1.09 ->
// 1.13x the floor; 112 tiles, deepseek_v3.d (K = 2048) 11.8 -> 13.2; 128 tiles, llama3_70b.o 46.3 -> 47.4.
// (tools/diag/tma_stream_probe: with few CTAs a CTA's weight stream is bound per stage, ~0.2 us each
// plus its bytes, not by the bytes in flight: 33 CTAs streaming 64-row tiles, 8 KB stages 1.07 TB/s,
// 32 KB stages 2.46 TB/s.)
constexpr int kSwapABAtomsMaxBusy = 4;
// Swap-AB with B stored K x N, ties between one-wave grids: the wider weight tile (128 rows, two
// consumer warpgroups, 16 KB stages) where its grid still has at least this many CTAs, else the
// narrower. MEASURED (H100, session 43, experiments_s43/call4: llm M = 1 / 16 and splitk M <= 32,
// B K x N, every swap tile forced, two rounds; time / the floor, 16x128 against 16x64): N = 6144
// (48 against 96 CTAs) 1.11 / 1.12 against 1.22 / 1.22; 7168 x 16384 1.02 against 1.08; 8192 x
// 28672 1.01 against 1.04; 8192 x 8192 and 7168 x 2048 level (+-0.5%); with fewer CTAs slower
// (N = 4096: 32 CTAs, 1.32 against 1.24; N = 2112: 17, 2.34 against 1.81). Between multi-wave grids
// mixed (28672 rows 2% faster, 57344 at M = 16 2-4% slower): the narrower, as before. With B N x K
// (call 4, one round) the same tiles ran within a few % of these, but 8192 x 8192 and 7168 x 2048
// 2.5% faster narrow, and gemv takes most of its M <= 16 rows: unchanged.
constexpr std::int64_t kSwapABWideMinCtasKN = 48;

// The gemv kernel (sm90_gemv.cuh) at M <= kGemvMaxM with B stored N x K. MEASURED (H100, session
// 39, experiments_s39/call2: every llm shape at M = 1 and splitk 16x4096x14336, 8-token gemv with
// 8 or 16 warps against the automatic swap-AB choice, one run, time / the memory floor):
// llama3_8b.qkv 1.20 -> 1.06, .o 1.26 -> 1.11, .gate_up 1.03 -> 0.97, .down 1.07 -> 1.05,
// llama3_70b.qkv 1.06 -> 0.98, deepseek_v3.a 1.27 -> 1.13, .c 1.06 -> 1.04, .d 1.19 -> 1.16, .b
// level (1.054 / 1.055); behind where swap-AB runs a full wave of 64-row CTAs over K >= 8192:
// llama3_70b.o 1.025 / 1.031, .gate_up 0.997 / 1.011, .down 1.010 / 1.035 (kept there). Warps:
// 16 where N / 16 CTAs fit one an SM (deepseek_v3.a 1.13 against 1.22 with 8) or K >= 8192
// (llama3_70b.qkv 0.98 / 1.08, deepseek_v3.c 1.04 / 1.28); else 8 (llama3_8b.o 1.11 / 1.20: the
// 16-warp CTAs fit one an SM and N = 4096 takes two waves of them).
constexpr std::int64_t kGemvMaxM = 8;
constexpr std::int64_t kGemvSwapMinK = 8192;
constexpr double kGemvSwapMinWave = 0.95;
constexpr std::int64_t kGemvWideK = 8192;
// Decode (kGemvMaxM < M <= kSwapABMaxM), K >= kSwapUnsplit128MinK: where N / 64 tiles of 64 weight
// rows would fill one wave at least kSwapUnsplit128MinFill and less than kSwapUnsplit128MaxFill of
// the SMs, the 32x128 swap-AB tile unsplit (half as many CTAs, each streaming twice the rows; no
// cluster split), after the gemv rules (which take none of these shapes).
// MEASURED (H100, session 44, call 8: M = 16 / 32, N = 7168 (112 tiles of 64 rows: 0.85 of 132 SMs),
// both B layouts, every swap tile and 64x128 forced beside automatic, two rounds; time / the floor):
// K = 16384: B K x N automatic (16x128 / 32x128 split in two in clusters, 112 CTAs) 1.043-1.063
// against 32x128 unsplit 0.998-1.009; B N x K (16x64 / 32x64, 112 CTAs) 1.052-1.066 against
// 1.020-1.026. K = 8192: K x N 1.083-1.106 against 1.040-1.044; N x K 1.075-1.094 against
// 1.067-1.078. 16x128 unsplit at M = 16 slower than 32x128 (1.051-1.079). Not where the 64-row
// tiles fill the SMs (N = 8192, 128 tiles: automatic 0.980-1.013, level with the wider tiles) or
// leave more idle or need two waves (N = 4096 / 2112 / 10240: automatic the best or within 2%).
constexpr std::int64_t kSwapUnsplit128MinK = 8192;
constexpr double kSwapUnsplit128MinFill = 0.75;
constexpr double kSwapUnsplit128MaxFill = 0.9;
// 9..16 tokens: the 16-token gemv (a lane loads two token rows per two weight rows; 110 registers
// with 8 warps: 2 CTAs an SM, 168 with 4 warps and 4 chunks a batch: 3 CTAs an SM) only where
// swap-AB leaves SMs idle (its CTAs < kGemv16SwapMaxFill of the SMs), the gemv grid is one wave of
// more CTAs than SMs, and K is in [kGemv16MinK, kGemv16MaxK]. MEASURED (H100, session 40,
// experiments_s40): call 2, M = 12 / 16 over N 2048-28672 x K 1536-8192, both 16-token kernels
// forced against the automatic swap-AB choice, best gemv time / swap-AB time: N = 4096 (swap-AB
// 64 CTAs) 0.94-0.99 at K 2048-6144, 1.00 at 8192; N = 6144 (llm suite, 96 CTAs) 0.92; N = 7168
// (112 CTAs) 1.01-1.17; N = 2048 (128 gemv CTAs: one an SM) 0.95-1.19; deepseek_v3.a (2112 x 7168)
// 1.16. Call 4, this rule A/B against session 39's in two rounds: llama3_8b.qkv / .o M = 16 0.92 /
// 0.93x the time, the sweep's N = 4096 rows at K 2048-6144 0.93-0.97; at K = 1536 0.97-1.02 (not
// taken). Many waves of gemv CTAs: not by this rule (N = 28672, K <= 4096: 0.92-0.97, but
// deepseek_v3.b, 24576 x 1536: 1.05); by session 41's, below, where both sides' last waves say so. Warps: 8 where the CTAs fit 2 an SM, else 4
// (llama3_8b.qkv, 384 CTAs: 1.11x the floor against 1.25 with 8 warps).
constexpr std::int64_t kGemv16MaxM = 16;
constexpr double kGemv16SwapMaxFill = 0.8;
constexpr std::int64_t kGemv16MinK = 2048;
constexpr std::int64_t kGemv16MaxK = 6144;
// ... and where the gemv grid is at most one CTA an SM (N <= 16 x SMs), 16 warps a CTA (twice the
// weight bytes in flight of 8 warps; 118 registers, one CTA an SM) at K in [kGemv16MinK,
// kGemv16OneCtaMaxK]. MEASURED (H100, session 41, experiments_s41/call3: M = 9 / 12 / 16, N 1024 /
// 1536 / 2048 / 2112 x K 2048-16384, the 16-token kernels forced beside automatic's swap-AB, one
// run; time / swap-AB's): K = 2048 / 4096 0.63-0.96 on all 24 rows (N = 1024 0.63-0.70: swap-AB's
// 16 CTAs); K >= 7168 0.89-1.16, slower on most M = 12 / 16 rows (deepseek_v3.a M = 16 1.015:
// not taken); 8 warps slower than 16 on every row.
constexpr std::int64_t kGemv16OneCtaMaxK = 4096;
// ... and over several waves (more than 3 CTAs an SM), with 4 warps, where the gemv grid's last
// wave (3 CTAs an SM) is at least kGemv16WavesMinFill full and at least as full as swap-AB's (one
// CTA an SM), at K in [kGemv16MinK, kGemv16WavesMaxK]. MEASURED (H100, session 41,
// experiments_s41/call6: M = 9 / 16, N 7168-57344 x K 2048-4096, one run; time gemv16_w4_u4 /
// automatic's swap-AB): taken by this rule (N = 9504 / 10240 / 12672 / 20480 / 28672) 0.84-0.99 on
// all 30 rows; not taken: last wave 0.57 / 0.67 full (N = 7168 / 8448) 1.00-1.11, below swap-AB's
// (N = 14336: 0.75 against 0.85) 0.95-1.01, (N = 57344: 0.91 against 0.97) 0.99-1.05. Session 40
// (call 2, M = 12 / 16): N = 28672, K 2048-4096 0.92-0.97; deepseek_v3.b (K = 1536) 1.05.
constexpr double kGemv16WavesMinFill = 0.75;
constexpr std::int64_t kGemv16WavesMaxK = 4096;

// ", summed in clusters of 8 (no workspace)" for a cluster split, else "".
std::string cluster_note(const SplitChoice& c) {
  if (c.cluster <= 1) return {};
  return ", summed in clusters of " + std::to_string(c.cluster) + (c.slices == c.cluster ? " (no workspace)" : "");
}

}  // namespace

double estimate_us(const KernelInfo& k, std::int64_t m, std::int64_t n, std::int64_t kk, int num_sms,
                   k90::SplitMode mode, int slices, int cluster_k, int cluster_capacity) {
  const int cluster = k.cluster_m * k.cluster_n;
  const std::int64_t clusters = co_resident_clusters(k, num_sms);
  const std::int64_t tiles = cluster_tiles(k, m, n);
  const std::int64_t kb = ceil_div(kk, 64);
  // Per k-block of one CTA: tensor time and load time (a multicast operand is half each CTA's).
  const bool workspace_split = (mode == k90::SplitMode::serial || (mode == k90::SplitMode::parallel && cluster_k <= 1)) && slices > 1;
  const double efficiency = workspace_split && tile_64x128(k) ? kWorkspaceSplitEfficiency64x128 : tile_efficiency(k);
  const double t_compute = 2.0 * k.block_m * k.block_n * 64 / (kSmFlopsPerUs * efficiency);
  const double rows_a = k.cluster_n == 2 ? k.block_m / 2.0 : k.block_m;
  const double rows_b = k.cluster_m == 2 ? k.block_n / 2.0 : k.block_n;
  const double t_load = (rows_a + rows_b) * 64 * 2 / kSmBytesPerUs;
  const double tile_bytes = 4.0 * k.block_m * k.block_n;  // one fp32 partial tile
  const double out_bytes = k.dtype_out == DTypeOut::fp32 ? 4 : 2;
  const double hbm = (static_cast<double>(m + n) * static_cast<double>(kk) * 2 + static_cast<double>(m) * n * out_bytes) / kHbmBytesPerUs;
  if (mode == k90::SplitMode::stream_k) {
    // Whole tiles in the whole waves, then equal k-block ranges over the last, partial wave
    // (with the wave before it where that has fewer k-blocks than CTAs; StreamKPartition):
    // every worker (a CTA, or a cluster, whose CTAs share one range of cluster-tile k-blocks)
    // does ceil(T * kb / P) k-blocks; a shared tile costs its owner one fp32 partial read per
    // other worker holding part of it, each of which wrote one (none in whole waves).
    const std::int64_t workers = std::max<std::int64_t>(1, std::min<std::int64_t>({clusters, tiles * kb, slices / cluster}));
    if (tiles * kb > 0x7fffffff) return std::numeric_limits<double>::infinity();  // not launchable
    // (Grouped where every tile is shared: the ranges over tile columns, one CTA a tile row each.)
    const std::int64_t tiles_m = ceil_div(m, static_cast<std::int64_t>(k.block_m) * k.cluster_m);
    const k90::StreamKPartition part(static_cast<int>(tiles), static_cast<int>(kb), static_cast<int>(workers),
                                     static_cast<int>(tiles_m));
    const double share = part.group > 1 ? part.share() + (part.r > 0 ? 1.0 : 0.0)
                                        : std::ceil(static_cast<double>(tiles * kb) / static_cast<double>(workers));
    const double sk_share = part.share();  // 0: nothing shared
    const double others = sk_share == 0 ? 0.0
                          : sk_share >= static_cast<double>(kb) ? 1.0
                                                                : std::ceil(static_cast<double>(kb) / sk_share);
    const double busiest = share * std::max(t_compute, t_load) + 2 * kUnitLatencyUs + kSplitFixedUs +
                           others * 2.0 * tile_bytes / kSmBytesPerUs;
    return std::max(busiest, hbm);
  }
  const bool summed_in_clusters = mode == k90::SplitMode::parallel && cluster_k > 1;
  if (summed_in_clusters) {  // one unit per cluster, all co-resident
    const std::int64_t capacity = cluster_capacity > 0 ? cluster_capacity : num_sms / cluster_k;
    if (cluster != 1 || !can_sum_in_cluster(k, slices, cluster_k) || tiles * (slices / cluster_k) > capacity)
      return std::numeric_limits<double>::infinity();
  }
  const std::int64_t waves = summed_in_clusters ? 1 : ceil_div(tiles * slices, clusters);  // work units: tiles x K slices
  const std::int64_t kb_unit = ceil_div(kb, slices);
  double busiest = static_cast<double>(waves) * (static_cast<double>(kb_unit) * std::max(t_compute, t_load) + kUnitLatencyUs);
  if (summed_in_clusters) {  // the busiest GPC's clusters, each streaming its cluster_k slices' operands
    const std::int64_t units = tiles * (slices / cluster_k);
    const double cluster_bytes = (rows_a + rows_b) * 64 * 2 * static_cast<double>(kb_unit) * cluster_k;
    const double gpc_bytes = static_cast<double>(ceil_div(units, kGpcs)) * cluster_bytes;
    busiest = std::max(busiest, gpc_bytes / kGpcBytesPerUs);
    for (const ClusterSumFloor& f : kClusterSumFloors) {  // (the fitted cells; see kClusterSumFloors)
      if (k.schedule != k90::Schedule::cooperative || k.block_m != f.block_m || k.block_n != f.block_n ||
          cluster_k != f.cluster)
        continue;
      busiest = std::max({busiest, f.fill_us + f.kblock_us * static_cast<double>(kb_unit),
                          f.gpc_fill_us + gpc_bytes / kClusterFloorGpcBytesPerUs});
    }
  }
  double t = std::max(busiest, hbm);
  if (slices > 1 && mode != k90::SplitMode::none) {
    const double ctiles = static_cast<double>(tiles) * cluster;
    if (summed_in_clusters) {
      // Partial tiles through the workspace: one per cluster (none when one cluster holds them all).
      const int slots = slices / cluster_k;
      const double sum_us = k.schedule == k90::Schedule::swap_ab ? kClusterPushUs : kClusterSumUs;
      t += sum_us + (slots > 1 ? kSplitFixedUs + 2.0 * slots * ctiles * tile_bytes / kL2BytesPerUs : 0.0);
    } else if (mode == k90::SplitMode::parallel) {
      t += kSplitFixedUs + 2.0 * slices * ctiles * tile_bytes / kL2BytesPerUs;
    } else {
      // A chain of S - 1 hand-offs per tile, each one CTA reading and writing the running sum.
      t += (slices - 1) * kSerialStepUs + slices * 2.0 * tile_bytes / kSerialBytesPerUs;
    }
  }
  return t;
}

SplitChoice choose_split(const SplitRequest& r) {
  SplitChoice out;
  const std::int64_t kblocks = ceil_div(r.k, 64);
  auto error = [&](std::string msg) {
    out.index = -1;
    out.error = Status{StatusCode::invalid_argument, "sm90 backend: " + std::move(msg)};
    return out;
  };
  auto workspace = [&](int i, k90::SplitMode mode, int s, int c = 1) {
    return static_cast<std::size_t>(kernel_split_workspace(i, r.m, r.n, mode, s, c).total());
  };
  // Co-resident clusters of c CTAs: measured, else the SM count's bound (as estimate_us assumes).
  auto capacity = [&](int c) {
    const int measured = r.cluster_capacity[c == 2 ? 1 : c == 4 ? 2 : 3];
    return measured > 0 ? measured : r.num_sms / c;
  };
  auto candidate = [&](int i) {
    const KernelInfo& ki = kernel_info(i);
    return r.forced_kernel >= 0 ? i == r.forced_kernel
                                : ki.dtype_in == r.in && ki.dtype_out == r.out && ki.b_k_major == r.b_k_major &&
                                      !quad_tile(ki);  // (by name only)
  };
  char buf[320];

  // The unsplit choice: the forced kernel, or choose_kernel's (exactly as without split-K).
  double replaced_us = 0;  // (automatic, below) the first choice's estimate where the 64x64 rule replaced it
  bool swap_unsplit = false;  // the 32x128 swap-AB rule chose: no cluster split (automatic, below)
  auto unsplit = [&]() {
    if (r.forced_kernel >= 0) {
      out.index = r.forced_kernel;
      out.explanation = "chosen by name";
    } else {
      const KernelChoice c = choose_kernel(r.in, r.out, r.b_k_major, r.m, r.n, r.k, r.num_sms, false, capacity(2));
      out.index = c.index;
      out.explanation = c.explanation;
      replaced_us = c.replaced_us;
    }
    out.mode = k90::SplitMode::none;
    out.slices = 1;
    out.workspace_bytes = 0;
    if (out.index >= 0) out.predicted_us = estimate_us(kernel_info(out.index), r.m, r.n, r.k, r.num_sms, out.mode, 1);
    // Decode-sized M: a swap-AB kernel (weights on wgmma's M) unless the model predicts the first
    // choice faster. The cooperative 64-row tile is compute-bound per SM there (most of its rows
    // do not exist), the swap-AB tile load-bound; where both sit at the DRAM bound (a tie in the
    // model) swap-AB measured better on most shapes. MEASURED (H100, session 5, M <= 64 shapes of
    // the llm and splitk suites, every swap tile forced in the same run): 16x64 beat the unsplit
    // choice on 21 of 25 M <= 16 shapes (1x4096x4096 20.9 -> 16.9 us, 1x57344x8192 337 -> 308),
    // lost 10% on 16x10240x8192 and 3% on 16x28672x4096; geomean over those 41 shapes 0.935 ->
    // 0.967x cuBLASLt predicted from the forced runs.
    if (r.forced_kernel < 0 && out.index >= 0 && r.m <= kSwapABMaxM) {
      int best = -1;
      double best_us = 0;
      // Ties (the model puts most decode shapes at the DRAM bound): a grid of one wave, the smaller
      // token tile, the narrower weight tile (more CTAs; measured better; with B K x N the wider where
      // its one wave keeps kSwapABWideMinCtasKN CTAs), the more k-blocks a stage.
      // MEASURED (H100, session 18, A/B in two rounds; bench/results/h100/experiments_s18/swap_ab):
      // one wave of 80 tiles of 16x128 against 160 of 16x64, llama3_70b.qkv M = 1 / 16: 1.18 -> 1.06 /
      // 1.19 -> 1.07x the floor; preferring the fewer waves also between multi-wave grids lost 0.5-2%
      // (llama3_8b.gate_up 448 / 224 tiles, deepseek_v3.b 384 / 192, llama3_70b.gate_up 896 / 448).
      const auto tie_key = [&](const KernelInfo& ki) {
        const std::int64_t tiles = cluster_tiles(ki, r.m, r.n);
        const bool wide_first = !r.b_k_major && tiles <= r.num_sms && tiles >= kSwapABWideMinCtasKN;
        return std::make_tuple(tiles > r.num_sms, ki.block_m, wide_first ? -ki.block_n : ki.block_n, -ki.block_k);
      };
      for (int i = 0; i < kernel_count(); ++i) {
        const KernelInfo& ki = kernel_info(i);
        if (ki.schedule != k90::Schedule::swap_ab || !candidate(i) || ki.block_m < r.m) continue;
        if (wide_swap_tile(ki) || token_swap_tile(ki)) continue;  // their own rules (choose_kernel; below)
        if (ki.block_k > 64 && kSwapABAtomsMaxBusy * cluster_tiles(ki, r.m, r.n) > r.num_sms) continue;
        const double t = estimate_us(ki, r.m, r.n, r.k, r.num_sms, k90::SplitMode::none, 1);
        const bool better = best < 0 || t < best_us * (1 - 1e-9) ||
                            (t <= best_us * (1 + 1e-9) && tie_key(ki) < tie_key(kernel_info(best)));
        if (better) {
          best = i;
          best_us = t;
        }
      }
      if (best >= 0 && best_us <= kSwapABGain * out.predicted_us) {
        const KernelInfo& bk = kernel_info(best);
        const long long tiles = cluster_tiles(bk, r.m, r.n);
        char stages[96] = "";
        if (bk.block_k > 64)
          std::snprintf(stages, sizeof stages, ", stages of %d k-columns (%lld tiles: at most 1/%d of the SMs busy)",
                        bk.block_k, tiles, kSwapABAtomsMaxBusy);
        else if (tiles <= r.num_sms)
          std::snprintf(stages, sizeof stages, ", %lld tiles: one wave", tiles);
        std::snprintf(buf, sizeof buf, "swap-AB %dx%d (tokens x weight rows)%s: predicted %.1f us against %.1f us for %s",
                      bk.block_m, bk.block_n, stages, best_us, out.predicted_us, kernel_info(out.index).name);
        out.index = best;
        out.predicted_us = best_us;
        out.explanation = buf;
      }
    }
    // Decode, B stored N x K: the gemv kernel (16 weight rows a CTA, every SM streaming from entry).
    // At most kGemvMaxM tokens: 8 a pass, unless the swap-AB choice is a full wave of CTAs streaming
    // long rows (kGemvSwapMinK); 16 warps a CTA (one CTA an SM: 82 registers a thread) where one CTA
    // an SM covers N, or K is long, else 8 (up to 3 CTAs an SM at 80 registers). 9..16 tokens: 16 a
    // pass where swap-AB leaves SMs idle and the gemv grid is one wave (kGemv16*): 16 warps where it
    // is at most one CTA an SM, else 8 or 4; over several waves, 4 warps where the gemv grid's last
    // wave is full enough and at least as full as swap-AB's.
    if (r.forced_kernel < 0 && out.index >= 0 && r.m <= kGemv16MaxM && r.b_k_major) {
      const KernelInfo& cur = kernel_info(out.index);
      const std::int64_t cur_tiles = cluster_tiles(cur, r.m, r.n) * cur.cluster_m * cur.cluster_n;
      const std::int64_t ctas = ceil_div(r.n, 16);
      const std::int64_t sms = r.num_sms;
      // The candidate gemv kernel with `warps` warps for these tokens (the smallest token tile that
      // covers M), or -1; and the CTAs of it all SMs hold at once (KernelInfo::ctas_per_sm: 1 with
      // 16 warps, 2 with 8 and 3 with 4 at 16 tokens), 0 where there is none.
      auto gemv_kernel = [&](int warps) {
        int pick = -1;
        for (int i = 0; i < kernel_count(); ++i) {
          const KernelInfo& ki = kernel_info(i);
          if (ki.schedule == k90::Schedule::gemv && candidate(i) && ki.block_m >= r.m && ki.threads == 32 * warps &&
              (pick < 0 || ki.block_m < kernel_info(pick).block_m))
            pick = i;
        }
        return pick;
      };
      auto gemv_slots = [&](int warps) {
        const int i = gemv_kernel(warps);
        return i < 0 ? std::int64_t{0} : kernel_info(i).ctas_per_sm * sms;
      };
      int warps = 0;  // 0: not gemv
      const char* why = "";
      if (r.m <= kGemvMaxM) {
        const bool keep_swap = cur.schedule == k90::Schedule::swap_ab && r.k >= kGemvSwapMinK &&
                               static_cast<double>(cur_tiles) >= kGemvSwapMinWave * r.num_sms;
        if (!keep_swap) warps = ctas <= gemv_slots(16) || r.k >= kGemvWideK ? 16 : 8;
        why = "at most 8 tokens";
      } else if (cur.schedule == k90::Schedule::swap_ab && r.k >= kGemv16MinK) {
        const std::int64_t slots16 = gemv_slots(16), slots8 = gemv_slots(8), slots4 = gemv_slots(4);
        const bool swap_idle = static_cast<double>(cur_tiles) < kGemv16SwapMaxFill * static_cast<double>(sms);
        // The last waves' fill: gemv with 4 warps, swap-AB at one CTA an SM.
        const double gemv_fill = slots4 > 0 ? wave_fill(ctas, slots4) : 0.0, swap_fill = wave_fill(cur_tiles, sms);
        if (swap_idle && ctas <= slots16 && r.k <= kGemv16OneCtaMaxK) {
          warps = 16;
          why = "9-16 tokens, swap-AB would leave SMs idle, at most one CTA an SM";
        } else if (swap_idle && ctas > slots16 && ctas <= slots4 && r.k <= kGemv16MaxK) {
          warps = ctas <= slots8 ? 8 : 4;
          why = "9-16 tokens, swap-AB would leave SMs idle";
        } else if (ctas > slots4 && r.k <= kGemv16WavesMaxK && gemv_fill >= kGemv16WavesMinFill && gemv_fill >= swap_fill) {
          warps = 4;
          why = "9-16 tokens, the gemv grid's last wave at least as full as swap-AB's";
        }
      }
      const int pick = warps > 0 ? gemv_kernel(warps) : -1;
      if (pick >= 0) {
        const double t = estimate_us(kernel_info(pick), r.m, r.n, r.k, r.num_sms, k90::SplitMode::none, 1);
        std::snprintf(buf, sizeof buf, "gemv: %lld CTAs of 16 weight rows, %d warps splitting K (%s, B N x K), "
                      "predicted %.1f us; %s would have been %s", static_cast<long long>(ctas), warps, why, t,
                      cur.schedule == k90::Schedule::swap_ab ? "swap-AB" : "the tile", cur.name);
        out.index = pick;
        out.predicted_us = t;
        out.explanation = buf;
      }
    }
    // Decode, more than kGemvMaxM tokens, long K: where N / 64 tiles of 64 weight rows would fill
    // one wave of SMs mostly but not whole (kSwapUnsplit128*), the 32x128 swap-AB tile unsplit.
    if (r.forced_kernel < 0 && out.index >= 0 && r.m > kGemvMaxM && r.m <= kSwapABMaxM && r.k >= kSwapUnsplit128MinK &&
        kernel_info(out.index).schedule == k90::Schedule::swap_ab) {
      const double fill64 = static_cast<double>(ceil_div(r.n, 64)) / r.num_sms;
      if (fill64 >= kSwapUnsplit128MinFill && fill64 < kSwapUnsplit128MaxFill) {
        for (int i = 0; i < kernel_count(); ++i) {
          const KernelInfo& ki = kernel_info(i);
          if (ki.schedule != k90::Schedule::swap_ab || !candidate(i) || ki.block_m != 32 || ki.block_n != 128 ||
              ki.block_k != 64)
            continue;
          const double t = estimate_us(ki, r.m, r.n, r.k, r.num_sms, k90::SplitMode::none, 1);
          std::snprintf(buf, sizeof buf, "swap-AB 32x128 (tokens x weight rows) unsplit, %lld tiles: N / 64 = %lld "
                        "tiles of 64 rows would fill %.0f%% of the %d SMs (K = %lld); predicted %.1f us",
                        static_cast<long long>(cluster_tiles(ki, r.m, r.n)), static_cast<long long>(ceil_div(r.n, 64)),
                        100 * fill64, r.num_sms, static_cast<long long>(r.k), t);
          out.index = i;
          out.predicted_us = t;
          out.explanation = buf;
          swap_unsplit = true;
          break;
        }
      }
    }
    return out;
  };

  // How split candidates are ranked: the estimate, less kSplitPdlGainUs where a launch through the
  // workspace gets programmatic launch.
  auto split_rank = [&](const KernelInfo& ki, int slices, int cluster, std::size_t ws, double t) {
    const bool pdl = ws > 0 && programmatic_launch(r.programmatic, ki, r.m, r.n, slices, cluster, r.num_sms);
    return t - (pdl ? kSplitPdlGainUs : 0.0);
  };
  // Best (kernel, slices) over the candidates for `mode`, slices in [lo, hi], within the workspace
  // bound. Returns false when nothing fits.
  // half_sms: automatic's serial candidates: the 64x64 tile only (its serial cells are the measured
  // ones; the 64x128 / 128x128 moves a serial rule would make are not measured, some in layouts the
  // bench does not run), grids of at most half the SMs busy, without the tile's output bound.
  // workspace_only: no cluster sums (the 64x64 tile's competitors, below).
  auto best_split = [&](k90::SplitMode mode, int lo, int hi, SplitChoice& best, bool half_sms = false,
                        bool workspace_only = false) {
    bool found = false;
    double best_rank = 0;
    for (int i = 0; i < kernel_count(); ++i) {
      const KernelInfo& ki = kernel_info(i);
      // Ping-pong: no split-K. Swap-AB: slices summed in one cluster, and left to the heuristic only
      // where one token tile covers M (as unsplit).
      if (!candidate(i) || !(supports_split_k(ki) || ki.split_cluster)) continue;
      // The 64x64 tile splits (unless forced by name) only outputs of at most 128 x 128. MEASURED
      // (H100, session 14, forced with the model's slices against b8ce75b's automatic choice):
      // 128x256x32768 16.8 vs 14.7 us and 256x256x16384 14.4 vs 14.1 (slower), which the model
      // ranks the other way round; with this rule, A/B in two rounds: 64x64x65536 1.06 -> 1.17x
      // cuBLASLt, 128x128x16384 7.80-7.82 vs 7.84-7.85 us (same).
      if (half_sms && !small_tile(ki)) continue;
      if ((pair_tile(ki) || wave_tile(ki) || fill_tile(ki)) && r.forced_kernel < 0) continue;  // unsplit, by choose_kernel only
      if (small_tile(ki) && r.forced_kernel < 0 && r.m * r.n > kSmallTileSplitMaxOutputs && !half_sms) continue;
      if (small_tile(ki) && r.forced_kernel < 0 && r.m < kSmallTileMinM) continue;  // (as unsplit)
      // (automatic takes swap-AB splits by its own rule, below.)
      if (ki.schedule == k90::Schedule::swap_ab && r.forced_kernel < 0 &&
          (r.m > kSwapABMaxM || ki.block_m < r.m || r.mode == SplitKMode::automatic || token_swap_tile(ki)))
        continue;
      for (int s = lo; s <= hi && s <= ceil_div(r.k, ki.block_k); ++s) {  // a slice has >= 1 k-block
        if (half_sms && 2 * busy_ctas(ki, r.m, r.n, s, r.num_sms) > r.num_sms) continue;
        // Cluster sums (parallel): those the request allows (0: any that fits, 1: none, c: c).
        for (int c : {1, 2, 4, 8}) {
          if (c == 1 && !supports_split_k(ki)) continue;
          if (c > 1 && (mode != k90::SplitMode::parallel || workspace_only || !can_sum_in_cluster(ki, s, c))) continue;
          if (r.cluster > 0 && c != r.cluster) continue;
          // Left to the heuristic, a cluster only where it holds every slice of a tile: sums that
          // still go through the workspace measured no faster than plain parallel (session 7,
          // H100: 128x128x16384 13.3 vs 12.6 us, 256x256x16384 18.6 vs 15.5), which the L2 term
          // of the model does not see.
          if (c > 1 && r.cluster == 0 && s != c) continue;
          // ... of 4 or 8 CTAs: 2 slices in clusters of 2 measured slower than the plan without them
          // on 3 of 4 llm shapes (llama3_8b.o M = 64 21.9 vs 18.3 us, .down M = 256 65.5 vs 55.1).
          // (Cooperative kernels: swap-AB sums are pushed, not pulled, and have no other split.)
          if (c == 2 && r.cluster == 0 && ki.schedule == k90::Schedule::cooperative) continue;
          const std::size_t ws = workspace(i, mode, s, c);
          if (ws > r.max_workspace_bytes) continue;
          const double t = estimate_us(kernel_info(i), r.m, r.n, r.k, r.num_sms, mode, s, c, c > 1 ? capacity(c) : 0);
          if (!std::isfinite(t)) continue;
          const double rank = split_rank(ki, s, c, ws, t);
          if (!found || rank < best_rank * (1 - 1e-9)) {
            found = true;
            best_rank = rank;
            best.index = i;
            best.mode = mode;
            best.slices = s;
            best.cluster = c;
            best.workspace_bytes = ws;
            best.predicted_us = t;
          }
        }
      }
    }
    return found;
  };

  // Best stream-K launch by the estimate over the candidates that support it and that `accept` admits,
  // within the workspace bound (best.index -1 where none fits). least_ws: the least workspace any
  // admitted candidate needs; too_long: one was skipped for more (tile, k-block) iterations than the
  // 32-bit partition counts.
  std::size_t least_ws = 0;
  bool too_long = false;
  auto best_stream_k = [&](auto&& accept) {
    SplitChoice best;  // (index -1: none)
    for (int i = 0; i < kernel_count(); ++i) {
      const KernelInfo& ki = kernel_info(i);
      if (!candidate(i) || !supports_split_k(ki) || !accept(ki)) continue;
      if (ceil_div(r.m, ki.block_m) * ceil_div(r.n, ki.block_n) * kblocks > 0x7fffffff) {  // 32-bit partition
        too_long = true;
        continue;
      }
      const std::size_t ws = workspace(i, k90::SplitMode::stream_k, r.num_sms);
      if (least_ws == 0 || ws < least_ws) least_ws = ws;
      if (ws > r.max_workspace_bytes) continue;
      const double t = estimate_us(ki, r.m, r.n, r.k, r.num_sms, k90::SplitMode::stream_k, r.num_sms);
      if (best.index < 0 || t < best.predicted_us * (1 - 1e-9)) {
        best.index = i;
        best.mode = k90::SplitMode::stream_k;
        best.slices = r.num_sms;
        best.workspace_bytes = ws;
        best.predicted_us = t;
      }
    }
    return best;
  };

  if (r.mode == SplitKMode::stream_k) {
    // Cooperative kernels (a cluster's CTAs share one k-block range); split_k_slices is 0
    // (GemmPlan checks): the SM count sets the CTAs.
    if (r.forced_kernel >= 0 && !supports_split_k(kernel_info(r.forced_kernel)))
      return error(std::string("kernel \"") + kernel_info(r.forced_kernel).name +
                   "\" cannot run stream-K: it needs a cooperative kernel (not _pp, swap-AB or gemv); "
                   "force one of those, or use another split_k_mode");
    const SplitChoice best = best_stream_k([](const KernelInfo&) { return true; });
    const bool found = best.index >= 0;
    if (!found && too_long && least_ws == 0)
      return error("stream-K takes at most 2^31 - 1 (tile, k-block) iterations and this shape has more; "
                   "use split_k_mode none or parallel");
    if (!found)
      return error("stream-K needs " + std::to_string(least_ws) + " bytes of workspace (one fp32 tile per SM), above "
                   "max_workspace_bytes = " + std::to_string(r.max_workspace_bytes) + "; raise it");
    out = best;
    std::snprintf(buf, sizeof buf, "stream-K over up to %d CTAs (requested), predicted %.1f us", out.slices, out.predicted_us);
    out.explanation = buf;
    return out;
  }
  const bool explicit_mode = r.mode == SplitKMode::serial || r.mode == SplitKMode::parallel;
  const k90::SplitMode mode = r.mode == SplitKMode::serial ? k90::SplitMode::serial : k90::SplitMode::parallel;
  if (r.mode == SplitKMode::none || r.slices == 1) {
    unsplit();
    if (r.slices == 1 && explicit_mode) out.explanation += "; split_k_slices = 1: no split";
    return out;
  }
  // A kernel forced by name that has no split-K: an explicit split request is an error; automatic
  // (with slices 0) runs it unsplit. Swap-AB kernels split only in the parallel mode, summing the
  // slices within one cluster.
  if (r.forced_kernel >= 0 && !supports_split_k(kernel_info(r.forced_kernel))) {
    const KernelInfo& fk = kernel_info(r.forced_kernel);
    if (fk.schedule == k90::Schedule::swap_ab && fk.split_cluster) {
      if (r.mode == SplitKMode::serial)
        return error(std::string("kernel \"") + fk.name + "\" is a swap_ab kernel: it splits K only into parallel slices "
                     "summed within one cluster; use split_k_mode = SplitKMode::parallel (or automatic) with "
                     "split_k_slices = split_k_cluster = 2 or 4" + (fk.consumer_warpgroups > 1 ? " (or 8)" : ""));
    } else if (explicit_mode || r.slices > 1) {
      return error(std::string("kernel \"") + fk.name + "\" is a " + schedule_name(fk.schedule) +
                   " kernel without split-K; use split_k_mode = SplitKMode::none (or automatic with split_k_slices = 0), "
                   "or a cooperative kernel");
    }
  }
  if (r.slices > 1) {  // exactly this many slices (automatic: in the parallel mode)
    // (A forced kernel's own k-blocks: a stage of several 64-column k-blocks is one k-block of it.)
    const int block_k = r.forced_kernel >= 0 ? kernel_info(r.forced_kernel).block_k : 64;
    const std::int64_t kernel_kblocks = ceil_div(r.k, block_k);
    if (r.slices > kernel_kblocks)
      return error("split_k_slices = " + std::to_string(r.slices) + " exceeds the " + std::to_string(kernel_kblocks) +
                   " k-blocks of K = " + std::to_string(r.k) + " (" + std::to_string(block_k) +
                   " per block): every slice needs at least one; use at most " + std::to_string(kernel_kblocks));
    SplitChoice best;
    if (!best_split(mode, r.slices, r.slices, best)) {
      if (r.forced_kernel >= 0 && kernel_info(r.forced_kernel).schedule == k90::Schedule::swap_ab)
        return error(std::string("kernel \"") + kernel_info(r.forced_kernel).name + "\" cannot sum " + std::to_string(r.slices) +
                     " slices here: a swap_ab kernel sums all of a tile's slices within one cluster, so split_k_slices "
                     "must equal split_k_cluster (or split_k_cluster = 0) and be 2 or 4 (8 with 128 weight rows), and "
                     "every cluster (tiles x slices CTAs) must be co-resident on this GPU; use fewer slices or no split");
      if (r.cluster > 1)
        return error("no kernel can sum " + std::to_string(r.slices) + " slices in clusters of " + std::to_string(r.cluster) +
                     " here: it needs a cooperative cluster-1x1 kernel with tiles 64 or 128 wide, tiles x slices / " +
                     std::to_string(r.cluster) + " clusters all co-resident (at most " +
                     std::to_string(capacity(r.cluster)) +
                     " on this GPU), and the workspace within max_workspace_bytes; use fewer slices or split_k_cluster = 0");
      const int i = r.forced_kernel >= 0 ? r.forced_kernel : choose_kernel(r.in, r.out, r.b_k_major, r.m, r.n, r.k, r.num_sms, true).index;
      return error(std::string(k90::split_mode_name(mode)) + " split-K with " + std::to_string(r.slices) + " slices needs " +
                   std::to_string(i >= 0 ? workspace(i, mode, r.slices) : 0) + " bytes of workspace, above max_workspace_bytes = " +
                   std::to_string(r.max_workspace_bytes) + "; raise it or use fewer slices");
    }
    out = best;
    std::snprintf(buf, sizeof buf, "%s split-K, %d slices%s (requested), predicted %.1f us", k90::split_mode_name(mode),
                  out.slices, cluster_note(out).c_str(), out.predicted_us);
    out.explanation = buf;
    return out;
  }

  // slices == 0: the heuristic picks.
  if (explicit_mode) {
    if (kblocks < 2) {
      unsplit();
      out.explanation += "; K has one k-block: no split";
      return out;
    }
    SplitChoice best;
    if (!best_split(mode, 2, static_cast<int>(std::min<std::int64_t>(kblocks, kMaxAutoSlices)), best)) {
      if (r.cluster > 1)
        return error("no slice count lets clusters of " + std::to_string(r.cluster) + " sum the slices here (a cooperative "
                     "cluster-1x1 kernel with tiles 64 or 128 wide, every cluster co-resident, the workspace within "
                     "max_workspace_bytes); use split_k_cluster = 0");
      return error(std::string(k90::split_mode_name(mode)) + " split-K does not fit max_workspace_bytes = " +
                   std::to_string(r.max_workspace_bytes) + " even with 2 slices; raise it");
    }
    out = best;
    std::snprintf(buf, sizeof buf, "%s split-K, %d slices%s (heuristic), predicted %.1f us", k90::split_mode_name(mode),
                  out.slices, cluster_note(out).c_str(), out.predicted_us);
    out.explanation = buf;
    return out;
  }

  // automatic
  unsplit();
  if (out.index < 0) return out;
  const SplitChoice base = out;
  if (const KernelInfo& ki = kernel_info(base.index);
      ki.schedule == k90::Schedule::swap_ab && ki.split_cluster && !swap_unsplit && (r.cluster == 0 || r.cluster == 2)) {
    // A swap-AB grid of tiles x 2 CTAs that fits: two slices summed in clusters of 2 (no workspace).
    const std::int64_t tiles = cluster_tiles(ki, r.m, r.n);
    const std::int64_t pairs = capacity(2);
    if (kblocks / 2 >= kSwapABSplitMinKBlocks && tiles <= pairs) {
      out.mode = k90::SplitMode::parallel;
      out.slices = 2;
      out.cluster = 2;
      out.workspace_bytes = 0;
      out.predicted_us = estimate_us(ki, r.m, r.n, r.k, r.num_sms, out.mode, 2, 2, static_cast<int>(pairs));
      std::snprintf(buf, sizeof buf, "; parallel split-K, 2 slices%s (automatic: %lld tiles, %lld k-blocks per slice)",
                    cluster_note(out).c_str(), static_cast<long long>(tiles), static_cast<long long>(kblocks / 2));
      out.explanation += buf;
      return out;
    }
  }
  const int hi = static_cast<int>(std::min<std::int64_t>(kblocks / kMinKBlocksPerSlice, kMaxAutoSlices));
  SplitChoice best;
  // Where the 64x64 rule replaced the first choice, a split through the workspace that gains
  // kSplitGain on that choice (the bar it always had) competes with the unsplit 64x64 tile
  // (kSmallTileSplitGain), instead of needing kSplitGain on the 64x64 tile's prediction. MEASURED (H100, session 23, call
  // 2; B stored K x N with the new 64x64 tile, old and new choice forced in one binary, two rounds):
  // with the 64x64 tile setting the bar, it ran unsplit against predicted-faster splits of 64x128 /
  // 128x128 and lost 10-52% (256x768x8192 15.7 -> 18.1 us, 384x768x16384 27.2 -> 34.0,
  // 512x768x32768 46.7 -> 70.9; the same choices with B N x K since session 14). Cluster sums keep
  // the 64x64 tile's bar (their cells at these grids are not measured against it).
  const bool split_taken =
      hi >= 2 && ((best_split(k90::SplitMode::parallel, 2, hi, best) && best.predicted_us <= kSplitGain * base.predicted_us) ||
                  (replaced_us > 0 && best_split(k90::SplitMode::parallel, 2, hi, best, false, true) &&
                   best.predicted_us <= std::min(kSplitGain * replaced_us,
                                                 (kernel_info(best.index).block_m == 64 ? kSmallTileSplitGain : 1.0) *
                                                     base.predicted_us)));
  if (split_taken) {
    out = best;
    std::snprintf(buf, sizeof buf, "parallel split-K, %d slices%s (automatic): predicted %.1f us against %.1f us unsplit",
                  out.slices, cluster_note(out).c_str(), out.predicted_us, base.predicted_us);
    out.explanation = buf;
  } else {
    std::snprintf(buf, sizeof buf, "; no split-K (predicted %.1f us)", base.predicted_us);
    out.explanation += buf;
  }
  // Serial in 2 slices (see kSerialSplitGain): against unsplit, or a split through the workspace by rank.
  SplitChoice serial;
  // (The 64x64 tile never for decode-sized M, kSmallTileMinM: B K x N, 1x2112x7168 14.3 -> 16.5 us
  // in 2 serial slices, session 23.)
  if (hi >= 2 && out.cluster <= 1 && best_split(k90::SplitMode::serial, 2, 2, serial, true) &&
      serial.predicted_us <= kSerialSplitGain * base.predicted_us) {
    auto rank = [&](const SplitChoice& c) {
      return split_rank(kernel_info(c.index), c.slices, c.cluster, c.workspace_bytes, c.predicted_us);
    };
    if (out.mode == k90::SplitMode::none || rank(serial) < rank(out) * (1 - 1e-9)) {
      std::snprintf(buf, sizeof buf, "serial split-K, 2 slices (automatic): predicted %.1f us against %.1f us %s",
                    serial.predicted_us, out.predicted_us, out.mode == k90::SplitMode::none ? "unsplit" : "for the parallel split");
      out = serial;
      out.explanation = buf;
    }
  }
  // One wave leaving SMs idle on a long K, B N x K (kSerialWave*, kStreamKWave*); not where the request
  // asks for slices summed in clusters.
  if (const KernelInfo& ki = kernel_info(out.index);
      out.mode == k90::SplitMode::none && r.forced_kernel < 0 && r.cluster <= 1 && r.b_k_major) {
    const OneWaveSplit rule = one_wave_split(ki, r.m, r.n, r.k, r.num_sms);
    const double fill = last_wave_fill(ki, r.m, r.n, r.num_sms);  // (of its one wave)
    SplitChoice serial;
    if (rule == OneWaveSplit::serial && best_split(k90::SplitMode::serial, 2, 2, serial)) {
      const KernelInfo& si = kernel_info(serial.index);
      const std::int64_t units = 2 * cluster_tiles(si, r.m, r.n) * si.cluster_m * si.cluster_n;
      if (units <= r.num_sms && static_cast<double>(units) >= kSerialWaveMinFill * r.num_sms) {
        std::snprintf(buf, sizeof buf, "serial split-K, 2 slices of %dx%d (automatic): %lld CTAs in one wave, where %lld "
                      "tiles of %dx%d keep %.0f%% of the SMs busy (K = %lld)", si.block_m, si.block_n,
                      static_cast<long long>(units), static_cast<long long>(cluster_tiles(ki, r.m, r.n)), ki.block_m,
                      ki.block_n, 100 * fill, static_cast<long long>(r.k));
        out = serial;
        out.explanation = buf;
        return out;
      }
    }
    if (rule == OneWaveSplit::stream_k) {
      const SplitChoice sk = best_stream_k([](const KernelInfo& c) {
        return c.schedule == k90::Schedule::cooperative && c.block_m == 128 && c.block_n == 256;
      });
      if (sk.index >= 0) {
        const KernelInfo& c = kernel_info(sk.index);
        std::snprintf(buf, sizeof buf, "stream-K on %dx%d c%dx%d (automatic): %lld tiles of %dx%d keep %.0f%% of one wave "
                      "busy (K = %lld), predicted %.1f us", c.block_m, c.block_n, c.cluster_m, c.cluster_n,
                      static_cast<long long>(cluster_tiles(ki, r.m, r.n)), ki.block_m, ki.block_n, 100 * fill,
                      static_cast<long long>(r.k), sk.predicted_us);
        out = sk;
        out.explanation = buf;
        return out;
      }
    }
  }
  // The swap-AB token tiles in place of an unsplit 128-row first choice whose waves compute more
  // outputs (kTokenTile*).
  if (const KernelInfo& ki = kernel_info(out.index);
      out.mode == k90::SplitMode::none && r.forced_kernel < 0 && r.cluster <= 1 &&
      r.out != DTypeOut::fp32 && r.m > kTokenTileMinM && r.k >= kTokenTileMinK && ki.block_m == 128 &&
      ki.cluster_m * ki.cluster_n == 1 &&
      (ki.schedule == k90::Schedule::cooperative || ki.schedule == k90::Schedule::pingpong)) {
    const double first_work = static_cast<double>(cluster_waves(ki, r.m, r.n, r.num_sms)) * ki.block_m * ki.block_n;
    int pick = -1;
    double pick_share = kTokenTileMaxWork;
    for (int i = 0; i < kernel_count(); ++i) {
      const KernelInfo& t = kernel_info(i);
      if (!token_swap_tile(t) || !candidate(i)) continue;
      const double share = static_cast<double>(cluster_waves(t, r.m, r.n, r.num_sms)) * t.block_m * t.block_n / first_work;
      if (share <= pick_share * (1 + 1e-9) && (pick < 0 || share < pick_share * (1 - 1e-9))) {
        pick = i;
        pick_share = share;
      }
    }
    if (pick >= 0) {
      const KernelInfo& t = kernel_info(pick);
      std::snprintf(buf, sizeof buf, "swap-AB %dx%d (tokens x weight rows): %lld tiles in %lld wave(s) compute %.3f of the "
                    "outputs of %lld tiles of %dx%d%s in %lld (K = %lld)", t.block_m, t.block_n,
                    static_cast<long long>(cluster_tiles(t, r.m, r.n)),
                    static_cast<long long>(cluster_waves(t, r.m, r.n, r.num_sms)), pick_share,
                    static_cast<long long>(cluster_tiles(ki, r.m, r.n)), ki.block_m, ki.block_n,
                    ki.schedule == k90::Schedule::pingpong ? " (pingpong)" : "",
                    static_cast<long long>(cluster_waves(ki, r.m, r.n, r.num_sms)), static_cast<long long>(r.k));
      out.index = pick;
      out.predicted_us = estimate_us(t, r.m, r.n, r.k, r.num_sms, k90::SplitMode::none, 1);
      out.explanation = buf;
      return out;
    }
  }
  // Stream-K over a short last wave (kStreamKMinWaves, kStreamKMaxTailFill, kStreamKMinK).
  if (const KernelInfo& ki = kernel_info(out.index);
      out.mode == k90::SplitMode::none && ki.schedule == k90::Schedule::cooperative && ki.block_m == 128 &&
      ki.block_n == 256 && ki.cluster_m == 2 && ki.cluster_n == 1 && r.k >= kStreamKMinK) {
    const std::int64_t workers = co_resident_clusters(ki, r.num_sms);
    const std::int64_t tiles = cluster_tiles(ki, r.m, r.n);
    const std::int64_t waves = tiles / workers;
    const double tail = static_cast<double>(tiles - waves * workers) / static_cast<double>(workers);
    const std::size_t ws = workspace(out.index, k90::SplitMode::stream_k, r.num_sms);
    if (waves >= kStreamKMinWaves && tail > 0 && tail <= kStreamKMaxTailFill && ws <= r.max_workspace_bytes) {
      out.mode = k90::SplitMode::stream_k;
      out.slices = r.num_sms;
      out.workspace_bytes = ws;
      out.predicted_us = estimate_us(ki, r.m, r.n, r.k, r.num_sms, k90::SplitMode::stream_k, r.num_sms);
      std::snprintf(buf, sizeof buf, "; stream-K (automatic): %lld whole waves of %lld clusters and a last one %.0f%% "
                    "full, whose k-blocks every cluster shares", static_cast<long long>(waves),
                    static_cast<long long>(workers), 100 * tail);
      out.explanation += buf;
    }
  }
  return out;
}

std::int64_t busy_ctas(const KernelInfo& k, std::int64_t m, std::int64_t n, int slices, int num_sms) {
  const int cluster = k.cluster_m * k.cluster_n;
  return std::min(cluster_tiles(k, m, n) * std::max(1, slices), co_resident_clusters(k, num_sms)) * cluster;
}

bool programmatic_pays(const KernelInfo& k, std::int64_t m, std::int64_t n, int slices, int split_cluster, int num_sms) {
  if (split_cluster > 1 && k.schedule != kernels::sm90::Schedule::swap_ab) return false;
  const std::int64_t busy = busy_ctas(k, m, n, slices, num_sms);
  if (slices > 1 && split_cluster <= 1) return 2 * busy <= num_sms;  // through the workspace
  const std::int64_t tiles_m = ceil_div(m, std::int64_t{k.block_m} * k.cluster_m);
  return 4 * busy <= 3 * std::int64_t{num_sms} || tiles_m <= 2;
}

bool programmatic_launch(ProgrammaticLaunch option, const KernelInfo& k, std::int64_t m, std::int64_t n, int slices,
                         int split_cluster, int num_sms) {
  return option == ProgrammaticLaunch::on ||
         (option == ProgrammaticLaunch::automatic && programmatic_pays(k, m, n, slices, split_cluster, num_sms));
}

}  // namespace graphgemm::detail::sm90
