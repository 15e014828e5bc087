// graphgemm: split-K GEMM kernel for bandwidth-bound shapes on Hopper (sm_90a): small M or a
// small M x N with a long K. "Split-K step 2" in docs/sm90_notes.md.
//
//   D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//
// Same semantics, kernel signature (tma_a, tma_b, tma_d, KernelParams) and KernelParams as the
// cooperative kernel (sm90_gemm.cuh), so the instance table and the graph layer treat it like any
// other instance. What differs:
//
//   * CTA = 1 consumer warpgroup (64 x BlockN WGMMA tile) + 1 producer warp (TMA), a deep ring
//     (7 stages of 24 KB for 64 x 128: ~170 KB in flight per SM, what a weight stream needs).
//   * K is cut into S = KernelParams::splits slices. The CTAs of one thread-block cluster
//     (CS = %cluster_nctarank in {1, 2, 4, 8}, chosen by the launcher: the largest of those that
//     divides S) work on the same output tile, one slice each: a cluster "unit" is (tile, group g),
//     g in [0, G), G = S / CS, and CTA rank r of the cluster runs slice s = g * CS + r.
//   * Cluster reduction through distributed shared memory: every CTA writes its fp32 accumulators
//     to its own exchange buffer (xbuf), the cluster meets on mbarriers, and rank r sums rows
//     [r * V / CS, (r + 1) * V / CS) of the V valid tile rows over the CS buffers, in rank order
//     0..CS-1 (ld.shared::cluster). No partial tile goes to global memory when G == 1.
//   * G > 1: rank r stores its summed rows (the cluster partial) to the workspace slot
//     [tile][g] and counts in on the counter of (tile, r) with an acq_rel atomic. The CTA that
//     arrives last (old value G - 1) sums the G cluster partials of those rows in the fixed order
//     g = 0..G-1 and applies the epilogue. Nobody ever waits on another cluster, so the kernel is
//     deadlock-free for any grid (co-resident or not) and any unit order.
//   * Deterministic bit for bit: the summation order (ranks 0..CS-1 inside a cluster, then groups
//     0..G-1) and the epilogue arithmetic depend only on (S, the element), never on timing or on
//     which CTA happens to arrive last.
//   * Counters (G > 1 only): tiles x 8 int32 at the start of the workspace, zeroed by the launch's
//     memset (LaunchArgs::memset_ptr / memset_bytes: a memset node in a graph). G == 1 needs no
//     workspace and no memset: one kernel node. See docs/sm90_notes.md for why a counter scheme
//     without any zeroing cannot be correct on a workspace that arrives with garbage.
//   * Persistent: cluster c walks units c, c + clusters, ... Every CTA of a cluster walks the same
//     sequence, so they always meet on the same unit.
//   * Programmatic dependent launch: griddepcontrol.wait precedes every global memory access, so
//     the launcher may set cudaLaunchAttributeProgrammaticStreamSerialization (opt-in, see
//     sm90_gemm_splitk_launch.cuh); without the attribute the instruction is a no-op.
//
// Shared-memory barriers (all in the CTA's own smem):
//   full[s], empty[s] : the TMA ring (producer <-> the 4 consumer warps), as in sm90_gemm.cuh.
//   xfull             : "every CTA of the cluster has written its xbuf for this unit"; count 4*CS:
//                       lane q < CS of each consumer warp of every CTA arrives on rank q's xfull
//                       (mbarrier.arrive.release.cluster) after its warp's stores.
//   xfree             : "every CTA of the cluster has finished reading my xbuf for this unit";
//                       count 4*CS, arrived on the same way after the reads. A CTA waits on it
//                       before overwriting xbuf in the next unit, and once more before exiting
//                       (peers read our shared memory until then).
// Both complete exactly one phase per unit, so unit number `it` of a CTA waits parity it & 1.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "sm90_gemm.cuh"  // kMaxDynamicSmem, load_bias, to_float, store_quad
#include "sm90_gemm_types.hpp"
#include "sm90_primitives.cuh"
#include "sm90_wgmma.cuh"

