// graphgemm: the sm90 GEMM tile configurations the library instantiates.
//
// Tiles (each for both B layouts, bf16/fp16 inputs and bf16/fp16/fp32 outputs):
//   128x256x64, 4 stages, cluster 2x1 (B multicast) : large GEMMs (peak throughput config)
//   128x256x64, 4 stages, cluster 1x1               : large GEMMs, no cluster launch needed
//   128x192x64, 4 stages, cluster 1x1               : N a multiple of 192 (2112, 6144, 24576, 1536)
//                                                     or tile counts that quantize badly with 256
//   128x176x64, 5 stages, cluster 1x1, B N x K only : N = 2112 = 12 x 176 (deepseek_v3 q_a/kv_a),
//                                                     tile counts that fill 132 SMs (96, 384, 768)
//   128x136x64, 5 stages, cluster 1x1, B N x K only : N = 2112 at M = 1024: 16 x 8 = 128 tiles, one
//                                                     wave of 128 CTAs (128x176: 96)
//   128x128x64, 6 stages, cluster 1x1               : medium GEMMs / more tiles per wave
//   128x128x64, 6 stages, cluster 1x2 (A multicast) : medium-large GEMMs, less L2 traffic for A
//    64x128x64, 8 stages, cluster 1x1               : small M (decode-like, M <= 64)
//   128x128x64, 6 stages, cluster 2x1               : M in two 128-row tiles, long K: the two M tiles
//   128x112x64, 7 stages, cluster 2x1, B N x K only   of an N column share B by multicast, one wave
//                                                     of clusters (N = 8192: 64 of 128x128; N = 7168:
//                                                     64 of 128x112, 128 CTAs where 128x128 fills 112;
//                                                     cuBLASLt's tile and stage count there, which
//                                                     multicasts A instead: slower in ours, session 28);
//                                                     the 7th stage with one D staging buffer per
//                                                     consumer warpgroup (GemmConfig::kEpiBufs)
//   128x96x64, 6 stages, cluster 1x1, B N x K only  : one wave of 128x96 where 128x128 leaves SMs idle
//                                                     (M = 1024, N = 1536: 128 against 96 CTAs; session 45)
//   128x144x64, 5 stages, cluster 1x1, B N x K only : whole waves where the other tiles leave a short
//                                                     last one (N = 1536: 11 tile columns; session 56)
//   128x80x64, 7 stages, cluster 1x1, B N x K only  : one wave of 128x80 where 128x96's leaves SMs idle
//                                                     (N = 576 at M = 2048: 128 against 96; session 57)
//   128x256x64, 4 stages, cluster 2x2, B N x K only : A and B both multicast (a quarter fewer L2
//                                                     reads a FLOP than 2x1; session 63), by name only
//     64x64x64, 13 stages, cluster 1x1              : M <= 256 with few 64x128 tiles (N = 2112 =
//                                                     33 x 64: 132 tiles at M = 256), serial split-K
//                                                     of mid-sized K-heavy GEMMs (B K x N since
//                                                     session 23: an N-major box of 64 columns is
//                                                     exactly its B tile)
// Stage counts fill the 227 KB shared memory budget (see max_stages<>()).
//
// Ping-pong tiles (sm90_gemm_pingpong.cuh; the tile is ONE consumer warpgroup's, 2 per CTA; no
// split-K), same dtype / layout sets, instantiated in their own translation unit:
//   128x128x64, 6 stages, cluster 1x1               : M, N >= ~1024, epilogue overlapped
//   128x128x64, 6 stages, cluster 2x1 (B multicast) : the same with half the B traffic per CTA
//    64x256x64, 4 stages, cluster 1x1               : wide N, M a multiple of 64
//   128x112x64, 7 stages, cluster 1x1 / 2x1, B N x K only: two 112-column tiles a CTA where 128x128
//                                                     deals 1.7 (M = 512, N = 7168; session 58)
#pragma once

#include <tuple>

#include "sm90_gemm.cuh"
#include "sm90_gemm_pingpong.cuh"
#include "sm90_gemm_swapab.cuh"
#include "sm90_gemv.cuh"

