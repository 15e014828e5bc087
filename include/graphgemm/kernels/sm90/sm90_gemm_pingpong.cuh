// graphgemm: ping-pong persistent TMA + WGMMA GEMM for Hopper (sm_90a).
//
//   D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc    = sum_k A[m,k] * B[k,n]  (bf16/fp16 in, fp32 accumulate)
//
// Same operands, epilogue, tensor maps, tile scheduler and kernel arguments as the cooperative
// kernel (sm90_gemm.cuh); only the division of work between the consumer warpgroups differs:
//   * WG 0, WG 1 : consumers. Each owns a WHOLE BlockM x BlockN tile (BlockM / 64 wgmma.m64nBlockN
//                  per k-step, 128 fp32 accumulators per thread at most). The CTA's work units are
//                  dealt alternately: units 0, 2, 4, ... of the CTA's sequence to WG 0, units 1, 3,
//                  5, ... to WG 1.
//   * WG 2       : producer. One thread loads the CTA's units IN ORDER into one kStages ring, so the
//                  ring positions of unit j are [j * KB, (j + 1) * KB) (KB = k-blocks per unit, the
//                  same for every unit: no split-K here).
//   * order[w]   : mbarrier "WG w may issue its main loop". A consumer waits on its own barrier before
//                  its first wgmma of a unit and, once all its wgmmas of that unit are issued, each of
//                  its 4 warps arrives on the other's. So the main loops run strictly in unit order
//                  (one warpgroup on the tensor cores at a time) and WG w's epilogue of unit j runs
//                  while WG !w issues unit j + 1: the epilogue is off the tensor cores' critical path.
//   * Epilogue   : as the cooperative kernel (registers -> 128B-swizzled 64-row chunk -> TMA store;
//                  columns past the 16-byte aligned prefix n_tma with plain stores), but each WG has
//                  its own staging buffers (kEpiBufs each), so the two epilogues never share smem.
//
// Barrier phases (the reason the order barriers exist, besides scheduling): a consumer waits on
// full[s] with a parity, which is only unambiguous while the stage is at most one phase ahead of
// the position waited for. Position p may be waited for only once position p - kStages has
// completed; within one unit the waiting WG itself waited for it, across units the other WG did
// before it handed the turn over (its arrive on order[] follows its last full[] wait).
// Order barrier phases: WG 0's j-th unit waits for phase j - 1 of order[0] (WG 1's arrival after
// its (j-1)-th unit; the first wait uses parity 1, which a fresh barrier passes at once); WG 1's
// j-th unit waits for phase j of order[1] (WG 0's arrival after its j-th unit). A WG's arrival for
// phase j happens only after the other passed its wait for phase j - 1, so no barrier ever runs two
// phases ahead of its waiter. A last arrival nobody waits for (the other WG has no further unit) is
// harmless on an mbarrier.
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

// BlockM x BlockN is the tile of ONE consumer warpgroup (and the scheduler's unit).
template <class ElementAB_, class ElementD_, int BlockM_, int BlockN_, int Stages_, int ClusterM_,
          int ClusterN_, bool BKMajor_>
struct PingpongConfig {
    using ElementAB = ElementAB_;
    using ElementD = ElementD_;
    static constexpr Schedule kSchedule = Schedule::pingpong;
    static constexpr int kBlockM = BlockM_;
    static constexpr int kBlockN = BlockN_;
    static constexpr int kBlockK = 64;  // one 128-byte swizzle atom of 16-bit elements
    static constexpr int kStages = Stages_;
    static constexpr int kClusterM = ClusterM_;
    static constexpr int kClusterN = ClusterN_;
    static constexpr int kClusterSize = ClusterM_ * ClusterN_;
    static constexpr bool kBKMajor = BKMajor_;

    static constexpr int kMmaM = kBlockM / 64;  // wgmma.m64 row blocks per consumer warpgroup
    static constexpr int kConsumerWGs = 2;
    static constexpr int kThreads = (kConsumerWGs + 1) * 128;
    // 40 * 128 + 232 * 256 = 64512 <= 65536 registers per SM (the kernel starts at 168 each).
    static constexpr int kProducerRegs = 40;
    static constexpr int kConsumerRegs = 232;