namespace graphgemm::kernels::sm90 {

// kSplitKMaxCluster, splitk_cluster_size, splitk_workspace_layout: sm90_gemm_types.hpp.

template <class ElementAB_, class ElementD_, int BlockN_, bool BKMajor_>
struct SplitKConfig {
    using ElementAB = ElementAB_;
    using ElementD = ElementD_;
    static constexpr int kBlockM = 64;
    static constexpr int kBlockN = BlockN_;
    static constexpr int kBlockK = 64;
    static constexpr bool kBKMajor = BKMajor_;
    // Fields the instance table reads for every config.
    static constexpr int kClusterM = 1, kClusterN = 1;  // the K cluster is a runtime choice
    static constexpr int kConsumerWGs = 1;
    static constexpr int kThreads = 128 + 32;  // consumer warpgroup + producer warp

    static constexpr int kSmemAStage = kBlockM * kBlockK * 2;
    static constexpr int kSmemBStage = kBlockN * kBlockK * 2;
    static constexpr int kStageBytes = kSmemAStage + kSmemBStage;
    // Exchange buffer: 64 rows of BlockN fp32, rows padded by 8 floats so that the accumulator
    // fragment stores (float2, rows l/4 of a half warp) hit distinct banks.
    static constexpr int kXStride = kBlockN + 8;  // floats
    static constexpr int kSmemX = kBlockM * kXStride * 4;
    static constexpr int kBarBytes = 256;
    static constexpr int kStages = (kMaxDynamicSmem - 1024 - kSmemX - kBarBytes) / kStageBytes;
    static constexpr int kOffA = 0;
    static constexpr int kOffB = kOffA + kStages * kSmemAStage;
    static constexpr int kOffX = kOffB + kStages * kSmemBStage;
    static constexpr int kOffBar = kOffX + kSmemX;
    static constexpr int kSmemBytes = kOffBar + kBarBytes + 1024;  // + alignment slack
    static constexpr int kEpiCols = 128 / static_cast<int>(sizeof(ElementD));  // tma_d box

    static constexpr int kBoxAInner = kBlockK, kBoxAOuter = kBlockM;
    static constexpr int kBoxBInner = 64;
    static constexpr int kBoxBOuter = kBKMajor ? kBlockN : kBlockK;

    static_assert(std::is_same_v<ElementAB, __nv_bfloat16> || std::is_same_v<ElementAB, __half>);
    static_assert(std::is_same_v<ElementD, __nv_bfloat16> || std::is_same_v<ElementD, __half> ||
                  std::is_same_v<ElementD, float>);
    static_assert(kBlockN == 64 || kBlockN == 128);
    static_assert(kStages >= 4);
    static_assert(2 * kStages * 8 + 16 + 16 <= kBarBytes);
    static_assert(kSmemBytes <= kMaxDynamicSmem, "shared memory budget exceeded");
    static_assert(kSmemAStage % 1024 == 0 && kSmemBStage % 1024 == 0, "swizzle atoms 1024B aligned");
};

namespace detail {

__device__ __forceinline__ uint32_t cluster_num_ctas() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}

// Arrive on the mbarrier at the same CTA-relative offset in cluster CTA `cta_rank`, with release
// semantics at cluster scope: this thread's prior memory accesses (and, cumulatively, those
// ordered before them by a warp/CTA barrier) are visible to whoever acquires the phase.
__device__ __forceinline__ void mbar_arrive_cluster_release(uint32_t bar, uint32_t cta_rank) {
    asm volatile(
        "{\n"
        ".reg .b32 remote_addr;\n"
        "mapa.shared::cluster.u32 remote_addr, %0, %1;\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote_addr];\n"
        "}\n" ::"r"(bar),
        "r"(cta_rank)
        : "memory");
}

__device__ __forceinline__ void fence_acq_rel_cluster() {
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
}

__device__ __forceinline__ uint32_t map_shared_rank(uint32_t addr, uint32_t cta_rank) {
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(cta_rank));
    return r;
}

