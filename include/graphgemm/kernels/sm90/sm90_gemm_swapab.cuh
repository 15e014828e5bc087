// graphgemm: swap-AB persistent TMA + WGMMA GEMM for Hopper (sm_90a), for decode-sized M.
//
//   D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc    = sum_k A[m,k] * B[k,n]  (bf16/fp16 in, fp32 accumulate; B stored N x K)
//
// wgmma's M is 64 rows at least, so with M = 1..32 tokens the cooperative 64x128 tile spends 50 to
// 98% of its tensor work on rows that do not exist, and with few tiles (N / 128 CTAs) the tensor
// cores, not DRAM, bound each SM's ingest (session 4/5 traces: 32 CTAs streamed 2.3 TB/s, 128 CTAs
// 3.3). This kernel computes D^T = B^T A^T instead: the weight rows (n) are wgmma's M (64 per
// consumer warpgroup), the tokens (m) its N (BlockM = 16 or 32), so a k-block costs
// BlockN x BlockM x 64 MACs instead of 64 x BlockN x 64 and the weights stream through at the
// TMA's rate.
//
// The wide token tile (BlockM = 256, BlockN = 64; two consumer warpgroups, each wgmma m64n128 on
// the same 64 weight rows and its half of the tokens: TokenWGs = 2) is not for decode: it tiles
// the output in 64 weight columns x 256 tokens, which covers shapes the
// cooperative tiles (multiples of 64 columns where B is stored K x N) cannot spread over the SMs
// in one wave: 1024 x 2112 in 4 x 33 = 132 tiles (deepseek_v3 q_a/kv_a at M = 1024; cuBLASLt's
// tile there). No cluster split-K for it.
//
// The token tiles (BlockM = 64..256 tokens in steps of 16, BlockN = 128 weight rows: two consumer
// warpgroups, each wgmma m64 n(BlockM) on its 64 weight rows and all the tile's tokens) are the
// cooperative 128-row tiles turned around: the tokens take wgmma's N, which steps by 16 where the
// cooperative tiles' M steps by 64 a warpgroup, so M = 320 is two tiles of 160 tokens (the
// cooperative tiles compute three of 128 rows) and M = 3072 at N = 1024 is 16 x 8 = 128 tiles of 192
// (cuBLASLt's tiles at those shapes, read with ncu in session 60). No cluster split-K for them.
//
// Same operands, tensor maps, tile scheduler, producer (load_stage) and kernel arguments as the
// cooperative kernel (sm90_gemm.cuh); differences:
//   * A stage: BlockM token rows x 64 k (K-major, 128B swizzle) = wgmma's B operand.
//     B stage: BlockN weight rows x 64 k = wgmma's A operand; consumer warpgroup w takes weight
//     rows [64w, 64w + 64) (the wide tile: warpgroup w the same 64 rows, tokens [128w, 128w + 128)).
//     B stored N x K (the PyTorch weight): K-major, as the cooperative
//     kernel's B; B stored K x N: BlockN / 64 boxes of BlockK k-rows x 64 weight columns (128B
//     swizzle, the cooperative `_bn` kernels' B layout), which wgmma reads as an MN-major A
//     operand (imm-trans-a): one box a consumer warpgroup.
//   * Accumulators (m64nBlockMk16; the wide tile m64n128k16): acc[4j + {0,1}] -> weight row 16*warp + lane/4, token
//     columns 8j + 2*(lane%4) + {0,1}; acc[4j + {2,3}] -> weight row + 8.
//   * Epilogue: straight from registers to global memory (D is M x N row-major, so a warp's
//     store covers 4 token rows x 8 consecutive n: 16-byte segments in bf16/fp16), bounded by M
//     and N; no staging buffer, no TMA store (tma_d is encoded by the launcher but unused). The
//     token tiles with 16-bit D and no C transpose each warp's fragment through 512 bytes of
//     shared memory (stmatrix .trans) and store 16 bytes a lane (store_swapped_staged).
//   * Split-K only as parallel slices summed within a thread-block cluster (KernelParams::
//     split_cluster = splits = C, C a power of two <= the consumer warps; no workspace, no memset):
//     CTA rank r of a cluster takes slice r of the cluster's tile (TileScheduler), one tile per
//     cluster (the launcher checks that every cluster is co-resident). The C partial tiles are
//     summed by PUSHING: consumer warp w's fragment belongs to rank w % C; every other rank
//     stores it into the owner's receive buffer (DSMEM) and arrives, releasing it, on the owner's
//     receive mbarrier; the owner adds the C fragments in rank order (deterministic) and stores.
//     One one-way DSMEM trip, no cluster barrier on the way (one at entry, after the barriers are
//     initialised; the cooperative kernel's pull design pays two after its main loop and a round
//     trip: ~3.1 us on H100, session 7).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "sm90_gemm.cuh"
#include "sm90_gemm_types.hpp"
#include "sm90_primitives.cuh"
#include "sm90_tile_scheduler.cuh"
#include "sm90_wgmma.cuh"