    // Shared memory carve-up (offsets from a 1024-byte aligned base)
    static constexpr int kSmemAStage = kBlockM * kBlockK * 2;
    static constexpr int kSmemBStage = kBlockN * kBlockK * 2;
    static constexpr int kStageBytes = kSmemAStage + kSmemBStage;
    static constexpr int kEpiCols = 128 / static_cast<int>(sizeof(ElementD));  // cols per chunk
    static constexpr int kEpiBufBytes = 64 * 128;                               // 64 rows x 128 B
    static constexpr int kBarBytes = (2 * kStages + 2) * 8;  // full[], empty[], order[2]
    // Staging buffers per consumer warpgroup: 4 where they fit beside the ring, else 2, else one
    // (128x112 in 7 stages, as the cooperative pair tile: each chunk then waits for the previous
    // store's read).
    static constexpr int epi_bufs_that_fit() {
        for (int b = 4; b > 1; b /= 2)
            if (smem_bytes(kStages * kStageBytes + kConsumerWGs * b * kEpiBufBytes, kBarBytes) <= kMaxDynamicSmem) return b;
        return 1;
    }
    static constexpr int kEpiBufs = epi_bufs_that_fit();
    static constexpr int kSmemD = kConsumerWGs * kEpiBufs * kEpiBufBytes;
    static constexpr int kOffA = 0;
    static constexpr int kOffB = kOffA + kStages * kSmemAStage;
    static constexpr int kOffD = kOffB + kStages * kSmemBStage;
    static constexpr int kOffBar = kOffD + kSmemD;
    static constexpr int kSmemBytes = smem_bytes(kOffBar, kBarBytes);  // the carve-up: SmemCarve
    static_assert(kOffBar - kOffB >= (kBlockM - 1) * 128, "a shifted A tile's rows past M stay in the tiles (edge_box_row)");
    static_assert(!kBKMajor || kOffBar - (kOffD - kSmemBStage) >= (2 * kBlockN - 1) * 128,
                  "a shifted B tile's rows past N stay in the tiles (edge_box_row)");

    // TMA boxes {inner, outer}, as GemmConfig: the multicast operand is split in halves.
    static constexpr bool kMulticastA = kClusterN == 2;
    static constexpr bool kMulticastB = kClusterM == 2;
    static constexpr int kBoxAInner = kBlockK;
    static constexpr int kBoxAOuter = kMulticastA ? kBlockM / 2 : kBlockM;
    static constexpr int kBoxBInner = 64;
    static constexpr int kBoxBOuter =
        kBKMajor ? (kMulticastB ? kBlockN / 2 : kBlockN) : (kMulticastB ? kBlockK / 2 : kBlockK);

    static_assert(std::is_same_v<ElementAB, __nv_bfloat16> || std::is_same_v<ElementAB, __half>);
    static_assert(std::is_same_v<ElementD, __nv_bfloat16> || std::is_same_v<ElementD, __half> ||
                  std::is_same_v<ElementD, float>);
    static_assert(kBlockM == 64 || kBlockM == 128);
    // BN a multiple of 64, or (112) of 8 with B stored N x K (a K-major B box of BN rows), as the
    // cooperative kernel: the epilogue's last chunk is then partial.
    static_assert((kBlockN % 64 == 0 || (kBlockN % 8 == 0 && kBKMajor)) && kBlockN >= 64 && kBlockN <= 256);
    static_assert(kBlockM * kBlockN <= 64 * 256, "at most 128 fp32 accumulators per thread");
    static_assert(kClusterSize == 1 || kClusterSize == 2, "cluster of 1 or 2 CTAs");
    static_assert(kBoxAOuter % 8 == 0 && kBoxBOuter % 8 == 0, "multicast halves: 1024B aligned");
    static_assert(kStages >= 2);
    static_assert(kSmemBytes <= kMaxDynamicSmem, "shared memory budget exceeded");
    static_assert(smem_carve_fits(kBarBytes), "barriers too large for SmemCarve's placement");
};