__device__ __forceinline__ float4 ld_shared_cluster_f4(uint32_t addr) {
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}

__device__ __forceinline__ int atom_add_acq_rel_gpu(int* p, int v) {
    int old;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

// Programmatic dependent launch (no-ops when the launch did not ask for it).
__device__ __forceinline__ void grid_dependency_wait() {
    asm volatile("griddepcontrol.wait;" ::: "memory");
}
__device__ __forceinline__ void grid_dependents_launch() {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// Applies the epilogue to 4 summed accumulators of row gm, columns gn..gn+3 (gn % 4 == 0) and
// stores the ones < n. Same arithmetic, in the same order, as parallel_split_reduce.
template <class ElementD>
__device__ __forceinline__ void splitk_store_quad(const KernelParams& p, int gm, int gn, float4 sum) {
    float rs = p.alpha;
    if (p.scale_a != nullptr) rs *= p.scale_a[gm];
    float v[4] = {sum.x * rs, sum.y * rs, sum.z * rs, sum.w * rs};
    const bool has_c = p.c != nullptr && p.beta != 0.0f;
    const ElementD* c_ptr = static_cast<const ElementD*>(p.c);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        if (gn + i >= p.n) break;
        if (p.scale_b != nullptr) v[i] *= p.scale_b[gn + i];
        if (p.bias_type != 0) v[i] += load_bias(p.bias, p.bias_type, gn + i);
        if (has_c) v[i] += p.beta * to_float(c_ptr[static_cast<long long>(gm) * p.ldc + gn + i]);
    }
    store_quad<ElementD>(static_cast<ElementD*>(p.d) + static_cast<long long>(gm) * p.ldd + gn, gn, p.n, v);
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads, 1)
    sm90_gemm_splitk_kernel(const __grid_constant__ CUtensorMap tma_a,
                            const __grid_constant__ CUtensorMap tma_b,
                            const __grid_constant__ CUtensorMap tma_d, const KernelParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using ElementD = typename Config::ElementD;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kStages = Config::kStages;
    constexpr bool kBKMajor = Config::kBKMajor;
    constexpr int kXStride = Config::kXStride;
    constexpr int kQuads = BN / 4;
    using Mma = Wgmma<BN, std::is_same_v<typename Config::ElementAB, __nv_bfloat16>, kBKMajor ? 0 : 1>;
    (void)tma_d;  // D is stored with plain (vector) stores; tma_d is kept for the common signature

    extern __shared__ __align__(16) uint8_t smem_raw[];
    const uint32_t smem_base = (smem_u32(smem_raw) + 1023u) & ~1023u;
    const uint32_t smem_a = smem_base + Config::kOffA;
    const uint32_t smem_b = smem_base + Config::kOffB;
    const uint32_t xbuf = smem_base + Config::kOffX;
    const uint32_t bar_full = smem_base + Config::kOffBar;
    const uint32_t bar_empty = bar_full + 8 * kStages;
    const uint32_t bar_xfull = bar_empty + 8 * kStages;
    const uint32_t bar_xfree = bar_xfull + 8;
    const uint32_t last_flag = bar_xfree + 8;  // int: "this CTA arrived last" broadcast

    const uint32_t warp_idx = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t cs = cluster_num_ctas();   // CTAs per cluster: 1, 2, 4 or 8 (launcher)
    const uint32_t rank = cs > 1 ? cluster_cta_rank() : 0;
    const int groups = p.splits / static_cast<int>(cs);  // G; splits % cs == 0 (launcher)
    const int tiles_n = (p.n + BN - 1) / BN;
    const int num_tiles = ((p.m + 63) / 64) * tiles_n;
    const int num_units = num_tiles * groups;
    const int cluster_idx = static_cast<int>(blockIdx.x / cs);
    const int num_clusters = static_cast<int>(gridDim.x / cs);
    const int num_k_blocks = (p.k + BK - 1) / BK;
    const int kb_per_slice = num_k_blocks / p.splits;
    const int kb_extra = num_k_blocks - kb_per_slice * p.splits;

    if (threadIdx.x == 128) {
        tma_prefetch_descriptor(&tma_a);
        tma_prefetch_descriptor(&tma_b);
#pragma unroll 1
        for (int s = 0; s < kStages; ++s) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, 4);  // one arrival per consumer warp
        }
        mbar_init(bar_xfull, 4 * cs);
        mbar_init(bar_xfree, 4 * cs);
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    // NOTES: peers arrive on our xfull/xfree barriers: all of them must be initialised cluster-wide
    // before any CTA of the cluster can get that far.
    if (cs > 1) cluster_sync();
    else __syncthreads();

    // NOTES: PDL. Everything above touches only this CTA's shared memory and the kernel
    // parameters; from here on global memory is read (A, B, C, bias, scales, counters, partials)
    // and written, which the previous kernel in the stream may still be doing.
    grid_dependency_wait();

    if (warp_idx == 4) {
        // ======================== Producer warp (TMA) ========================
        if (lane == 0) {
            uint32_t stage = 0, phase = 0;
            for (int u = cluster_idx; u < num_units; u += num_clusters) {
                const int tile = u / groups, g = u - (u / groups) * groups;
                const int m0 = (tile / tiles_n) * 64, n0 = (tile % tiles_n) * BN;
                const int slice = g * static_cast<int>(cs) + static_cast<int>(rank);
                const int kb_begin = slice * kb_per_slice + min(slice, kb_extra);
                const int kb_end = kb_begin + kb_per_slice + (slice < kb_extra ? 1 : 0);
                for (int kb = kb_begin; kb < kb_end; ++kb) {
                    mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                    const uint32_t full = bar_full + 8 * stage;
                    // TMA delivers whole boxes (OOB zero-filled): full stage bytes on edge tiles.
                    mbar_arrive_expect_tx(full, Config::kStageBytes);
                    const int k0 = kb * BK;
                    const uint32_t sa = smem_a + stage * Config::kSmemAStage;
                    const uint32_t sb = smem_b + stage * Config::kSmemBStage;
                    tma_load_2d(sa, &tma_a, full, k0, m0);
                    if constexpr (kBKMajor) {
                        tma_load_2d(sb, &tma_b, full, k0, n0);  // BN rows of 64 k (128 B)
                    } else {
#pragma unroll
                        for (int c = 0; c < BN / 64; ++c)  // BN/64 chunks of 64 k-rows x 64 n
                            tma_load_2d(sb + c * (BK * 128), &tma_b, full, n0 + c * 64, k0);
                    }
                    if (++stage == kStages) {
                        stage = 0;
                        phase ^= 1;
                    }
                }
            }
        }
        __syncwarp();
    } else {
        // ======================== Consumer warpgroup ========================
        const uint32_t warp_in_wg = warp_idx;  // 0..3
        const int tid = static_cast<int>(threadIdx.x);  // 0..127
        const uint64_t desc_a0 = make_smem_desc_sw128(smem_a, 0, 1024);
        const uint64_t desc_b0 = make_smem_desc_sw128(smem_b, kBKMajor ? 0 : BK * 128, 1024);
        // Exchange buffers of every CTA of the cluster, as shared::cluster addresses.
        uint32_t xremote[kSplitKMaxCluster];
#pragma unroll
        for (int q = 0; q < kSplitKMaxCluster; ++q)
            xremote[q] = q < static_cast<int>(cs) ? map_shared_rank(xbuf, q) : 0u;
        volatile int* last_flag_ptr = reinterpret_cast<volatile int*>(
            smem_raw + (last_flag - smem_u32(smem_raw)));

        float acc[Mma::kNumAccum];
        uint32_t stage = 0, phase = 0;
        uint32_t it = 0;  // units done by this CTA
        for (int u = cluster_idx; u < num_units; u += num_clusters, ++it) {
            const int tile = u / groups, g = u - (u / groups) * groups;
            const int m0 = (tile / tiles_n) * 64, n0 = (tile % tiles_n) * BN;
            const int slice = g * static_cast<int>(cs) + static_cast<int>(rank);
            const int kb_begin = slice * kb_per_slice + min(slice, kb_extra);
            const int kb_end = kb_begin + kb_per_slice + (slice < kb_extra ? 1 : 0);

            // ---- Main loop (slices are never empty: splits <= k-blocks) ----
            uint32_t prev_stage = 0;
            for (int kb = kb_begin; kb < kb_end; ++kb) {
                mbar_wait(bar_full + 8 * stage, phase);
#pragma unroll
                for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < BK / 16; ++kk) {
                    const uint32_t a_off = stage * Config::kSmemAStage + kk * 32;
                    const uint32_t b_off = stage * Config::kSmemBStage + (kBKMajor ? kk * 32 : kk * 16 * 128);
                    Mma::mma(acc, desc_a0 + (a_off >> 4), desc_b0 + (b_off >> 4), kb > kb_begin || kk > 0);
                }
                wgmma_commit();
#pragma unroll
                for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
                wgmma_wait<1>();
                if (kb > kb_begin && lane == 0) mbar_arrive(bar_empty + 8 * prev_stage);
                prev_stage = stage;
                if (++stage == kStages) {
                    stage = 0;
                    phase ^= 1;
                }
            }
            wgmma_wait<0>();
#pragma unroll
            for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
            if (lane == 0) mbar_arrive(bar_empty + 8 * prev_stage);
            if (u + num_clusters >= num_units) grid_dependents_launch();  // our last unit

            // ---- Accumulators -> own exchange buffer ----
            // The cluster must have finished reading it (previous unit).
            if (it > 0) mbar_wait<true>(bar_xfree, (it - 1) & 1);
            {
                const int r0 = static_cast<int>(warp_in_wg) * 16 + static_cast<int>(lane / 4);
                const int c0 = 2 * static_cast<int>(lane % 4);
#pragma unroll
                for (int j = 0; j < BN / 8; ++j) {
                    const uint32_t a0 = xbuf + (r0 * kXStride + 8 * j + c0) * 4;
                    const uint32_t a1 = a0 + 8 * kXStride * 4;
                    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(a0), "f"(acc[4 * j + 0]),
                                 "f"(acc[4 * j + 1]) : "memory");
                    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(a1), "f"(acc[4 * j + 2]),
                                 "f"(acc[4 * j + 3]) : "memory");
                }
            }
            // NOTES: each thread's fence.acq_rel.cluster + __syncwarp order the warp's stores before
            // lane q's release.cluster arrive on rank q's xfull, which the readers acquire through
            // their xfull wait (belt and braces: the release alone is cumulative over __syncwarp).
            fence_acq_rel_cluster();
            __syncwarp();
            if (lane < cs) mbar_arrive_cluster_release(bar_xfull, lane);
            mbar_wait<true>(bar_xfull, it & 1);

            // ---- Cluster reduction of this rank's rows, in rank order ----
            const int valid_rows = min(64, p.m - m0);
            const int valid_quads = (min(BN, p.n - n0) + 3) / 4;
            const int row_lo = static_cast<int>(rank) * valid_rows / static_cast<int>(cs);
            const int row_hi = (static_cast<int>(rank) + 1) * valid_rows / static_cast<int>(cs);
            const int items = (row_hi - row_lo) * valid_quads;
            // NOTES: at most ceil(64 * 32 / 128) = 16 items per thread (CS = 1, BN = 128); the
            // sums stay in registers until every peer buffer has been released.
            constexpr int kMaxItems = (64 * kQuads + 127) / 128;
            float4 sums[kMaxItems];