namespace graphgemm::kernels::sm90 {

// BlockM: tokens per tile (wgmma N: 16 or 32 for decode, 256 for the wide tile, 64-256 for the
// token tiles); BlockN: weight rows per tile (64 per consumer warpgroup); KAtoms: k-blocks of 64
// columns per pipeline stage (BlockK = 64 KAtoms); BKMajor: B stored N x K (true) or K x N.
// NOTES: a stage of several k-blocks completes on one mbarrier. With few CTAs, a CTA streaming its
// tile from DRAM runs at about one stage per ~0.2 us plus the stage's bytes, however many stages the
// ring has (tools/diag/tma_stream_probe: 64 weight rows, 8 KB stages ~32 GB/s per SM, 32 KB stages
// ~75), so launches that use few SMs want few large stages. This kernel streams faster than the
// probe, and the large stages pay only with the fewest tiles (sm90_heuristic.cpp,
// kSwapABAtomsMaxBusy). KernelParams::pdl_prefetch_kb counts these k-blocks (4 of 256 columns).
template <class ElementAB_, class ElementD_, int BlockM_, int BlockN_, int Stages_, int KAtoms_ = 1,
          bool BKMajor_ = true, int TokenWGs_ = 1>
struct SwapABConfig {
    using ElementAB = ElementAB_;
    using ElementD = ElementD_;
    static constexpr Schedule kSchedule = Schedule::swap_ab;
    static constexpr int kBlockM = BlockM_;
    static constexpr int kBlockN = BlockN_;
    static constexpr int kBlockK = 64 * KAtoms_;  // KAtoms 128-byte swizzle atoms of 16-bit elements
    static constexpr int kStages = Stages_;
    static constexpr int kClusterM = 1;
    static constexpr int kClusterN = 1;
    static constexpr int kClusterSize = 1;
    static constexpr bool kBKMajor = BKMajor_;

    // Consumer warpgroup w: weight rows [64 (w % (BlockN / 64)), + 64), tokens [(w / (BlockN / 64))
    // BlockM / TokenWGs, + BlockM / TokenWGs) (wgmma m64 n(BlockM / TokenWGs)).
    static constexpr int kTokenWGs = TokenWGs_;
    static constexpr int kWeightWGs = kBlockN / 64;
    static constexpr int kMmaN = kBlockM / kTokenWGs;
    static constexpr int kConsumerWGs = kWeightWGs * kTokenWGs;
    static constexpr int kThreads = (kConsumerWGs + 1) * 128;
    static constexpr int kConsumerWarps = kConsumerWGs * 4;
    // Decode tiles (16 / 32 tokens), the wide tile (256 tokens x 64 weight rows, the tokens split
    // between two warpgroups) and the token tiles (64-256 tokens, a multiple of 16, x 128 weight
    // rows: each warpgroup m64 n(BlockM) over all the tile's tokens).
    static constexpr bool kDecodeTile = kBlockM == 16 || kBlockM == 32;
    static constexpr bool kWideTile = kBlockM == 256 && kBlockN == 64 && kTokenWGs == 2;
    static constexpr bool kTokenTile = kBlockM >= 64 && kBlockM <= 256 && kBlockM % 16 == 0 && kBlockN == 128 &&
                                       kTokenWGs == 1;
    // Cluster split-K: slices summed within clusters of up to this many CTAs (each owns >= 1 warp);
    // decode tiles only (the wide and token tiles' fp32 receive buffer would take a third of the
    // stage ring or more, and their grids are not split).
    static constexpr bool kSplitCluster = kDecodeTile;
    static constexpr int kMaxSplitCluster = !kSplitCluster ? 1 : kConsumerWarps < 8 ? kConsumerWarps : 8;
    static constexpr int kProducerRegs = 40;
    static constexpr int kConsumerRegs = kConsumerWGs == 2 ? 232 : 240;