namespace detail {

// Ring position += n (stage in [0, kStages), phase flips on every wrap).
template <int kStages>
__device__ __forceinline__ void ring_advance(uint32_t& stage, uint32_t& phase, uint32_t n) {
    const uint32_t s = stage + n;
    phase ^= (s / kStages) & 1u;
    stage = s % kStages;
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads, 1)
    sm90_gemm_pingpong_kernel(const __grid_constant__ CUtensorMap tma_a,
                              const __grid_constant__ CUtensorMap tma_b,
                              const __grid_constant__ CUtensorMap tma_d, const KernelParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kStages = Config::kStages;
    constexpr int kCluster = Config::kClusterSize;
    constexpr int kMmaM = Config::kMmaM;
    constexpr int kEpiBufs = Config::kEpiBufs;
    constexpr bool kBKMajor = Config::kBKMajor;
    using Mma = Wgmma<BN, std::is_same_v<typename Config::ElementAB, __nv_bfloat16>,
                      kBKMajor ? 0 : 1>;
    using Scheduler = TileScheduler<BM, BN, Config::kClusterM, Config::kClusterN>;

    // ---- Shared memory carve-up (base rounded up to 1024: 128B-swizzle atoms) ----
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const SmemCarve<Config::kOffBar, Config::kBarBytes> carve(smem_u32(smem_raw));
    const uint32_t smem_base = carve.base;
    const uint32_t smem_a = smem_base + Config::kOffA;
    const uint32_t smem_b = smem_base + Config::kOffB;
    const uint32_t smem_d = smem_base + Config::kOffD;
    const uint32_t bar_full = carve.bars;
    const uint32_t bar_empty = bar_full + 8 * kStages;
    const uint32_t bar_order = bar_empty + 8 * kStages;  // [2]: "WG w may issue its main loop"

    const uint32_t warp_idx = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t wg_idx = warp_idx / 4;
    const uint32_t cta_rank = kCluster > 1 ? cluster_cta_rank() : 0;
    const int rank_m = cluster_rank_m<Config>(cta_rank);
    const int rank_n = cluster_rank_n<Config>(cta_rank);
    // Every unit covers all of K (the launcher refuses split-K for this kernel).
    const int num_k_blocks = (p.k + BK - 1) / BK;

    // ---- Barrier initialisation ----
    if (threadIdx.x == 2 * 128) {
        tma_prefetch_descriptor(&tma_a);
        tma_prefetch_descriptor(&tma_b);
        tma_prefetch_descriptor(&tma_d);
#pragma unroll
        for (int s = 0; s < kStages; ++s) {
            mbar_init(bar_full + 8 * s, 1);
            // One consumer warpgroup reads a stage: its 4 warps, in every CTA of the cluster.
            mbar_init(bar_empty + 8 * s, 4 * kCluster);
        }
        mbar_init(bar_order, 4);      // the 4 warps of WG 1 arrive
        mbar_init(bar_order + 8, 4);  // the 4 warps of WG 0 arrive
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    // Peers multicast into our smem and arrive on our barriers: initialised cluster-wide first
    // (relaxed arrive: the fence above releases the inits; see cluster_arrive_relaxed).
    if constexpr (kCluster > 1) cluster_sync_relaxed();
    else __syncthreads();

    if (wg_idx == 2) {
        // ======================== Producer warpgroup (TMA) ========================
        setmaxnreg_dec<Config::kProducerRegs>();
        if (warp_idx == 8 && lane == 0) {
            Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, 1);
            uint32_t stage = 0, phase = 0;
            bool waited = false;  // for the previous grid (PDL)
            int tile_m, tile_n, slice;
            while (sched.next(tile_m, tile_n, slice)) {  // every unit of this CTA, in order
                const int m0 = (tile_m * Config::kClusterM + rank_m) * BM;
                const int n0 = (tile_n * Config::kClusterN + rank_n) * BN;
                const int b_row0 = kBKMajor ? edge_box_row(n0, p.n, BN) : n0;  // B stored N x K: as A's M
                if (!waited) {
                    prefetch_b_l2<Config>(&tma_b, 0, min(num_k_blocks, p.pdl_prefetch_kb), b_row0, rank_m);
                    griddep_wait();
                    waited = true;
                }
                for (int kb = 0; kb < num_k_blocks; ++kb) {
                    // Stage free in every CTA this load (or its multicast) writes to (CTA-scope
                    // wait: see mbar_wait's NOTES).
                    mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                    load_stage<Config>(&tma_a, &tma_b, bar_full + 8 * stage, smem_a + stage * Config::kSmemAStage,
                                       smem_b + stage * Config::kSmemBStage, kb * BK, edge_box_row(m0, p.m, BM), b_row0,
                                       rank_m, rank_n);
                    ring_advance<kStages>(stage, phase, 1);
                }
            }
            griddep_launch_dependents();  // PDL: every load of this CTA is issued
        }
        __syncwarp();
    } else {
        // ======================== Consumer warpgroups (WGMMA + epilogue) ========================
        setmaxnreg_inc<Config::kConsumerRegs>();
        griddep_wait();  // before the epilogue's global accesses
        const uint32_t warp_in_wg = warp_idx % 4;
        const bool wg_leader = (threadIdx.x % 128) == 0;
        const uint32_t my_order = bar_order + 8 * wg_idx;
        const uint32_t other_order = bar_order + 8 * (wg_idx ^ 1);
        // WG 1 takes the CTA's units 1, 3, 5, ...; WG 0 takes 0, 2, 4, ...
        Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, 1);
        if (wg_idx == 1) sched.skip();

        // Stage-0 descriptors; per stage / k-step / m-block only the start address changes.
        const uint64_t desc_a0 = make_smem_desc_sw128(smem_a, 0, 1024);
        const uint64_t desc_b0 = make_smem_desc_sw128(smem_b, kBKMajor ? 0 : BK * 128, 1024);

        auto release_stage = [&](uint32_t s) { release_stage_of<kCluster>(bar_empty + 8 * s, lane); };

        float acc[kMmaM][Mma::kNumAccum];
#pragma unroll
        for (int mt = 0; mt < kMmaM; ++mt)
#pragma unroll
            for (int i = 0; i < Mma::kNumAccum; ++i) acc[mt][i] = 0.0f;

        // Ring position of this WG's first unit: WG 1's starts after WG 0's first unit.
        uint32_t stage = 0, phase = 0;
        if (wg_idx == 1) ring_advance<kStages>(stage, phase, static_cast<uint32_t>(num_k_blocks));
        // WG 0's first wait passes at once (parity 1 on a fresh barrier); WG 1's first wait is
        // for WG 0's first arrival (phase 0).
        uint32_t order_phase = wg_idx ^ 1;
        uint32_t epi_buf = 0;
        int tile_m, tile_n, slice;
        while (sched.next(tile_m, tile_n, slice)) {
            const int m0 = (tile_m * Config::kClusterM + rank_m) * BM;
            const int n0 = (tile_n * Config::kClusterN + rank_n) * BN;
            const uint64_t desc_a = desc_advance(desc_a0, edge_row_bytes(m0, p.m, BM) / 16);  // the tile's rows in the stage
            const uint64_t desc_b = kBKMajor ? desc_advance(desc_b0, edge_row_bytes(n0, p.n, BN) / 16) : desc_b0;  // (N x K: its columns)

            // ---- Our turn on the tensor cores (the other WG has issued its previous unit) ----
            mbar_wait(my_order, order_phase);
            order_phase ^= 1;

            // ---- Main loop: one wgmma group in flight, release the previous stage ----
            uint32_t prev_stage = 0;
            for (int kb = 0; kb < num_k_blocks; ++kb) {
                // The stage's descriptors, then each k-step's and m-block's as compile-time offsets.
                const uint64_t desc_a_s = desc_advance(desc_a, stage * (Config::kSmemAStage / 16));
                const uint64_t desc_b_s = desc_advance(desc_b, stage * (Config::kSmemBStage / 16));
                mbar_wait(bar_full + 8 * stage, phase);
#pragma unroll
                for (int mt = 0; mt < kMmaM; ++mt)
#pragma unroll
                    for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[mt][i]);
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < BK / 16; ++kk) {
                    constexpr uint32_t kBStep = operand_k_step_bytes(kBKMajor);
                    const uint32_t b_units = operand_offset<Config::kSmemBStage, kBStep, BK / 64>(0, kk) / 16;
#pragma unroll
                    for (int mt = 0; mt < kMmaM; ++mt) {
                        // m-block mt: rows 64*mt.. of the K-major A stage (128 B per row)
                        Mma::mma(acc[mt], desc_advance(desc_a_s, (mt * 64 * 128 + kk * 32) / 16),
                                 desc_advance(desc_b_s, b_units), kb > 0 || kk > 0);
                    }
                }
                wgmma_commit();
#pragma unroll
                for (int mt = 0; mt < kMmaM; ++mt)
#pragma unroll
                    for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[mt][i]);
                wgmma_wait<1>();
                if (kb > 0) release_stage(prev_stage);
                prev_stage = stage;
                ring_advance<kStages>(stage, phase, 1);
            }
            // Every wgmma of this unit is issued (and every full[] wait done): hand the tensor
            // cores to the other WG, then drain ours and release the last stage.
            __syncwarp();
            if (lane == 0) mbar_arrive(other_order);
            wgmma_wait<0>();