namespace graphgemm::kernels::sm90::configs {

template <class AB, class D, bool BKMajor>
using TileSet = std::tuple<GemmConfig<AB, D, 128, 256, 4, 2, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 256, 4, 1, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 192, 4, 1, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 128, 6, 1, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 128, 6, 1, 2, BKMajor>,
                           GemmConfig<AB, D, 64, 128, 8, 1, 1, BKMajor>>;
// Tiles for B stored N x K only (a K-major B box of BN rows; an N-major box is 64 columns wide).
template <class AB, class D>
using KMajorTileSet = std::tuple<GemmConfig<AB, D, 128, 176, 5, 1, 1, true>, GemmConfig<AB, D, 128, 136, 5, 1, 1, true>,
                                 GemmConfig<AB, D, 64, 64, 13, 1, 1, true>>;
// (after the sets above, so that the table's earlier rows keep their order)
template <class AB, class D>
using NMajorSmallTileSet = std::tuple<GemmConfig<AB, D, 64, 64, 13, 1, 1, false>>;

// Two M tiles sharing B (2x1 clusters): the heuristic's pair rule (choose_kernel). 128x112 for B
// N x K only; 128x128 for B K x N too (session 43: its B halves multicast as the 128x256 c2x1 `_bn`
// tile's, BK / 2 k-rows of each 64-column box a CTA), after the rest (the table's order).
template <class AB, class D>
using PairTileSet = std::tuple<GemmConfig<AB, D, 128, 128, 6, 2, 1, true>, GemmConfig<AB, D, 128, 112, 7, 2, 1, true>>;
template <class AB, class D>
using NMajorPairTileSet = std::tuple<GemmConfig<AB, D, 128, 128, 6, 2, 1, false>>;
// 128x96 (B N x K only, after the rest: the table's order): M = 1024 with N = 1536 (deepseek_v3's
// q_a_proj alone) in 8 x 16 = 128 tiles where 128x128 fills 96 SMs (cuBLASLt's tile there: id 28,
// 96x128 in its column-major terms; session 45).
template <class AB, class D>
using KMajorNarrowTileSet = std::tuple<GemmConfig<AB, D, 128, 96, 6, 1, 1, true>>;

// 128x144 (B N x K only, after the rest: the table's order): whole waves where the wider tiles
// leave a short last wave, e.g. N = 1536 at M = 1536 / 3072 (11 columns of tiles: 132 / 264 tiles,
// one / two waves of 132 SMs, against 128x176's 108 / 216 and 128x128's 144 / 288) and N = 18432
// (128 columns: M = 256 fills 256 of 264 slots; session 56).
template <class AB, class D>
using KMajorWaveTileSet = std::tuple<GemmConfig<AB, D, 128, 144, 5, 1, 1, true>>;

// 128x80 (B N x K only, after the rest: the table's order): the narrow rule's second width, one
// wave of more CTAs than 128x96's where those leave SMs idle, e.g. N = 576 at M = 2048 (8 columns
// of 80: 128 tiles against 96) and N = 1536 at M = 768 (120 against 96; session 57). 7 stages: a
// stage is 26 KB (A 16 + B 10).
template <class AB, class D>
using KMajorFillTileSet = std::tuple<GemmConfig<AB, D, 128, 80, 7, 1, 1, true>>;

// 128x256 in 2x2 clusters (B N x K only, after the rest: the table's order): A multicast along N
// and B along M, so a CTA loads half of each (24 KB a stage against 32 KB in 2x1 clusters): a
// quarter fewer L2 reads a FLOP, for compute-bound GEMMs at the power cap, where a kernel's speed
// is its energy per FLOP (session 63). Chosen by name only.
template <class AB, class D>
using KMajorQuadTileSet = std::tuple<GemmConfig<AB, D, 128, 256, 4, 2, 2, true>>;

template <class AB, class D>
using LayoutSet = decltype(std::tuple_cat(TileSet<AB, D, true>{}, TileSet<AB, D, false>{}, KMajorTileSet<AB, D>{},
                                          NMajorSmallTileSet<AB, D>{}, PairTileSet<AB, D>{},
                                          NMajorPairTileSet<AB, D>{}, KMajorNarrowTileSet<AB, D>{},
                                          KMajorWaveTileSet<AB, D>{}, KMajorFillTileSet<AB, D>{},
                                          KMajorQuadTileSet<AB, D>{}));

template <class AB>
using OutputSet = decltype(std::tuple_cat(LayoutSet<AB, __nv_bfloat16>{}, LayoutSet<AB, __half>{},
                                          LayoutSet<AB, float>{}));

// Every instantiated configuration, in a fixed order (the instance table follows it).
using AllConfigs = decltype(std::tuple_cat(OutputSet<__nv_bfloat16>{}, OutputSet<__half>{}));

template <class AB, class D, bool BKMajor>
using PingpongTileSet = std::tuple<PingpongConfig<AB, D, 128, 128, 6, 1, 1, BKMajor>,
                                   PingpongConfig<AB, D, 128, 128, 6, 2, 1, BKMajor>,
                                   PingpongConfig<AB, D, 64, 256, 4, 1, 1, BKMajor>>;

// 128x112 per warpgroup (B N x K only, after the rest: the table's order), unclustered and in 2x1
// clusters, 7 stages with one D staging buffer per warpgroup: cuBLASLt's configuration at M = 512,
// N = 7168, K = 2048 (deepseek_v3's MoE down projection: 256 tiles, two a CTA on 128 CTAs, where
// our 128x128 ping-pong runs 224 on 132; session 58). Chosen by name only.
template <class AB, class D>
using KMajorPingpongTileSet =
    std::tuple<PingpongConfig<AB, D, 128, 112, 7, 1, 1, true>, PingpongConfig<AB, D, 128, 112, 7, 2, 1, true>>;

template <class AB, class D>
using PingpongLayoutSet = decltype(std::tuple_cat(PingpongTileSet<AB, D, true>{}, PingpongTileSet<AB, D, false>{},
                                                  KMajorPingpongTileSet<AB, D>{}));

template <class AB>
using PingpongOutputSet =
    decltype(std::tuple_cat(PingpongLayoutSet<AB, __nv_bfloat16>{}, PingpongLayoutSet<AB, __half>{},
                            PingpongLayoutSet<AB, float>{}));

// Every instantiated ping-pong configuration; the instance table lists them after AllConfigs.
using PingpongConfigs =
    decltype(std::tuple_cat(PingpongOutputSet<__nv_bfloat16>{}, PingpongOutputSet<__half>{}));

// Swap-AB tiles (sm90_gemm_swapab.cuh; BlockM tokens x BlockN weight rows, both B layouts, no
// split-K but cluster sums), for decode-sized M; instantiated in their own translation unit:
//   16x128, 16x64 : M <= 16 (wgmma n16), 2 or 1 consumer warpgroups (N / 128 or N / 64 CTAs)
//   32x128, 32x64 : M <= 32 (wgmma n32)
//   16x64x256, 32x64x256: stages of 4 k-blocks (KAtoms = 4), for grids of at most a quarter of the
//                   SMs: each CTA streams its weights faster in few large stages (deepseek_v3.a, 33
//                   tiles: 18.3 -> 14.2 us; slower with most SMs busy; docs/sm90_notes.md, "Session 18")
//   256x64        : not decode: 256 tokens x 64 weight columns (two consumer warpgroups, wgmma m64n128 on
//                   128 tokens each), for output shapes the
//                   cooperative tiles cannot spread over the SMs in one wave (1024 x 2112: 132 tiles);
//                   5 stages of 40 KB; no cluster sums
// Stage counts: as many as fit (the weights stream through; more bytes in flight per SM).
// (B stored K x N since session 43: the same tiles, the weights an MN-major wgmma A operand.)
template <class AB, class D, bool BKMajor>
using SwapABTileSet =
    std::tuple<SwapABConfig<AB, D, 16, 128, 12, 1, BKMajor>, SwapABConfig<AB, D, 16, 64, 20, 1, BKMajor>,
               SwapABConfig<AB, D, 32, 128, 10, 1, BKMajor>, SwapABConfig<AB, D, 32, 64, 18, 1, BKMajor>,
               SwapABConfig<AB, D, 16, 64, 5, 4, BKMajor>, SwapABConfig<AB, D, 32, 64, 4, 4, BKMajor>,
               SwapABConfig<AB, D, 256, 64, 5, 1, BKMajor, 2>>;

template <class AB, bool BKMajor>
using SwapABOutputSet =
    decltype(std::tuple_cat(SwapABTileSet<AB, __nv_bfloat16, BKMajor>{}, SwapABTileSet<AB, __half, BKMajor>{},
                            SwapABTileSet<AB, float, BKMajor>{}));

// The token tiles (session 60; B stored N x K, and K x N since session 61): 160 / 192 tokens x 128
// weight rows, each consumer warpgroup wgmma m64n160 / m64n192 over the tile's tokens; 6 / 5 stages
// of 36 / 40 KB. cuBLASLt's tiles at 320 x 57344 x 8192 and 3072 x 1024 x 4096 (ncu,
// experiments_s60/callA), where the cooperative tiles compute 384 rows of 320 or fill 96 of the SMs.
// Taken by their own rule (sm90_heuristic.cpp, kTokenTile*).
template <class AB, class D, bool BKMajor>
using SwapABTokenTileSet =
    std::tuple<SwapABConfig<AB, D, 160, 128, 6, 1, BKMajor>, SwapABConfig<AB, D, 192, 128, 5, 1, BKMajor>>;

template <class AB, bool BKMajor>
using SwapABTokenOutputSet =
    decltype(std::tuple_cat(SwapABTokenTileSet<AB, __nv_bfloat16, BKMajor>{}, SwapABTokenTileSet<AB, __half, BKMajor>{},
                            SwapABTokenTileSet<AB, float, BKMajor>{}));

// Every instantiated swap-AB configuration; the instance table lists them after PingpongConfigs
// (B N x K first, as before B K x N had any; then the token tiles, B N x K before K x N: each
// session's additions last).
using SwapABConfigs = decltype(std::tuple_cat(SwapABOutputSet<__nv_bfloat16, true>{}, SwapABOutputSet<__half, true>{},
                                              SwapABOutputSet<__nv_bfloat16, false>{},
                                              SwapABOutputSet<__half, false>{},
                                              SwapABTokenOutputSet<__nv_bfloat16, true>{},
                                              SwapABTokenOutputSet<__half, true>{},
                                              SwapABTokenOutputSet<__nv_bfloat16, false>{},
                                              SwapABTokenOutputSet<__half, false>{}));

// gemv configurations (sm90_gemv.cuh; 16 weight rows a CTA, B stored N x K only, no split-K), for
// decode, instantiated in their own translation unit: 8 tokens a pass (M <= 8), 8 or 16 warps
// splitting K, two chunks unrolled (session 39, experiments_s39/call2: of 7 variants these two were
// within 1% of the best one on every llm shape at M = 1); 16 tokens a pass (M = 9..16 where
// swap-AB leaves SMs idle, session 40), 8 warps and two chunks (2 CTAs an SM) or 4 warps and four
// chunks (3 CTAs an SM), or 16 warps and two chunks (one CTA an SM, twice the bytes in flight:
// for grids of at most one CTA an SM, session 41). The heuristic's rules pick among them. The last
// parameter is the CTAs an SM each fits, which the heuristic sizes waves by (ptxas -v, session 42:
// 80 / 82 / 110 / 168 / 118 registers a thread, no spills; 64K registers an SM).
template <class AB, class D>
using GemvTileSet = std::tuple<GemvConfig<AB, D, 8, 8, 2, 3>, GemvConfig<AB, D, 8, 16, 2, 1>, GemvConfig<AB, D, 16, 8, 2, 2>,
                               GemvConfig<AB, D, 16, 4, 4, 3>, GemvConfig<AB, D, 16, 16, 2, 1>>;
template <class AB>
using GemvOutputSet = decltype(std::tuple_cat(GemvTileSet<AB, __nv_bfloat16>{}, GemvTileSet<AB, __half>{},
                                              GemvTileSet<AB, float>{}));
using GemvConfigs = decltype(std::tuple_cat(GemvOutputSet<__nv_bfloat16>{}, GemvOutputSet<__half>{}));

static_assert(max_stages<__nv_bfloat16, 128, 256>() >= 4);
static_assert(max_stages<float, 128, 192>() >= 4);
static_assert(max_stages<float, 128, 176>() >= 5);
static_assert(max_stages<float, 128, 136>() >= 5);
static_assert(max_stages<float, 128, 112>() >= 6);  // 7 with one D staging buffer (kEpiBufs)
static_assert(max_stages<float, 128, 128>() >= 6);
static_assert(max_stages<float, 128, 96>() >= 6);
static_assert(max_stages<float, 64, 128>() >= 8);
static_assert(max_stages<float, 64, 64>() >= 13);
// The 7-stage pair tile: one D staging buffer, the barriers placed by SmemCarve's pad rule.
using PairTile7 = GemmConfig<__nv_bfloat16, float, 128, 112, 7, 2, 1, true>;
static_assert(PairTile7::kEpiBufs == 1 && !smem_bars_after_tiles(PairTile7::kOffBar, PairTile7::kBarBytes));
static_assert(GemmConfig<__nv_bfloat16, float, 128, 112, 6, 2, 1, true>::kEpiBufs == 2);
static_assert(PingpongConfig<__nv_bfloat16, float, 128, 112, 7, 2, 1, true>::kEpiBufs == 1);
static_assert(PingpongConfig<__nv_bfloat16, float, 128, 128, 6, 1, 1, true>::kEpiBufs == 2);

}  // namespace graphgemm::kernels::sm90::configs