    // Shared memory carve-up (offsets from a 1024-byte aligned base): the stage ring, the cluster
    // split-K receive buffer (one fp32 tile: (C - 1) / C of it used with C slices), the token tiles'
    // epilogue scratch (512 bytes a consumer warp), the full and empty barriers of the ring, the
    // receive barrier.
    static constexpr int kSmemAStage = kBlockM * kBlockK * 2;
    static constexpr int kSmemBStage = kBlockN * kBlockK * 2;
    static constexpr int kStageBytes = kSmemAStage + kSmemBStage;
    static constexpr int kEpiCols = 128 / static_cast<int>(sizeof(ElementD));  // tma_d box (unused)
    static constexpr int kRecvBytes = kSplitCluster ? kBlockN * kBlockM * 4 : 0;
    // The token tiles' epilogue (16-bit D): 16 tokens x 16 weight rows a consumer warp at a time.
    static constexpr bool kStagedEpilogue = kTokenTile && sizeof(ElementD) == 2;
    static constexpr int kEpiScratchBytes = kStagedEpilogue ? kConsumerWarps * 512 : 0;
    static constexpr int kOffA = 0;
    static constexpr int kOffB = kOffA + kStages * kSmemAStage;
    static constexpr int kOffRecv = kOffB + kStages * kSmemBStage;
    static constexpr int kOffEpi = kOffRecv + kRecvBytes;
    static constexpr int kOffBar = kOffEpi + kEpiScratchBytes;
    static constexpr int kBarBytes = (2 * kStages + 1) * 8;  // full[], empty[], recv
    static constexpr int kSmemBytes = smem_bytes(kOffBar, kBarBytes);  // the carve-up: SmemCarve

    static constexpr bool kMulticastA = false;
    static constexpr bool kMulticastB = false;
    static constexpr int kBoxAInner = 64;  // one atom a box (load_stage)
    static constexpr int kBoxAOuter = kBlockM;
    static constexpr int kBoxBInner = 64;  // K (K-major) or N (N-major): 128 bytes either way
    static constexpr int kBoxBOuter = kBKMajor ? kBlockN : kBlockK;  // (a TMA box dimension: <= 256)