#pragma unroll
            for (int mt = 0; mt < kMmaM; ++mt)
#pragma unroll
                for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[mt][i]);
            release_stage(prev_stage);
            // Skip the other WG's next unit, in the ring and in the scheduler.
            ring_advance<kStages>(stage, phase, static_cast<uint32_t>(num_k_blocks));
            sched.skip();

            // ---- Epilogue: registers -> swizzled smem chunk -> TMA store (own buffers) ----
#pragma unroll
            for (int mt = 0; mt < kMmaM; ++mt) {
                const int row_base = m0 + mt * 64;
                if (row_base >= p.m || n0 >= p.n) continue;  // warpgroup-uniform
                store_block<ElementD, BN, Config::kEpiCols, kEpiBufs, Config::kEpiBufBytes>(
                    p, &tma_d, acc[mt], row_base, n0, smem_d + wg_idx * kEpiBufs * Config::kEpiBufBytes,
                    epi_buf, 1 + wg_idx, wg_leader, static_cast<int>(warp_in_wg), static_cast<int>(lane));
            }
        }
        // The last TMA stores must have read their smem before the CTA exits.
        if (wg_leader) tma_store_wait<0>();
    }

    // A CTA must not exit while its peer may still arrive on its empty barriers.
    if constexpr (kCluster > 1) cluster_sync();
#else
    // Built for a target without WGMMA/TMA (anything but sm_90a): trap, as the cooperative kernel.
    __trap();
#endif
}

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