#pragma unroll
            for (int i = 0; i < kMaxItems; ++i) {
                const int item = tid + i * 128;
                if (item < items) {
                    const int r = row_lo + item / valid_quads, c = (item % valid_quads) * 4;
                    const uint32_t off = (r * kXStride + c) * 4;
                    float4 s = ld_shared_cluster_f4(xremote[0] + off);
#pragma unroll
                    for (int q = 1; q < kSplitKMaxCluster; ++q) {  // constant indices: registers
                        if (q < static_cast<int>(cs)) {
                            const float4 x = ld_shared_cluster_f4(xremote[q] + off);
                            s.x += x.x, s.y += x.y, s.z += x.z, s.w += x.w;
                        }
                    }
                    sums[i] = s;
                }
            }
            // Done reading every peer's buffer: release them. The fence completes this thread's
            // remote loads before the arrive that lets a peer overwrite its buffer.
            fence_acq_rel_cluster();
            __syncwarp();
            if (lane < cs) mbar_arrive_cluster_release(bar_xfree, lane);

            if (groups == 1) {
                // ---- The cluster covers the whole K: epilogue straight from the sums ----
#pragma unroll
                for (int i = 0; i < kMaxItems; ++i) {
                    const int item = tid + i * 128;
                    if (item < items) {
                        const int r = row_lo + item / valid_quads, c = (item % valid_quads) * 4;
                        splitk_store_quad<ElementD>(p, m0 + r, n0 + c, sums[i]);
                    }
                }
            } else if (row_hi > row_lo) {  // CTA-uniform
                // ---- Cluster partial to the workspace; the last cluster to arrive reduces ----
                float* slots = p.partials + static_cast<long long>(tile) * groups * (64 * BN);
                float* mine = slots + static_cast<long long>(g) * (64 * BN);
#pragma unroll
                for (int i = 0; i < kMaxItems; ++i) {
                    const int item = tid + i * 128;
                    if (item < items) {
                        const int r = row_lo + item / valid_quads, c = (item % valid_quads) * 4;
                        __stcg(reinterpret_cast<float4*>(mine + r * BN + c), sums[i]);
                    }
                }
                // NOTES: bar.sync orders every consumer thread's partial stores before thread 0's
                // acq_rel atomic (release, cumulative); whoever reads G - 1 from the counter
                // acquires all G partials of these rows, and bar.sync passes that on to the other
                // threads of its CTA, which then read with ld.global.cg (L2, no stale L1 line).
                named_barrier_sync(1, 128);
                if (tid == 0) {
                    int* counter = p.counters + tile * kSplitKMaxCluster + static_cast<int>(rank);
                    *last_flag_ptr = atom_add_acq_rel_gpu(counter, 1) == groups - 1 ? 1 : 0;
                }
                named_barrier_sync(1, 128);
                const bool last = *last_flag_ptr != 0;
                if (last) {
#pragma unroll 1
                    for (int item = tid; item < items; item += 128) {
                        const int r = row_lo + item / valid_quads, c = (item % valid_quads) * 4;
                        const float* src = slots + r * BN + c;
                        float4 s = __ldcg(reinterpret_cast<const float4*>(src));
#pragma unroll 4
                        for (int gg = 1; gg < groups; ++gg) {
                            const float4 x = __ldcg(reinterpret_cast<const float4*>(src + gg * (64 * BN)));
                            s.x += x.x, s.y += x.y, s.z += x.z, s.w += x.w;
                        }
                        splitk_store_quad<ElementD>(p, m0 + r, n0 + c, s);
                    }
                }
                // NOTES: the flag is rewritten in this CTA's next unit only after another
                // bar.sync (above), which every thread reaches after its read here.
            }
        }
        // Peers read our exchange buffer until they arrive on xfree: wait for the last unit's
        // phase before the CTA may exit (its shared memory would be gone).
        if (it > 0) mbar_wait<true>(bar_xfree, (it - 1) & 1);
    }
#else
    __trap();
#endif
}

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