    static_assert(std::is_same_v<ElementAB, __nv_bfloat16> || std::is_same_v<ElementAB, __half>);
    static_assert(std::is_same_v<ElementD, __nv_bfloat16> || std::is_same_v<ElementD, __half> ||
                  std::is_same_v<ElementD, float>);
    static_assert(kDecodeTile + kWideTile + kTokenTile == 1,
                  "tokens per tile: 16 / 32 (decode), 256 x 64 weight rows in two token halves (wide), or "
                  "64-256 in steps of 16 x 128 weight rows (token tiles)");
    static_assert(kBlockN == 64 || kBlockN == 128, "64 weight rows per consumer warpgroup");
    static_assert(kSmemAStage % 1024 == 0, "each stage starts on a 128B-swizzle atom");
    static_assert(kOffRecv % 16 == 0, "16-byte st.async into the receive buffer");
    static_assert(kStages >= 2);
    static_assert(kSmemBytes <= kMaxDynamicSmem, "shared memory budget exceeded");
};

namespace detail {

// One element of D before C and the conversion, in one order for both epilogues (store_swapped,
// store_swapped_staged) so that they round alike: acc * alpha * scale_b[n] * scale_a[m] + bias[n]
// (a missing scale is 1, which is exact).
__device__ __forceinline__ float swapped_value(float acc, float alpha, float sb, float sa, float bias) {
    return acc * alpha * sb * sa + bias;
}

// D = epilogue(acc) for one consumer warpgroup's 64 weight rows x BM tokens, from registers.
template <class ElementD, int BM, int kNumAccum>
__device__ __forceinline__ void store_swapped(const KernelParams& p, const float (&acc)[kNumAccum],
                                              int m0, int n_base, int warp_in_wg, int lane) {
    const int n_lo = n_base + warp_in_wg * 16 + lane / 4;  // and n_lo + 8
    const int mq = m0 + 2 * (lane % 4);                    // + 8j + {0, 1}
    const bool has_c = reads_c(p);
    ElementD* d = static_cast<ElementD*>(p.d);
    const ElementD* c = static_cast<const ElementD*>(p.c);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int n = n_lo + 8 * h;
        if (n >= p.n) continue;
        const float sb = p.scale_b != nullptr ? p.scale_b[n] : 1.0f;
        const float bias = load_bias(p.bias, p.bias_type, n);
#pragma unroll
        for (int j = 0; j < BM / 8; ++j) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int m = mq + 8 * j + e;
                if (m >= p.m) continue;
                const float sa = p.scale_a != nullptr ? p.scale_a[m] : 1.0f;
                float v = swapped_value(acc[4 * j + 2 * h + e], p.alpha, sb, sa, bias);
                if (has_c) v += p.beta * to_float(c[static_cast<long long>(m) * p.ldc + n]);
                if constexpr (std::is_same_v<ElementD, float>) d[static_cast<long long>(m) * p.ldd + n] = v;
                else if constexpr (std::is_same_v<ElementD, __half>) d[static_cast<long long>(m) * p.ldd + n] = __float2half_rn(v);
                else d[static_cast<long long>(m) * p.ldd + n] = __float2bfloat16_rn(v);
            }
        }
    }
}

// The token tiles' epilogue for 16-bit D (Config::kStagedEpilogue) without C: the warp's 16 weight
// rows x BM tokens leave 16 tokens at a time through its 512-byte scratch. The four 8x8 blocks of a
// chunk (weight rows 0-7 / 8-15 x tokens 8j..8j+7 / 8j+8..8j+15, each pair of accumulators packed)
// go in with one stmatrix .trans, which writes token t's 16 weight rows as 32 contiguous bytes at
// 32 t; lane l then reads bytes [16 l, 16 l + 16): token l / 2, weight rows 8 (l % 2) .. + 7, and
// stores them with one 16-byte store (a warp: 16 token rows x 32 contiguous bytes of D, where
// store_swapped stores 2 bytes at a time). N's last segment, if partial, goes element by element.
template <class ElementD, int BM, int kNumAccum>
__device__ __forceinline__ void store_swapped_staged(const KernelParams& p, const float (&acc)[kNumAccum], int m0,
                                                     int n_base, int warp_in_wg, int lane, uint32_t scratch) {
    static_assert(sizeof(ElementD) == 2 && BM % 16 == 0 && kNumAccum == BM / 2);
    const int n_lo = n_base + warp_in_wg * 16 + lane / 4;  // this lane's weight rows: n_lo, n_lo + 8
    float sb[2], bias[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int n = n_lo + 8 * h;
        sb[h] = p.scale_b != nullptr && n < p.n ? p.scale_b[n] : 1.0f;
        bias[h] = n < p.n ? load_bias(p.bias, p.bias_type, n) : 0.0f;
    }
    const int mq = m0 + 2 * (lane % 4);  // this lane's tokens: mq + 8j + {0, 1}
    // stmatrix: lane 8q + r addresses row r of matrix q (weight rows 8 (q % 2).., tokens 8 (q / 2) + r).
    const uint32_t stsm = scratch + static_cast<uint32_t>((8 * (lane / 16) + lane % 8) * 32 + ((lane / 8) % 2) * 16);
    const uint32_t ld = scratch + static_cast<uint32_t>(lane * 16);
    const int n_seg = n_base + warp_in_wg * 16 + 8 * (lane % 2);
    ElementD* d = static_cast<ElementD*>(p.d);
#pragma unroll
    for (int c = 0; c < BM / 16; ++c) {
        if (m0 + 16 * c >= p.m) break;  // warp-uniform
        uint32_t packed[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int j = 2 * c + q / 2, h = q % 2;
            const int m = mq + 8 * j;  // and m + 1 (a token past M: its value is computed, not stored)
            float sa0 = 1.0f, sa1 = 1.0f;
            if (p.scale_a != nullptr) {
                sa0 = m < p.m ? p.scale_a[m] : 0.0f;
                sa1 = m + 1 < p.m ? p.scale_a[m + 1] : 0.0f;
            }
            packed[q] = pack_pair<ElementD>(swapped_value(acc[4 * j + 2 * h], p.alpha, sb[h], sa0, bias[h]),
                                            swapped_value(acc[4 * j + 2 * h + 1], p.alpha, sb[h], sa1, bias[h]));
        }
        __syncwarp();  // the previous chunk's reads of the scratch are done
        stmatrix_x4_trans(stsm, packed[0], packed[1], packed[2], packed[3]);
        __syncwarp();
        const uint4 x = ld_shared_u32x4(ld);
        const int m = m0 + 16 * c + lane / 2;
        if (m < p.m) {
            ElementD* row = d + static_cast<long long>(m) * p.ldd + n_seg;
            if (n_seg + 8 <= p.n) {
                *reinterpret_cast<uint4*>(row) = x;  // D and ldd are 16-byte aligned (the launcher's TMA map of D)
            } else {
                const uint32_t w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
                for (int i = 0; i < 8; ++i)
                    if (n_seg + i < p.n)
                        reinterpret_cast<uint16_t*>(row)[i] = static_cast<uint16_t>(w[i / 2] >> (16 * (i % 2)));
            }
        }
    }
}

// Cluster split-K (split_cluster = C > 1; see the header): consumer warp w's share of the tile
// (fragment registers acc[0..kNumAccum)) belongs to rank w % C. Other ranks push theirs into the
// owner's receive buffer, slot (sender rank s, owned-warp index w / C), as kNumAccum / 4 float4 per
// lane in [slot][vector][lane] order (a warp's 16-byte accesses contiguous: no bank conflicts),
// then each pushing thread arrives on the owner's receive barrier (release, cluster scope; the
// barrier expects cluster_recv_arrivals(C)); the owner waits on it (acquire), adds the C fragments
// in rank order 0..C-1 whoever owns them (deterministic: the same sum for a given C), and stores D.
// Returns whether this warp owns its fragment and must store it (false: it pushed and is done).
template <class Config, int kNumAccum>
__device__ __forceinline__ bool cluster_sum_swapped(const KernelParams& p, float (&acc)[kNumAccum],
                                                    uint32_t recv, uint32_t bar_recv, int warp, int lane) {
    constexpr int kVecs = kNumAccum / 4;
    static_assert(kNumAccum % 4 == 0);
    const int c = p.split_cluster;
    const int rank = static_cast<int>(cluster_cta_rank());
    const int owner = warp & (c - 1);
    const int owned = Config::kConsumerWarps / c;  // warps each rank owns
    const int j = warp / c;
    auto slot = [&](int s, int v) {
        return recv + static_cast<uint32_t>((((s * owned + j) * kVecs + v) * 32 + lane) * 16);
    };
    if (owner != rank) {
#pragma unroll
        for (int v = 0; v < kVecs; ++v) {
            st_shared_cluster_f32x4(map_shared_rank(slot(rank, v), static_cast<uint32_t>(owner)),
                                    make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]));
        }
        mbar_arrive_remote_release(map_shared_rank(bar_recv, static_cast<uint32_t>(owner)));
        return false;
    }
    mbar_wait<true>(bar_recv, 0);  // every peer's fragment of this warp has landed
    float own[kNumAccum];
#pragma unroll
    for (int i = 0; i < kNumAccum; ++i) own[i] = acc[i];
    for (int s = 0; s < c; ++s) {
#pragma unroll
        for (int v = 0; v < kVecs; ++v) {
            const float4 x = s == rank ? make_float4(own[4 * v], own[4 * v + 1], own[4 * v + 2], own[4 * v + 3])
                                       : ld_shared_f32x4(slot(s, v));
            if (s == 0) {
                acc[4 * v] = x.x, acc[4 * v + 1] = x.y, acc[4 * v + 2] = x.z, acc[4 * v + 3] = x.w;
            } else {
                acc[4 * v] += x.x, acc[4 * v + 1] += x.y, acc[4 * v + 2] += x.z, acc[4 * v + 3] += x.w;
            }
        }
    }
    return true;
}

// Arrivals a rank's receive barrier expects with C slices: one per pushing thread, (C - 1) peers x
// its (warps / C) warps x 32 lanes.
template <class Config>
__host__ __device__ constexpr uint32_t cluster_recv_arrivals(int c) {
    return static_cast<uint32_t>((c - 1) * (Config::kConsumerWarps / c) * 32);
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads, 1)
    sm90_gemm_swapab_kernel(const __grid_constant__ CUtensorMap tma_a,
                            const __grid_constant__ CUtensorMap tma_b,
                            const __grid_constant__ CUtensorMap tma_d, const KernelParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // (GRAPHGEMM_TRACE: the cooperative kernel's events 0-5, 7, 11 and 12; sm90_trace builds only.)
    GRAPHGEMM_TRACE(threadIdx.x == 0, 0);
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kStages = Config::kStages;
    constexpr int kConsumerWGs = Config::kConsumerWGs;
    constexpr bool kBKMajor = Config::kBKMajor;
    // wgmma: M = 64 weight rows (A operand: K-major with B stored N x K, else MN-major), N = BM
    // tokens (B operand, K-major).
    using Mma = Wgmma<Config::kMmaN, std::is_same_v<typename Config::ElementAB, __nv_bfloat16>, 0, kBKMajor ? 0 : 1>;
    using Scheduler = TileScheduler<BM, BN, 1, 1>;
    (void)tma_d;

    extern __shared__ __align__(16) uint8_t smem_raw[];
    const SmemCarve<Config::kOffBar, Config::kBarBytes> carve(smem_u32(smem_raw));
    const uint32_t smem_base = carve.base;
    const uint32_t smem_a = smem_base + Config::kOffA;
    const uint32_t smem_b = smem_base + Config::kOffB;
    const uint32_t recv = smem_base + Config::kOffRecv;
    [[maybe_unused]] const uint32_t epi_scratch = smem_base + Config::kOffEpi + (threadIdx.x / 32) * 512;
    const uint32_t bar_full = carve.bars;
    const uint32_t bar_empty = bar_full + 8 * kStages;
    const uint32_t bar_recv = bar_empty + 8 * kStages;

    const uint32_t warp_idx = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t wg_idx = warp_idx / 4;
    const int num_k_blocks = (p.k + BK - 1) / BK;  // >= 1 (launcher)
    // Split-K (cluster sums only; splits = split_cluster): next_unit() gives each unit's k-blocks,
    // as in the cooperative kernel.
    const bool cluster_split = Config::kSplitCluster && p.split_cluster > 1;  // uniform
    const int kb_per_slice = num_k_blocks / p.splits;
    const int kb_extra = num_k_blocks - kb_per_slice * p.splits;

    if (threadIdx.x == kConsumerWGs * 128) {
        tma_prefetch_descriptor(&tma_a);
        tma_prefetch_descriptor(&tma_b);
#pragma unroll
        for (int s = 0; s < kStages; ++s) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, kConsumerWGs * 4);
        }
        mbar_init(bar_recv, cluster_split ? cluster_recv_arrivals<Config>(p.split_cluster) : 1);
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    // Peers push into our receive buffer and arrive on its barrier: initialised cluster-wide before
    // any push. Every thread arrives here (relaxed: the fence above releases the inits) and waits
    // only before the cluster sum (consumers) or before leaving (producers): no cluster barrier
    // before the first load (sm90_trace, H100, session 19: deepseek_v3.a M = 1 in clusters of 2,
    // first TMA 1.70 -> 1.34 µs after entry, 16.0 -> 15.6 µs per launch).
    // NOTES: every thread arrives and waits. Arriving at entry and waiting only in the pushing warps
    // (the rest exiting without a wait) ran correctly and passed memcheck, but hung
    // compute-sanitizer racecheck (session 9).
    __syncthreads();  // this CTA's barriers, for its own threads
    if (cluster_split) cluster_arrive_relaxed();
    GRAPHGEMM_TRACE(threadIdx.x == 0, 1);

    if (wg_idx == kConsumerWGs) {
        // ======================== Producer warpgroup (TMA) ========================
        setmaxnreg_dec<Config::kProducerRegs>();
        if (warp_idx == kConsumerWGs * 4 && lane == 0) {
            Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, p.splits, p.split_cluster);
            uint32_t stage = 0, phase = 0;
            bool waited = false;  // for the previous grid (PDL)
            [[maybe_unused]] bool traced = false;
            int tile_m, tile_n, slice, t, kb_begin, kb_end;
            while (next_unit(sched, false, kb_per_slice, kb_extra, tile_m, tile_n, slice, t, kb_begin, kb_end)) {
                if (!waited) {  // the weights (tma_b) of the first tile into L2, then wait
                    prefetch_b_l2<Config>(&tma_b, kb_begin, min(kb_end, kb_begin + p.pdl_prefetch_kb), tile_n * BN, 0);
                    griddep_wait();
                    GRAPHGEMM_TRACE(true, 11);
                    waited = true;
                }
                for (int kb = kb_begin; kb < kb_end; ++kb) {
                    mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                    load_stage<Config>(&tma_a, &tma_b, bar_full + 8 * stage, smem_a + stage * Config::kSmemAStage,
                                       smem_b + stage * Config::kSmemBStage, kb * BK, tile_m * BM, tile_n * BN, 0, 0);
                    GRAPHGEMM_TRACE_ONCE(traced, true, 2);
                    ring_step<kStages>(stage, phase);
                }
            }
            griddep_launch_dependents();  // PDL: every load of this CTA is issued
            GRAPHGEMM_TRACE(true, 12);
        }
        __syncwarp();
        if (cluster_split) cluster_wait();  // the entry barrier's second half
    } else {
        // ======================== Consumer warpgroups (WGMMA + epilogue) ========================
        setmaxnreg_inc<Config::kConsumerRegs>();
        griddep_wait();  // before the epilogue's global accesses
        const uint32_t warp_in_wg = warp_idx % 4;
        Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, p.splits, p.split_cluster);

        // Stage-0 descriptors: A operand = this warpgroup's 64 weight rows (K-major: rows of 128 B
        // from row 64 w of each atom; MN-major: box w, its 8-k-row groups 1024 B apart), B operand =
        // the tokens.
        // (The decode tiles' consumer warpgroups split the weight rows only.)
        const uint32_t wg_w = Config::kTokenWGs == 1 ? wg_idx : wg_idx % Config::kWeightWGs;
        const uint32_t wg_t = Config::kTokenWGs == 1 ? 0 : wg_idx / Config::kWeightWGs;
        const uint64_t desc_a0 = kBKMajor ? make_smem_desc_sw128(smem_b + wg_w * 64 * 128, 0, 1024)
                                          : make_smem_desc_sw128(smem_b + wg_w * BK * 128, BK * 128, 1024);
        const uint64_t desc_b0 = make_smem_desc_sw128(smem_a + wg_t * Config::kMmaN * 128, 0, 1024);
        const int m_off = static_cast<int>(wg_t) * Config::kMmaN;  // this warpgroup's first token

        float acc[Mma::kNumAccum];
        uint32_t stage = 0, phase = 0;
        int tile_m, tile_n, slice, t, kb_begin, kb_end;
        // Cluster split-K: the unit whose fragments are summed after the loop (outside it, like the
        // cooperative kernel's cluster sum, so that the main loop keeps its uniform datapath).
        int sum_m = -1, sum_n = 0;
        [[maybe_unused]] bool traced = false;
        while (next_unit(sched, false, kb_per_slice, kb_extra, tile_m, tile_n, slice, t, kb_begin, kb_end)) {
            // ---- Main loop (weights as wgmma's A operand, tokens as its B): as the cooperative kernel ----
            consume_unit<Mma, kStages, BK, Config::kSmemBStage, Config::kSmemAStage, operand_k_step_bytes(true), 0,
                         operand_k_step_bytes(kBKMajor)>(
                acc, stage, phase, kb_begin, kb_end, bar_full, desc_a0, desc_b0,
                [&](uint32_t s) { release_stage_of<1>(bar_empty + 8 * s, lane); },
                [&] { GRAPHGEMM_TRACE_ONCE(traced, threadIdx.x == 0, 3); });
            GRAPHGEMM_TRACE(threadIdx.x == 0, 4);
            if (cluster_split) {  // uniform: one unit per CTA in this mode
                sum_m = tile_m, sum_n = tile_n;
                break;
            }

            const int n_base = tile_n * BN + static_cast<int>(wg_w) * 64;
            if (n_base < p.n && (Config::kTokenWGs == 1 || tile_m * BM + m_off < p.m)) {  // warpgroup-uniform
                bool staged = false;  // uniform
                if constexpr (Config::kStagedEpilogue) {
                    if (!reads_c(p)) {
                        store_swapped_staged<ElementD, Config::kMmaN>(p, acc, tile_m * BM + m_off, n_base,
                                                                      static_cast<int>(warp_in_wg), static_cast<int>(lane),
                                                                      epi_scratch);
                        staged = true;
                    }
                }
                if (!staged)
                    store_swapped<ElementD, Config::kMmaN>(p, acc, tile_m * BM + m_off, n_base,
                                                           static_cast<int>(warp_in_wg), static_cast<int>(lane));
            }
            GRAPHGEMM_TRACE(threadIdx.x == 0, 5);
        }
        if (cluster_split) cluster_wait();  // the entry barrier's second half: every peer's barriers ready
        if (sum_m >= 0 &&
            cluster_sum_swapped<Config>(p, acc, recv, bar_recv, static_cast<int>(warp_idx), static_cast<int>(lane))) {
            const int n_base = sum_n * BN + static_cast<int>(wg_w) * 64;
            if (n_base < p.n) {  // warpgroup-uniform
                store_swapped<ElementD, Config::kMmaN>(p, acc, sum_m * BM + m_off, n_base, static_cast<int>(warp_in_wg),
                                                       static_cast<int>(lane));
            }
            GRAPHGEMM_TRACE(threadIdx.x == 0, 5);
        }
    }
    // NOTES: no CTA leaves while a peer may still store into its smem. The receive barrier already
    // orders that for the owners, but compute-sanitizer racecheck only credits a cluster barrier
    // (without this one it reported every push as a write to a block that might have exited). A
    // rendezvous only, so its arrive is relaxed: with .release every owner waited for its stores of
    // D to be performed before the grid could end.
    if (cluster_split) cluster_sync_relaxed();
    GRAPHGEMM_TRACE(threadIdx.x == 0, 7);
#else
    // Built for a target without WGMMA/TMA (anything but sm_90a): trap, as the cooperative kernel.
    __trap();
#endif
}

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
