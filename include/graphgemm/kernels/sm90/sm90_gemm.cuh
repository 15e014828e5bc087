// graphgemm: warp-specialized persistent TMA + WGMMA GEMM for Hopper (sm_90a).
//
//   D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc    = sum_k A[m,k] * B[k,n]  (bf16/fp16 in, fp32 accumulate)
//
// Structure (one kernel, every setting a template parameter of GemmConfig):
//   * WG 0 .. kConsumerWGs-1 : consumers. Each owns 64 rows of the BlockM x BlockN tile and issues
//                              wgmma.m64nBlockNk16 on a kStages ring of A/B shared memory stages.
//   * WG kConsumerWGs        : producer. One thread issues TMA loads into the ring.
//   * full[s]  : producer -> consumers, 1 arrival (arrive.expect_tx) + the TMA transaction bytes.
//   * empty[s] : consumers -> producers of every CTA in the cluster, one arrival per consumer warp
//                per CTA (a stage of CTA X is also written by its peer's multicast).
//   * Epilogue : registers -> swizzled smem chunk (64 rows x 128 B; stmatrix for 16-bit D) -> TMA
//                store, double-buffered per consumer WG (single where two leave no room: kEpiBufs).
//                The D staging buffers are separate from the ring, so the producer keeps
//                prefetching the next tile while the epilogue runs.
//   * Persistent: grid = clusters x cluster size; tiles (M and N from KernelParams) are walked by
//                TileScheduler, so the grid is independent of M.
//   * Cluster (ClusterM x ClusterN: 1x1, 2x1, 1x2 or 2x2): the CTAs of a cluster with the same
//                rank along M share the A tile, those with the same rank along N the B tile (2x1:
//                B, 1x2: A, 2x2: both); each CTA loads half of a shared box and multicasts it to
//                the two CTAs that share it. Cluster rank r is (r % ClusterM, r / ClusterM).
//   * Split-K (KernelParams::splits > 1, see SplitMode): a work unit is (tile, K slice). After its
//                main loop a unit either hands its fp32 accumulators on through the workspace
//                (serial: running sum under a per-tile semaphore; parallel: its own partial slot
//                and an arrival counter) or, the last serial slice, runs the normal epilogue. In
//                parallel mode every CTA then reduces a share of the output rows
//                (parallel_split_reduce). splits == 1 runs exactly the unsplit path.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "sm90_gemm_types.hpp"
#include "sm90_primitives.cuh"
#include "sm90_tile_scheduler.cuh"
#include "sm90_wgmma.cuh"

namespace graphgemm::kernels::sm90 {

inline constexpr int kMaxDynamicSmem = 232448;  // 227 KB opt-in limit on sm_90

// The dynamic shared memory carve-up: the tiles from a 1024-byte aligned base (128B-swizzle atoms,
// TMA and the wgmma descriptors with base_offset 0; the base is only guaranteed 16-byte aligned, so
// the round-up pads 0..1008 bytes), then the mbarriers after the tiles: tiles + bars + 1024 bytes.
// Where that does not fit (128x112 in 7 stages), the barriers go in the round-up's pad when it has
// room for them, else after the tiles: everything then ends within tiles + kSmemAlignPad bytes
// (pad p < bar_bytes: p + tiles + bar_bytes <= tiles + 2 * bar_bytes - 16; else p + tiles <= tiles
// + 1008), 112 bytes less at 7 stages of 128x112. The peers of a cluster run the same kernel with
// the same size, hence the same carve-up: their multicasts and remote arrivals address our tiles
// and barriers by their own offsets.
inline constexpr int kSmemAlignPad = 1008;
constexpr bool smem_bars_after_tiles(int tile_bytes, int bar_bytes) {
    return tile_bytes + bar_bytes + 1024 <= kMaxDynamicSmem;
}
constexpr int smem_bytes(int tile_bytes, int bar_bytes) {
    return smem_bars_after_tiles(tile_bytes, bar_bytes) ? tile_bytes + bar_bytes + 1024 : tile_bytes + kSmemAlignPad;
}
constexpr bool smem_carve_fits(int bar_bytes) { return bar_bytes % 8 == 0 && 2 * bar_bytes - 16 <= kSmemAlignPad; }

template <int kTileBytes, int kBarBytes>
struct SmemCarve {
    uint32_t base;  // 1024-byte aligned: the tiles
    uint32_t bars;  // 8-byte aligned: kBarBytes of mbarriers
    __device__ __forceinline__ explicit SmemCarve(uint32_t raw) : base((raw + 1023u) & ~1023u) {
        if constexpr (smem_bars_after_tiles(kTileBytes, kBarBytes)) bars = base + kTileBytes;
        else bars = base - raw >= static_cast<uint32_t>(kBarBytes) ? raw : base + kTileBytes;
    }
};

template <class ElementAB_, class ElementD_, int BlockM_, int BlockN_, int Stages_, int ClusterM_,
          int ClusterN_, bool BKMajor_>
struct GemmConfig {
    using ElementAB = ElementAB_;
    using ElementD = ElementD_;
    static constexpr int kBlockM = BlockM_;
    static constexpr int kBlockN = BlockN_;
    static constexpr int kBlockK = 64;  // one 128-byte swizzle atom of 16-bit elements
    static constexpr int kStages = Stages_;
    static constexpr int kClusterM = ClusterM_;
    static constexpr int kClusterN = ClusterN_;
    static constexpr int kClusterSize = ClusterM_ * ClusterN_;
    static constexpr bool kBKMajor = BKMajor_;
    // Whether the kernel has the split-K, stream-K and cluster-sum paths (see UnsplitConfig), and
    // whether an unsplit twin without them is instantiated beside it: the small-M tile, whose
    // launches are short enough for the fixed costs to matter.
    static constexpr bool kSplitK = true;
    static constexpr bool kUnsplitTwin = kBlockM == 64;

    static constexpr int kConsumerWGs = kBlockM / 64;
    static constexpr int kThreads = (kConsumerWGs + 1) * 128;
    // Parallel split-K summed within clusters of 2, 4 or 8 CTAs (KernelParams::split_cluster):
    // kernels without a cluster of their own, BN <= 128 (wider tiles spill registers in the
    // reduction: 128x256 fp32 out, 16 bytes), whose reduction gives every consumer thread whole
    // 4-column quads of its rank's BM / C rows at C = 8 (sum_cluster_rows; so at C = 2 and 4 too):
    // not 128x96.
    static constexpr bool kSplitCluster =
        kClusterSize == 1 && kBlockN <= 128 && (kBlockM / 8) * (kBlockN / 4) % (kConsumerWGs * 128) == 0;
    // NOTES: 40 * 128 + 232 * 256 = 64512 <= 65536 registers per SM for the 3-WG kernel.
    static constexpr int kProducerRegs = 40;
    static constexpr int kConsumerRegs = kConsumerWGs == 2 ? 232 : 240;

    // Shared memory carve-up (offsets from a 1024-byte aligned base)
    static constexpr int kSmemAStage = kBlockM * kBlockK * 2;
    static constexpr int kSmemBStage = kBlockN * kBlockK * 2;
    static constexpr int kStageBytes = kSmemAStage + kSmemBStage;
    static constexpr int kEpiCols = 128 / static_cast<int>(sizeof(ElementD));  // cols per chunk
    static constexpr int kEpiBufBytes = 64 * 128;                               // 64 rows x 128 B
    static constexpr int kOffA = 0;
    static constexpr int kOffB = kOffA + kStages * kSmemAStage;
    static constexpr int kOffD = kOffB + kStages * kSmemBStage;
    static constexpr int kBarBytes = 2 * kStages * 8;
    // D staging buffers per consumer warpgroup: two (a chunk is staged while the previous one's
    // store reads its buffer), one where two leave no room for the stages (128x112 in 7 stages,
    // the stage count cuBLASLt runs there: each chunk then waits for the previous store's read).
    static constexpr int kEpiBufs = smem_bytes(kOffD + kConsumerWGs * 2 * kEpiBufBytes, kBarBytes) <= kMaxDynamicSmem ? 2 : 1;
    static constexpr int kSmemD = kConsumerWGs * kEpiBufs * kEpiBufBytes;
    static constexpr int kOffBar = kOffD + kSmemD;  // the tiles' end (SmemCarve places the barriers)
    static constexpr int kSmemBytes = smem_bytes(kOffBar, kBarBytes);
    static_assert(kOffBar - kOffB >= (kBlockM - 1) * 128, "a shifted A tile's rows past M stay in the tiles (edge_box_row)");
    static_assert(!kBKMajor || kOffBar - (kOffD - kSmemBStage) >= (2 * kBlockN - 1) * 128,
                  "a shifted B tile's rows past N stay in the tiles (edge_box_row)");

    // TMA boxes {inner, outer}; a multicast (shared) operand is split in halves between the two
    // CTAs that share it.
    static constexpr bool kMulticastA = kClusterN == 2;
    static constexpr bool kMulticastB = kClusterM == 2;
    static constexpr int kBoxAInner = kBlockK;
    static constexpr int kBoxAOuter = kMulticastA ? kBlockM / 2 : kBlockM;
    static constexpr int kBoxBInner = 64;  // K (K-major) or N (N-major): 128 bytes either way
    static constexpr int kBoxBOuter =
        kBKMajor ? (kMulticastB ? kBlockN / 2 : kBlockN) : (kMulticastB ? kBlockK / 2 : kBlockK);

    static_assert(std::is_same_v<ElementAB, __nv_bfloat16> || std::is_same_v<ElementAB, __half>);
    static_assert(std::is_same_v<ElementD, __nv_bfloat16> || std::is_same_v<ElementD, __half> ||
                  std::is_same_v<ElementD, float>);
    static_assert(kBlockM == 64 || kBlockM == 128, "each consumer warpgroup owns 64 rows");
    // BN a multiple of 64, or (136, 176: N = 2112) of 8 with B stored N x K (a K-major B box of BN
    // rows; an N-major one is 64 columns wide); the epilogue's last chunk is then partial.
    static_assert((kBlockN % 64 == 0 || (kBlockN % 8 == 0 && kBKMajor)) && kBlockN >= 64 && kBlockN <= 256);
    static_assert(kClusterM <= 2 && kClusterN <= 2, "clusters 1x1, 2x1, 1x2 or 2x2");
    static_assert(kBoxAOuter % 8 == 0 && kBoxBOuter % 8 == 0, "multicast halves: 1024B aligned");
    static_assert(kStages >= 2);
    static_assert(kSmemBytes <= kMaxDynamicSmem, "shared memory budget exceeded");
    static_assert(smem_carve_fits(kBarBytes), "barriers too large for SmemCarve's placement");
};

// The same kernel without its split-K, stream-K and cluster-sum paths: launched instead of the
// full one for unsplit work (Gemm<Config>::make_launch_args picks it; Config::kUnsplitTwin says
// which configurations have one).
// NOTES: the epilogue of a small GEMM runs once per CTA, from a cold instruction cache; the full
// 64x128 kernel is ~28 000 SASS instructions against ~4 400 without these paths and the epilogue
// kinds, and the lean build measured 0.5-0.6 us faster per launch with a plain epilogue and
// 1.0-1.2 us with bias and scale_a (tools/diag/sm90_trace, H100, M = 16..256, N = K = 512;
// session 11 in docs/sm90_notes.md).
template <class Config>
struct UnsplitConfig : Config {
    static constexpr bool kSplitK = false;
    static constexpr bool kSplitCluster = false;
};

// Largest stage count that fits the shared memory budget with two D staging buffers per consumer
// warpgroup (GemmConfig's layout; one buffer can leave room for one more: kEpiBufs).
template <class ElementD, int BlockM, int BlockN>
constexpr int max_stages() {
    int s = 1;
    while (smem_bytes((s + 1) * (BlockM + BlockN) * 64 * 2 + (BlockM / 64) * 2 * 64 * 128, 2 * (s + 1) * 8) <= kMaxDynamicSmem) ++s;
    return s;
}

namespace detail {

// Diagnostics only: with GRAPHGEMM_SM90_TRACE defined before this header (tools/diag/sm90_trace.cu,
// never the library), the cooperative kernel (and the swap-AB one: events 0-5, 7, 11, 12) records
// per-CTA event times (%globaltimer, ns) into g_sm90_trace[blockIdx.x][event] and the CTA's SM into
// [16]; otherwise GRAPHGEMM_TRACE compiles to nothing. Events:
// 0 entry, 1 barriers initialised, 2 first TMA issued, 3 first stage arrived, 4 last main loop
// done, 5 last unit handed off / stored, 6 split-K reduction done, 7 stores drained (exit); inside
// the epilogue of a tile (chunk 0, last tile): 8 buffer free, 9 chunk staged in smem, 10 TMA store
// issued; programmatic launch: 11 the previous grid done (griddep_wait returned in the producer),
// 12 the next grid let launch; cluster split-K sums: 13 partial in smem, 14 rows summed (and stored),
// 15 every peer done; stream-K (no cluster sums): 13 the first shared unit's main loop begins, 14 it
// ends. And the producers' k-block issue times (trace_kb).
#ifdef GRAPHGEMM_SM90_TRACE
__device__ unsigned long long g_sm90_trace[1024][17];  // [16]: the SM the CTA ran on (%smid)
// Records slot e of this CTA's row of `table` (and, at e = 0, its SM in [16]).
__device__ __forceinline__ void trace_event_to(unsigned long long (*table)[17], int e) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (blockIdx.x < 1024) {
        table[blockIdx.x][e] = t;
        if (e == 0) {
            unsigned sm;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            table[blockIdx.x][16] = sm;
        }
    }
}
__device__ __forceinline__ void trace_event(int e) { trace_event_to(g_sm90_trace, e); }
// k-block issue times of a CTA's first work unit (the producer, every kKbTraceStride-th k-block):
// g_sm90_kb_trace[blockIdx.x] = {m0, n0, t(kb_begin), t(kb_begin + stride), ...}: how far apart in
// time the CTAs that read the same operand tile issue its loads (sm90_trace SM90_TRACE_KB=FILE).
constexpr int kKbTraceStride = 8;
constexpr int kKbTraceSlots = 64;
__device__ unsigned long long g_sm90_kb_trace[1024][2 + kKbTraceSlots];
__device__ __forceinline__ void trace_kb(int i, int m0, int n0) {
    if (blockIdx.x >= 1024 || i % kKbTraceStride != 0 || i / kKbTraceStride >= kKbTraceSlots) return;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (i == 0) g_sm90_kb_trace[blockIdx.x][0] = static_cast<unsigned>(m0), g_sm90_kb_trace[blockIdx.x][1] = static_cast<unsigned>(n0);
    g_sm90_kb_trace[blockIdx.x][2 + i / kKbTraceStride] = t;
}
#define GRAPHGEMM_TRACE(cond, e) \
    do {                         \
        if (cond) trace_event(e); \
    } while (0)
// Records event e the first time only (a per-thread flag named by the caller).
#define GRAPHGEMM_TRACE_ONCE(flag, cond, e) \
    do {                                    \
        if (!(flag) && (cond)) {            \
            trace_event(e);                 \
            flag = true;                    \
        }                                   \
    } while (0)
#else
#define GRAPHGEMM_TRACE(cond, e) ((void)0)
#define GRAPHGEMM_TRACE_ONCE(flag, cond, e) ((void)0)
#endif

__device__ __forceinline__ float load_bias(const void* bias, int type, int idx) {
    switch (type) {
        case static_cast<int>(BiasType::bf16):
            return __bfloat162float(static_cast<const __nv_bfloat16*>(bias)[idx]);
        case static_cast<int>(BiasType::fp16):
            return __half2float(static_cast<const __half*>(bias)[idx]);
        case static_cast<int>(BiasType::fp32):
            return static_cast<const float*>(bias)[idx];
        default:
            return 0.0f;
    }
}

template <class T>
__device__ __forceinline__ float to_float(T v) {
    if constexpr (std::is_same_v<T, float>) return v;
    else if constexpr (std::is_same_v<T, __half>) return __half2float(v);
    else return __bfloat162float(v);
}

// Byte address of output element (row r, column cc) in a 64 x 128-byte staging chunk whose
// 16-byte unit u of row r lives at unit (u ^ (r % 8)) (the 128B swizzle TMA expects).
template <class ElementD>
__device__ __forceinline__ uint32_t staged_address(uint32_t buf, int r, int cc) {
    const uint32_t byte = static_cast<uint32_t>(cc) * sizeof(ElementD);
    return buf + r * 128 + ((((byte >> 4) ^ static_cast<uint32_t>(r & 7)) << 4) | (byte & 15));
}

template <class ElementD>
__device__ __forceinline__ ElementD load_staged(uint32_t buf, int r, int cc) {
    ElementD v;
    const uint32_t addr = staged_address<ElementD>(buf, r, cc);
    if constexpr (sizeof(ElementD) == 4) {
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(*reinterpret_cast<uint32_t*>(&v)) : "r"(addr) : "memory");
    } else {
        asm volatile("ld.shared.b16 %0, [%1];" : "=h"(*reinterpret_cast<unsigned short*>(&v)) : "r"(addr) : "memory");
    }
    return v;
}

// Two adjacent 16-bit output values packed into one 32-bit register (x0 in the low half).
template <class ElementD>
__device__ __forceinline__ uint32_t pack_pair(float x0, float x1) {
    static_assert(sizeof(ElementD) == 2);
    uint32_t packed;
    if constexpr (std::is_same_v<ElementD, __half>) {
        __half2 h = __floats2half2_rn(x0, x1);
        packed = *reinterpret_cast<uint32_t*>(&h);
    } else {
        __nv_bfloat162 h = __floats2bfloat162_rn(x0, x1);
        packed = *reinterpret_cast<uint32_t*>(&h);
    }
    return packed;
}

// Staging a 16-bit chunk with stmatrix: column steps jj and jj + 1 (8 columns each, 16-byte unit
// jj and jj + 1 of a row) of a warp's 16 rows are four 8x8 matrices (rows 0-7 / 8-15 of step jj,
// then of step jj + 1), whose registers are the accumulator pairs of the wgmma fragment as they
// are. Lane l addresses row l % 8 + 8 ((l / 8) % 2) of the warp's rows at unit jj + l / 16; with
// the 128B swizzle (unit u of row r at u ^ (r % 8)) and jj even that is the lane's offset below
// XOR (jj << 4), so the per-lane address is computed once per block (the buffers are 1024-byte
// aligned: the XOR touches only the unit bits).
__device__ __forceinline__ uint32_t stmatrix_lane_offset(int warp_in_wg, int lane) {
    const int row = warp_in_wg * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
    return static_cast<uint32_t>(row * 128 + (((lane >> 4) ^ (lane & 7)) << 4));
}

// Stores 4 consecutive outputs of one row (columns gn..gn+3 of D, gn % 4 == 0); only those < n.
template <class ElementD>
__device__ __forceinline__ void store_quad(ElementD* d, int gn, int n, const float (&v)[4]) {
    if (gn + 3 < n) {  // 8 (16-bit) or 16 (fp32) bytes, aligned: D and ldd are 16-byte aligned
        if constexpr (std::is_same_v<ElementD, float>) {
            *reinterpret_cast<float4*>(d) = make_float4(v[0], v[1], v[2], v[3]);
        } else {
            uint2 packed;
            if constexpr (std::is_same_v<ElementD, __half>) {
                __half2 h0 = __floats2half2_rn(v[0], v[1]), h1 = __floats2half2_rn(v[2], v[3]);
                packed = make_uint2(*reinterpret_cast<uint32_t*>(&h0), *reinterpret_cast<uint32_t*>(&h1));
            } else {
                __nv_bfloat162 h0 = __floats2bfloat162_rn(v[0], v[1]), h1 = __floats2bfloat162_rn(v[2], v[3]);
                packed = make_uint2(*reinterpret_cast<uint32_t*>(&h0), *reinterpret_cast<uint32_t*>(&h1));
            }
            *reinterpret_cast<uint2*>(d) = packed;
        }
    } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            if (gn + i >= n) break;
            if constexpr (std::is_same_v<ElementD, float>) d[i] = v[i];
            else if constexpr (std::is_same_v<ElementD, __half>) d[i] = __float2half_rn(v[i]);
            else d[i] = __float2bfloat16_rn(v[i]);
        }
    }
}

// A per-column vector (BiasType kType: bf16, fp16 or fp32) at columns gc, gc + 1 of every column
// step of a chunk (gc = col_base + 8 * step + 2 * (lane % 4), as in stage_chunk), as float, 0 past
// N; loads only, all issued before any is used. Where the chunk lies inside N and the vector is
// aligned for a thread's two adjacent columns (4 bytes for 16-bit types, 8 for fp32; gc is even),
// one load per step; else element by element with bounds checks.
// NOTES: the element-by-element form (two 2-byte loads, two checks, two conversions per step) made
// staging a bias chunk cost ~1 us on a small launch (256x512x512: 6.65 us per launch with a bf16
// bias against 5.30 without; 5.61 with one 4-byte load per step; tools/diag/sm90_trace, session 11).
template <int kType, int kSteps>
__device__ __forceinline__ void load_chunk_columns(const void* vec, int n, int col_base, int lane,
                                                   float (&out)[kSteps][2]) {
    const int c0 = col_base + 2 * (lane % 4);
    constexpr uintptr_t kPairBytes = kType == static_cast<int>(BiasType::fp32) ? 8 : 4;
    if (reinterpret_cast<uintptr_t>(vec) % kPairBytes == 0 && col_base + 8 * kSteps <= n) {  // uniform
        if constexpr (kType == static_cast<int>(BiasType::fp32)) {
            const float2* v = reinterpret_cast<const float2*>(static_cast<const float*>(vec) + c0);
            float2 w[kSteps];
#pragma unroll
            for (int jj = 0; jj < kSteps; ++jj) w[jj] = v[4 * jj];  // a step is 8 columns: 4 float2
#pragma unroll
            for (int jj = 0; jj < kSteps; ++jj) out[jj][0] = w[jj].x, out[jj][1] = w[jj].y;
        } else {
            const uint32_t* v = reinterpret_cast<const uint32_t*>(static_cast<const uint16_t*>(vec) + c0);
            uint32_t w[kSteps];
#pragma unroll
            for (int jj = 0; jj < kSteps; ++jj) w[jj] = v[4 * jj];  // a step is 8 columns: 4 words
#pragma unroll
            for (int jj = 0; jj < kSteps; ++jj) {
                if constexpr (kType == static_cast<int>(BiasType::bf16)) {
                    out[jj][0] = __uint_as_float(w[jj] << 16);
                    out[jj][1] = __uint_as_float(w[jj] & 0xffff0000u);
                } else {
                    const float2 f = __half22float2(*reinterpret_cast<const __half2*>(&w[jj]));
                    out[jj][0] = f.x, out[jj][1] = f.y;
                }
            }
        }
        return;
    }
#pragma unroll
    for (int jj = 0; jj < kSteps; ++jj) {
        const int gc = c0 + 8 * jj;
        out[jj][0] = gc < n ? load_bias(vec, kType, gc) : 0.0f;
        out[jj][1] = gc + 1 < n ? load_bias(vec, kType, gc + 1) : 0.0f;
    }
}

// Stage-chunk kind of the general epilogue (scale_b and / or beta * C; bias of any type).
inline constexpr int kGeneralEpilogue = -1;

// The D values of one epilogue chunk (its first kWidth columns: kCols unless the tile's last) from
// the accumulators: v[step] holds row r0's columns cc, cc + 1 (0, 1) and row r0 + 8's (2, 3), cc =
// 8 * step + 2 * (lane % 4), the wgmma fragment's places. kKind 0..3:
// no scale_b and no C, bias of BiasType kKind (0: none) -- the common cases, each instantiation
// holding only its own code; kGeneralEpilogue: scale_b, beta * C and the bias each as the
// arguments say (warpgroup-uniform checks), the bias type switched once per chunk.
// The chunk's column operands (bias, scale_b) and C are all loaded before any value is combined
// and staged: one memory round trip per chunk, not one per column step (each staging store is an
// asm statement with a memory clobber, which no load may cross).
// NOTES: the epilogue runs once per tile, so its code is cold in the instruction cache; with the
// scale_b / bias / C code inline in every unrolled column step, the plain case fetched and issued
// it all (predicated off) and a 64x128 tile's epilogue took ~1.9 us on H100 (tools/diag/sm90_trace:
// 0.7 us of it staging chunk 0; 0.83 us with that code compiled out). Separate instantiations behind
// one warpgroup-uniform switch fetch only the path taken. And with the bias type switched per
// element (a jump table per load) and the loads between the stores, the general epilogue (bias,
// scale_a, scale_b) took 8.4 us more than the plain one on a 256x512x512 launch (13.7 against
// 5.3 us; session 11).
template <int kKind, class ElementD, int kCols, int kWidth, int kNumAccum>
__device__ __forceinline__ void chunk_values(const KernelParams& p, const float (&acc)[kNumAccum], int chunk,
                                             int col_base, int lane, int g_r0, int g_r1, float rs0, float rs1,
                                             bool has_c, const ElementD* c_ptr, float (&v)[kWidth / 8][4]) {
    constexpr int kSteps = kWidth / 8;  // the chunk's first kWidth columns (kCols unless the tile's last)
    constexpr bool kGeneral = kKind == kGeneralEpilogue;
    [[maybe_unused]] const bool has_scale_b = kGeneral && p.scale_b != nullptr;
    [[maybe_unused]] const bool has_bias = kGeneral ? p.bias_type != 0 : kKind != 0;
    [[maybe_unused]] float col_mul[kSteps][2], col_add[kSteps][2], c_val[kSteps][4];
    if constexpr (kKind > 0) {
        load_chunk_columns<kKind>(p.bias, p.n, col_base, lane, col_add);
    } else if constexpr (kGeneral) {
        switch (p.bias_type) {  // once per chunk
            case static_cast<int>(BiasType::bf16): load_chunk_columns<1>(p.bias, p.n, col_base, lane, col_add); break;
            case static_cast<int>(BiasType::fp16): load_chunk_columns<2>(p.bias, p.n, col_base, lane, col_add); break;
            case static_cast<int>(BiasType::fp32): load_chunk_columns<3>(p.bias, p.n, col_base, lane, col_add); break;
            default: break;  // no bias: col_add unused
        }
        if (has_scale_b) load_chunk_columns<static_cast<int>(BiasType::fp32)>(p.scale_b, p.n, col_base, lane, col_mul);
#pragma unroll
        for (int jj = 0; jj < kSteps; ++jj) {
            const int gc = col_base + 8 * jj + 2 * (lane % 4);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int r = e < 2 ? g_r0 : g_r1, c = gc + (e & 1);
                c_val[jj][e] = has_c && r < p.m && c < p.n ? to_float(c_ptr[static_cast<long long>(r) * p.ldc + c]) : 0.0f;
            }
        }
    }
#pragma unroll
    for (int jj = 0; jj < kSteps; ++jj) {
        const int j = chunk * (kCols / 8) + jj;
        float v0 = acc[4 * j + 0] * rs0, v1 = acc[4 * j + 1] * rs0;
        float v2 = acc[4 * j + 2] * rs1, v3 = acc[4 * j + 3] * rs1;
        // The same operations in the same order as before the loads were batched (no *1 or +0 for
        // absent operands).
        if constexpr (kGeneral) {
            if (has_scale_b) v0 *= col_mul[jj][0], v1 *= col_mul[jj][1], v2 *= col_mul[jj][0], v3 *= col_mul[jj][1];
        }
        if constexpr (kKind != 0) {
            if (has_bias) v0 += col_add[jj][0], v1 += col_add[jj][1], v2 += col_add[jj][0], v3 += col_add[jj][1];
        }
        if constexpr (kGeneral) {
            if (has_c) {
                if (g_r0 < p.m) v0 += p.beta * c_val[jj][0], v1 += p.beta * c_val[jj][1];
                if (g_r1 < p.m) v2 += p.beta * c_val[jj][2], v3 += p.beta * c_val[jj][3];
            }
        }
        v[jj][0] = v0, v[jj][1] = v1, v[jj][2] = v2, v[jj][3] = v3;
    }
}

// A 16-bit chunk's values (chunk_values) as packed pairs: [step][0] row r0, [step][1] row r0 + 8.
template <class ElementD, int kSteps>
__device__ __forceinline__ void pack_chunk(const float (&v)[kSteps][4], uint32_t* packed) {
#pragma unroll
    for (int jj = 0; jj < kSteps; ++jj) {
        packed[2 * jj + 0] = pack_pair<ElementD>(v[jj][0], v[jj][1]);
        packed[2 * jj + 1] = pack_pair<ElementD>(v[jj][2], v[jj][3]);
    }
}

// A 16-bit chunk's packed pairs (pack_chunk) into its staging buffer: one stmatrix per two column
// steps at stsm_addr, the buffer plus the lane's stmatrix_lane_offset.
template <int kSteps>
__device__ __forceinline__ void stmatrix_chunk(uint32_t stsm_addr, const uint32_t* packed) {
#pragma unroll
    for (int jj = 0; jj + 1 < kSteps; jj += 2) {
        stmatrix_x4(stsm_addr ^ static_cast<uint32_t>(jj << 4), packed[2 * jj], packed[2 * jj + 1],
                    packed[2 * jj + 2], packed[2 * jj + 3]);
    }
    if constexpr (kSteps % 2 == 1) {
        stmatrix_x2(stsm_addr ^ static_cast<uint32_t>((kSteps - 1) << 4), packed[2 * (kSteps - 1)],
                    packed[2 * (kSteps - 1) + 1]);
    }
}

// One chunk of the epilogue into its staging buffer (chunk_values; 16-bit D: packed, then
// stmatrix_chunk; fp32 D: one st.shared.v2 per pair).
template <int kKind, class ElementD, int kCols, int kWidth, int kNumAccum>
__device__ __forceinline__ void stage_chunk(const KernelParams& p, const float (&acc)[kNumAccum], int chunk,
                                            int col_base, uint32_t buf, uint32_t stsm_addr, int r0, int lane,
                                            int g_r0, int g_r1, float rs0, float rs1, bool has_c,
                                            const ElementD* c_ptr) {
    constexpr int kSteps = kWidth / 8;
    float v[kSteps][4];
    chunk_values<kKind, ElementD, kCols, kWidth>(p, acc, chunk, col_base, lane, g_r0, g_r1, rs0, rs1, has_c, c_ptr, v);
    if constexpr (sizeof(ElementD) == 2) {  // see stmatrix_lane_offset
        uint32_t packed[2 * kSteps];
        pack_chunk<ElementD>(v, packed);
        stmatrix_chunk<kSteps>(stsm_addr, packed);
    } else {
#pragma unroll
        for (int jj = 0; jj < kSteps; ++jj) {
            const int cc = 8 * jj + 2 * (lane % 4);
            st_shared_f32x2(staged_address<ElementD>(buf, r0, cc), v[jj][0], v[jj][1]);
            st_shared_f32x2(staged_address<ElementD>(buf, r0 + 8, cc), v[jj][2], v[jj][3]);
        }
    }
}

// Plain stores of columns [first, last) of a staged 64-row chunk (128B-swizzled, see store_pair)
// at D's column col_base, rows below M only; first lies on a 16-byte unit, col_base + last <= N.
// Whole units are one 16-byte store each (the swizzle moves whole units; D, ldd and every chunk's
// column base are 16-byte aligned), a unit cut by `last` goes element by element. The consumer
// warpgroup's 128 threads share the units.
template <class ElementD>
__device__ __forceinline__ void store_staged_columns(const KernelParams& p, uint32_t buf, int row_base, int col_base,
                                                     int first, int last) {
    constexpr int kUnitElems = 16 / static_cast<int>(sizeof(ElementD));
    const int u0 = first / kUnitElems, units = (last + kUnitElems - 1) / kUnitElems - u0;
    ElementD* d_ptr = static_cast<ElementD*>(p.d);
    for (int idx = static_cast<int>(threadIdx.x % 128); idx < 64 * units; idx += 128) {
        const int r = idx / units, cc = (u0 + idx % units) * kUnitElems;
        if (row_base + r >= p.m) continue;
        ElementD* dst = d_ptr + static_cast<long long>(row_base + r) * p.ldd + col_base + cc;
        if (cc + kUnitElems <= last) {
            uint4 v;
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "r"(staged_address<ElementD>(buf, r, cc))
                         : "memory");
            *reinterpret_cast<uint4*>(dst) = v;
        } else {
            for (int e = 0; cc + e < last; ++e) dst[e] = load_staged<ElementD>(buf, r, cc + e);
        }
    }
}

// One chunk's trip to D, in two halves (store_chunk: both). stage_chunk_into: wait until the store
// issued from the next staging buffer kBufs chunks ago has read it, then stage(buf) writes the
// chunk into it. store_staged_chunk: one TMA store of that buffer clipped at M, and plain stores
// for the columns TMA does not store (a partial chunk of width last_cols < kCols, or those in
// [n_tma, N)); the next buffer. Warpgroup-uniform; col_base < N. See store_block.
template <int kBufs, int kBufBytes, class Stage>
__device__ __forceinline__ void stage_chunk_into(uint32_t bufs, uint32_t epi_buf, int barrier_id, bool wg_leader,
                                                 [[maybe_unused]] bool traced, Stage stage) {
    if (wg_leader) tma_store_wait_read<kBufs - 1>();
    named_barrier_sync(barrier_id, 128);
    GRAPHGEMM_TRACE(traced, 8);
    stage(bufs + epi_buf * kBufBytes);
}

template <class ElementD, int kCols, int kBufs, int kBufBytes>
__device__ __forceinline__ void store_staged_chunk(const KernelParams& p, const CUtensorMap* tma_d, int row_base,
                                                   int col_base, int last_cols, uint32_t bufs, uint32_t& epi_buf,
                                                   int barrier_id, bool wg_leader, [[maybe_unused]] bool traced) {
    const bool partial = last_cols < kCols;  // known at compile time where inlined
    const uint32_t buf = bufs + epi_buf * kBufBytes;
    // Generic-proxy smem writes -> visible to the async proxy (TMA store).
    fence_proxy_async_shared();
    named_barrier_sync(barrier_id, 128);
    GRAPHGEMM_TRACE(traced, 9);
    if (wg_leader) {
        // (An empty group for a partial chunk: the groups count buffers, see the NOTES.)
        if (!partial && col_base < p.n_tma) tma_store_2d(tma_d, buf, col_base, row_base);  // clips at M / n_tma
        tma_store_commit();
    }
    GRAPHGEMM_TRACE(traced, 10);
    if (partial) {
        store_staged_columns<ElementD>(p, buf, row_base, col_base, 0, min(last_cols, p.n - col_base));
    } else if (p.n_tma < p.n && col_base + kCols > p.n_tma) {  // warpgroup-uniform
        store_staged_columns<ElementD>(p, buf, row_base, col_base, max(p.n_tma, col_base) - col_base,
                                       min(p.n - col_base, kCols));
    }
    epi_buf = epi_buf + 1 == kBufs ? 0 : epi_buf + 1;
}

template <class ElementD, int kCols, int kBufs, int kBufBytes, class Stage>
__device__ __forceinline__ void store_chunk(const KernelParams& p, const CUtensorMap* tma_d, int row_base,
                                            int col_base, int last_cols, uint32_t bufs, uint32_t& epi_buf,
                                            int barrier_id, bool wg_leader, bool traced, Stage stage) {
    stage_chunk_into<kBufs, kBufBytes>(bufs, epi_buf, barrier_id, wg_leader, traced, stage);
    store_staged_chunk<ElementD, kCols, kBufs, kBufBytes>(p, tma_d, row_base, col_base, last_cols, bufs, epi_buf,
                                                          barrier_id, wg_leader, traced);
}

// Whether the epilogue adds beta * C (KernelParams: with c == nullptr or beta == 0, C is not read).
__device__ __forceinline__ bool reads_c(const KernelParams& p) { return p.c != nullptr && p.beta != 0.0f; }

// What every chunk of a consumer warpgroup's 64-row block shares: the thread's two rows and their
// factors (alpha * scale_a), whether beta * C is added, and the stage-chunk kind (see stage_chunk).
struct BlockRows {
    int r0;           // the thread's first row within the block (the second is r0 + 8)
    int g_r0, g_r1;   // the same rows of D
    float rs0, rs1;   // alpha * scale_a of each (0 past M)
    bool has_c;
    int kind;         // 0..3: bias of BiasType kind (0: none) and nothing else; else kGeneralEpilogue
};

__device__ __forceinline__ BlockRows block_rows(const KernelParams& p, int row_base, int warp_in_wg, int lane) {
    BlockRows b;
    b.r0 = warp_in_wg * 16 + lane / 4;
    b.g_r0 = row_base + b.r0;
    b.g_r1 = b.g_r0 + 8;
    b.rs0 = p.alpha, b.rs1 = p.alpha;
    if (p.scale_a != nullptr) {
        b.rs0 *= b.g_r0 < p.m ? p.scale_a[b.g_r0] : 0.0f;
        b.rs1 *= b.g_r1 < p.m ? p.scale_a[b.g_r1] : 0.0f;
    }
    b.has_c = reads_c(p);
    b.kind = p.scale_b != nullptr || b.has_c ? kGeneralEpilogue : p.bias_type;
    return b;
}

// Calls f(std::integral_constant<int, K>{}) for the kind (warpgroup-uniform switch: only the path
// taken is fetched, see stage_chunk).
template <class F>
__device__ __forceinline__ void switch_kind(int kind, F&& f) {
    switch (kind) {
        case 0: f(std::integral_constant<int, 0>{}); break;
        case 1: f(std::integral_constant<int, 1>{}); break;
        case 2: f(std::integral_constant<int, 2>{}); break;
        case 3: f(std::integral_constant<int, 3>{}); break;
        default: f(std::integral_constant<int, kGeneralEpilogue>{}); break;
    }
}

// store_block for one stage-chunk kind (kKind: see stage_chunk), all of the block's chunks.
template <int kKind, class ElementD, int BN, int kCols, int kBufs, int kBufBytes, int kNumAccum>
__device__ __forceinline__ void store_block_of_kind(const KernelParams& p, const CUtensorMap* tma_d,
                                                    const float (&acc)[kNumAccum], int row_base, int n0,
                                                    uint32_t bufs, uint32_t& epi_buf, int barrier_id,
                                                    bool wg_leader, int warp_in_wg, int lane, const BlockRows& b) {
    const uint32_t stsm_off = stmatrix_lane_offset(warp_in_wg, lane);  // 16-bit D only
    const ElementD* c_ptr = static_cast<const ElementD*>(p.c);
    constexpr int kChunks = (BN + kCols - 1) / kCols;
    constexpr int kLastCols = BN - (kChunks - 1) * kCols;  // kCols, or the partial last chunk's width
#pragma unroll
    for (int chunk = 0; chunk < kChunks; ++chunk) {
        const bool partial = kLastCols < kCols && chunk == kChunks - 1;  // known at compile time (unrolled)
        const int col_base = n0 + chunk * kCols;
        if (col_base >= p.n) break;  // warpgroup-uniform
        store_chunk<ElementD, kCols, kBufs, kBufBytes>(
            p, tma_d, row_base, col_base, partial ? kLastCols : kCols, bufs, epi_buf, barrier_id, wg_leader,
            wg_leader && barrier_id == 1 && chunk == 0, [&](uint32_t buf) {
                // The width is kCols, or kLastCols for a partial last chunk.
                if (!partial) {
                    stage_chunk<kKind, ElementD, kCols, kCols>(p, acc, chunk, col_base, buf, buf + stsm_off, b.r0,
                                                               lane, b.g_r0, b.g_r1, b.rs0, b.rs1, b.has_c, c_ptr);
                } else {
                    stage_chunk<kKind, ElementD, kCols, kLastCols>(p, acc, chunk, col_base, buf, buf + stsm_off,
                                                                   b.r0, lane, b.g_r0, b.g_r1, b.rs0, b.rs1,
                                                                   b.has_c, c_ptr);
                }
            });
    }
}

// Epilogue of one consumer warpgroup's 64 x BN block of accumulators (the wgmma m64nBNk16
// fragment layout), rows [row_base, row_base + 64) and columns [n0, n0 + BN) of D, shared by the
// cooperative and the ping-pong kernels. Per chunk of kCols columns: D = alpha * acc * scale_a *
// scale_b + bias + beta * C is staged into one of the warpgroup's kBufs 128B-swizzled smem buffers
// (bufs, kBufBytes each; epi_buf is the next one, carried across calls), then stored by one TMA
// store clipped at M; the columns [n_tma, N) that TMA cannot store exactly are copied from the
// staged chunk with plain stores. A tile whose width is not a multiple of kCols (128x136, 128x176) ends with
// a partial chunk, which TMA cannot store either (its box would write the next tile's columns):
// it is copied with 16-byte plain stores. Nothing outside M x N is written. Warpgroup-uniform; the caller
// guarantees row_base < M and n0 < N, and waits for the last stores (tma_store_wait) before exit.
//
// NOTES: TMA stores write whole 16-byte units, so a store that reached past column N-1 mid-unit
// would overwrite the bytes after it (seen on H100): tma_d spans only the 16-byte aligned columns
// [0, p.n_tma). One bulk group is committed per chunk, empty when the chunk has no TMA store, so
// that tma_store_wait_read<kBufs - 1> counts chunks (buffers), not stores: with a missing group the
// next write to a buffer could overtake the store still reading it.
// The epilogue kind is switched once per block, not once per chunk: each kind's chunks then lie
// together in the code, and the block runs through one stretch of it. With the switch in every
// unrolled chunk, the plain path jumped over the other kinds' code four times a block (128x256:
// chunks ~2300 instructions apart in a 12 600-instruction kernel), and its first instructions after
// each jump stalled (ncu source counters, H100, session 34: S2R / ULDC / the first FMUL of each
// chunk held most of the epilogue's samples; the epilogue took ~7.6% of the consumers' samples at
// 4096^3 against cuBLASLt's ~4.5%).
template <class ElementD, int BN, int kCols, int kBufs, int kBufBytes, int kNumAccum>
__device__ __forceinline__ void store_block(const KernelParams& p, const CUtensorMap* tma_d,
                                            const float (&acc)[kNumAccum], int row_base, int n0,
                                            uint32_t bufs, uint32_t& epi_buf, int barrier_id,
                                            bool wg_leader, int warp_in_wg, int lane) {
    const BlockRows b = block_rows(p, row_base, warp_in_wg, lane);
    switch_kind(b.kind, [&](auto kind) {
        store_block_of_kind<decltype(kind)::value, ElementD, BN, kCols, kBufs, kBufBytes>(
            p, tma_d, acc, row_base, n0, bufs, epi_buf, barrier_id, wg_leader, warp_in_wg, lane, b);
    });
}

// The deferred epilogue (16-bit D, BN a multiple of kCols; the cooperative kernel's 128x256 c2x1,
// see kDeferStore there): right after a block's main loop, pack_block computes its D values,
// stages chunk 0 and keeps the other chunks packed in registers ((BN - kCols) / 4 a thread); then,
// while the next work unit's first k-blocks run on the tensor cores, store_packed_chunk<c> (after
// k-block c) stores chunk c and stages chunk c + 1 (a CTA's last unit: one after the other, after
// its loop). In store_block both consumer warpgroups stage and store every chunk with the tensor
// cores idle. The same values and stores as store_block.
template <class ElementD, int BN, int kCols>
struct PackedBlock {
    static_assert(sizeof(ElementD) == 2 && BN % kCols == 0);
    static constexpr int kChunks = BN / kCols;
    // Chunks 1..: per column step of 8 the pair of row r0, then of r0 + 8 (+ 1: never zero-sized,
    // also as the unused placeholder of kernels without the deferral).
    uint32_t v[(kChunks - 1) * kCols / 4 + 1];
    int row_base = 0, n0 = 0;
    bool pending = false;  // warpgroup-uniform: chunk 0 staged, chunks to store
};

template <class ElementD, int BN, int kCols, int kBufs, int kBufBytes, int kNumAccum>
__device__ __forceinline__ void pack_block(const KernelParams& p, const float (&acc)[kNumAccum], int row_base,
                                           int n0, uint32_t bufs, uint32_t epi_buf, int barrier_id, bool wg_leader,
                                           int warp_in_wg, int lane, PackedBlock<ElementD, BN, kCols>& out) {
    const BlockRows b = block_rows(p, row_base, warp_in_wg, lane);
    const ElementD* c_ptr = static_cast<const ElementD*>(p.c);
    const uint32_t stsm_off = stmatrix_lane_offset(warp_in_wg, lane);
    switch_kind(b.kind, [&](auto kind) {
        constexpr int kKind = decltype(kind)::value;
        stage_chunk_into<kBufs, kBufBytes>(bufs, epi_buf, barrier_id, wg_leader, wg_leader && barrier_id == 1,
                                           [&](uint32_t buf) {
            stage_chunk<kKind, ElementD, kCols, kCols>(p, acc, 0, n0, buf, buf + stsm_off, b.r0, lane, b.g_r0,
                                                       b.g_r1, b.rs0, b.rs1, b.has_c, c_ptr);
        });
#pragma unroll
        for (int chunk = 1; chunk < BN / kCols; ++chunk) {
            // Every chunk, also those past N (store_packed_chunk skips them): out.v is then written
            // on every path, and its registers are not live before this.
            float v[kCols / 8][4];
            chunk_values<kKind, ElementD, kCols, kCols>(p, acc, chunk, n0 + chunk * kCols, lane, b.g_r0, b.g_r1,
                                                        b.rs0, b.rs1, b.has_c, c_ptr, v);
            pack_chunk<ElementD>(v, out.v + (chunk - 1) * (kCols / 4));
        }
    });
    out.row_base = row_base;
    out.n0 = n0;
    out.pending = true;
}

template <int kChunk, class ElementD, int BN, int kCols, int kBufs, int kBufBytes>
__device__ __forceinline__ void store_packed_chunk(const KernelParams& p, const CUtensorMap* tma_d,
                                                   const PackedBlock<ElementD, BN, kCols>& blk, uint32_t bufs,
                                                   uint32_t& epi_buf, int barrier_id, bool wg_leader, int warp_in_wg,
                                                   int lane) {
    const int col_base = blk.n0 + kChunk * kCols;
    if (!blk.pending || col_base >= p.n) return;  // warpgroup-uniform
    const bool traced = wg_leader && barrier_id == 1 && kChunk == 0;
    store_staged_chunk<ElementD, kCols, kBufs, kBufBytes>(p, tma_d, blk.row_base, col_base, kCols, bufs, epi_buf,
                                                          barrier_id, wg_leader, traced);
    if constexpr (kChunk + 1 < BN / kCols) {
        if (col_base + kCols < p.n) {  // warpgroup-uniform
            const uint32_t stsm_off = stmatrix_lane_offset(warp_in_wg, lane);
            stage_chunk_into<kBufs, kBufBytes>(bufs, epi_buf, barrier_id, wg_leader, false, [&](uint32_t buf) {
                stmatrix_chunk<kCols / 8>(buf + stsm_off, blk.v + kChunk * (kCols / 4));
            });
        }
    }
}

// A consumer warpgroup's 64 x BN accumulators (wgmma fragment layout) to / from an fp32 tile in
// the split-K workspace (row-major, BN floats a row), through L2 (st.global.cg / ld.global.cg):
// another SM reads or wrote it.
template <int BN, int kNumAccum>
__device__ __forceinline__ void store_partial(float* tile, const float (&acc)[kNumAccum], int r0, int c0) {
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        __stcg(reinterpret_cast<float2*>(tile + r0 * BN + 8 * j + c0), make_float2(acc[4 * j + 0], acc[4 * j + 1]));
        __stcg(reinterpret_cast<float2*>(tile + (r0 + 8) * BN + 8 * j + c0),
               make_float2(acc[4 * j + 2], acc[4 * j + 3]));
    }
}
template <int BN, int kNumAccum>
__device__ __forceinline__ void add_partial(const float* tile, float (&acc)[kNumAccum], int r0, int c0) {
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        const float2 x = __ldcg(reinterpret_cast<const float2*>(tile + r0 * BN + 8 * j + c0));
        const float2 y = __ldcg(reinterpret_cast<const float2*>(tile + (r0 + 8) * BN + 8 * j + c0));
        acc[4 * j + 0] = x.x + acc[4 * j + 0];
        acc[4 * j + 1] = x.y + acc[4 * j + 1];
        acc[4 * j + 2] = y.x + acc[4 * j + 2];
        acc[4 * j + 3] = y.y + acc[4 * j + 3];
    }
}

// Stream-K's partial tiles: a consumer warpgroup's accumulators in fragment order (float4 i of
// thread t at [i][t], 16 * kNumAccum / 4 * 128 bytes a warpgroup), so that a warp's stores, and the
// owner's reads of the copy in shared memory, are 512 contiguous bytes (no bank conflicts).
template <int kNumAccum>
__device__ __forceinline__ void store_partial_frag(float* slot, const float (&acc)[kNumAccum], int tid) {
    float4* dst = reinterpret_cast<float4*>(slot) + tid;
#pragma unroll
    for (int i = 0; i < kNumAccum / 4; ++i)
        __stcg(dst + i * 128, make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
}
template <int kNumAccum>
__device__ __forceinline__ void add_partial_frag_smem(uint32_t buf, float (&acc)[kNumAccum], int tid) {
#pragma unroll
    for (int i = 0; i < kNumAccum / 4; ++i) {
        const float4 x = ld_shared_f32x4(buf + static_cast<uint32_t>(i * 128 + tid) * 16);
        acc[4 * i + 0] = x.x + acc[4 * i + 0];
        acc[4 * i + 1] = x.y + acc[4 * i + 1];
        acc[4 * i + 2] = x.z + acc[4 * i + 2];
        acc[4 * i + 3] = x.w + acc[4 * i + 3];
    }
}

// The next work unit of this CTA: a tile and its k-blocks [kb_begin, kb_end). Split-K: `slice` is
// the unit's K slice (slice s covers [s*q + min(s, r), +q + (s < r)), q, r = divmod(k-blocks, S));
// stream-K: `t` is the tile's linear index and the range comes from the CTA's share.
template <class Scheduler>
__device__ __forceinline__ bool next_unit(Scheduler& sched, bool stream_k, int kb_per_slice, int kb_extra,
                                          int& tile_m, int& tile_n, int& slice, int& t, int& kb_begin,
                                          int& kb_end) {
    if (stream_k) {
        slice = 0;
        return sched.next_stream_k(tile_m, tile_n, t, kb_begin, kb_end);
    }
    t = -1;
    if (!sched.next(tile_m, tile_n, slice)) return false;
    kb_begin = slice * kb_per_slice + min(slice, kb_extra);
    kb_end = kb_begin + kb_per_slice + (slice < kb_extra ? 1 : 0);
    return true;
}

// The first row of a tile's boxes of an operand whose rows are the tile's M (A) or N (B stored N x
// K) rows, and how many rows further on the tile's own rows start in the stage. A tile that starts
// inside the extent but ends past it (the last M tile when BM does not divide M, the last N tile
// when BN does not divide N) loads the box that ends at the extent's last row instead of a box
// mostly out of bounds: the TMA unit's zero fill of out-of-bounds rows is slow once many SMs do it
// (session 32, tools/diag/tma_oob_probe: 96 CTAs streaming one 64-row box with 1 valid row 1.37x
// the time of a full box, 128 rows 2.3x; 129 x 4096 x 4096 22.8 us against 18.1 with the box in
// bounds; session 55 for B's last N tile). The rows before the tile's own (an earlier tile's) are
// loaded and never read; the consumer's wgmmas start `shift` rows into the stage (edge_row_bytes),
// so its rows past the extent read whatever follows in shared memory (the next stages, the D
// staging buffers: static_asserts in the configurations keep that inside the tiles) into
// accumulator rows (A) or columns (B) that are never stored. Needs extent >= block: with a single,
// partial tile the box stays at row 0; so does a cluster's tile wholly past the extent.
__device__ __forceinline__ int edge_row_shift(int m0, int m, int bm) {
    return m0 < m && m0 + bm > m && m >= bm ? m0 + bm - m : 0;
}
__device__ __forceinline__ int edge_box_row(int m0, int m, int bm) { return m0 - edge_row_shift(m0, m, bm); }
// The consumer's side: the shift in bytes of the stage (128 a row); the tile's A descriptor is
// desc_a0 + (edge_row_bytes >> 4), B's (stored N x K) desc_b0 + (edge_row_bytes >> 4). Called by
// whole warps.
// NOTES: the value is warp-uniform; the broadcast from lane 0 only keeps ptxas from recomputing the
// shift from the kernel parameters inside the main loop every k-block (it rematerializes uniform
// values rather than keep them live: +9 to +12 instructions a k-block in the split-capable
// cooperative loops without it). Added to the descriptor once a tile, not to each k-step's offset,
// so that tiles whose A and B stages have one size share the offset arithmetic (64x64: +12 a
// k-block otherwise). With both, every main loop is as short as before or shorter
// (sass_mainloop.py; session 32 in docs/sm90_notes.md).
__device__ __forceinline__ uint32_t edge_row_bytes(int m0, int m, int bm) {
    return __shfl_sync(0xffffffffu, static_cast<uint32_t>(edge_row_shift(m0, m, bm)) * 128u, 0);
}

// This CTA's place in its cluster: rank r is (r % ClusterM, r / ClusterM), spelled so that a
// cluster of 2 (or 1) has a constant 0 rank along its other dimension (ptxas cannot see that
// %cluster_ctarank < 2). The cooperative and ping-pong kernels' producers and epilogues.
template <class Config>
__device__ __forceinline__ int cluster_rank_m(uint32_t cta_rank) {
    if constexpr (Config::kClusterM == 1) return 0;
    else if constexpr (Config::kClusterN == 1) return static_cast<int>(cta_rank);
    else return static_cast<int>(cta_rank) % Config::kClusterM;
}
template <class Config>
__device__ __forceinline__ int cluster_rank_n(uint32_t cta_rank) {
    if constexpr (Config::kClusterN == 1) return 0;
    else if constexpr (Config::kClusterM == 1) return static_cast<int>(cta_rank);
    else return static_cast<int>(cta_rank) / Config::kClusterM;
}

// The CTAs (cluster ranks, a bit each) that share this CTA's A tile: the ranks of its rank_m, one
// per rank along N; and its B tile: the ranks of its rank_n, one per rank along M.
template <class Config>
__device__ __forceinline__ uint16_t multicast_mask_a(int rank_m) {
    uint16_t mask = 0;
#pragma unroll
    for (int n = 0; n < Config::kClusterN; ++n) mask |= static_cast<uint16_t>(1u << (rank_m + n * Config::kClusterM));
    return mask;
}
template <class Config>
__device__ __forceinline__ uint16_t multicast_mask_b(int rank_n) {
    return static_cast<uint16_t>(((1u << Config::kClusterM) - 1u) << (rank_n * Config::kClusterM));
}

// Producer: one k-block (k0 = its first column of K) of A (BlockM x BK rows of the M x K A) and of
// B (BlockN rows of the N x K B, or BK rows of the K x N B) into the stage buffers sa / sb,
// completing on the stage's full barrier. In a cluster each CTA loads its half of an operand it
// shares with another CTA (A: rank_n's half, with the CTAs of its rank_m; B: rank_m's half, with
// those of its rank_n) and multicasts it to both (multicast_mask_a / _b). A K-major operand's
// stage is BK / 64 swizzle atoms (64 columns, 128 bytes a row) one after the other, atom j holding
// columns k0 + 64 j of all the tile's rows: one box each.
// NOTES: TMA always delivers full boxes (OOB parts zero-filled), so the transaction count is the
// full stage size even on edge tiles.
template <class Config>
__device__ __forceinline__ void load_stage(const CUtensorMap* tma_a, const CUtensorMap* tma_b, uint32_t full,
                                           uint32_t sa, uint32_t sb, int k0, int m0, int n0, int rank_m,
                                           int rank_n) {
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kAtoms = BK / 64;
    static_assert(BK % 64 == 0 && (kAtoms == 1 || (!Config::kMulticastA && !Config::kMulticastB &&
                                                   (Config::kBKMajor || Config::kBoxBOuter == BK))),
                  "stages of several atoms: no multicast; B stored K x N in boxes of BK k-rows");
    mbar_arrive_expect_tx(full, Config::kStageBytes);
    if constexpr (Config::kMulticastA) {
        tma_load_2d_multicast(sa + rank_n * (BM / 2) * 128, tma_a, full, k0, m0 + rank_n * (BM / 2),
                              multicast_mask_a<Config>(rank_m));
    } else {
#pragma unroll
        for (int j = 0; j < kAtoms; ++j) tma_load_2d(sa + j * BM * 128, tma_a, full, k0 + 64 * j, m0);
    }
    if constexpr (Config::kBKMajor) {
        // smem: BK / 64 atoms of BN rows of 64 k-elements (128 B each)
        if constexpr (Config::kMulticastB) {
            tma_load_2d_multicast(sb + rank_m * (BN / 2) * 128, tma_b, full, k0, n0 + rank_m * (BN / 2),
                                  multicast_mask_b<Config>(rank_n));
        } else {
#pragma unroll
            for (int j = 0; j < kAtoms; ++j) tma_load_2d(sb + j * BN * 128, tma_b, full, k0 + 64 * j, n0);
        }
    } else {
        // smem: BN/64 chunks, each BK k-rows of 64 n-elements (128 B each)
#pragma unroll
        for (int c = 0; c < BN / 64; ++c) {
            if constexpr (Config::kMulticastB) {
                tma_load_2d_multicast(sb + c * (BK * 128) + rank_m * (BK / 2) * 128, tma_b, full, n0 + c * 64,
                                      k0 + rank_m * (BK / 2), multicast_mask_b<Config>(rank_n));
            } else {
                tma_load_2d(sb + c * (BK * 128), tma_b, full, n0 + c * 64, k0);
            }
        }
    }
}

// Producer thread, programmatic dependent launch: before waiting for the previous grid, pull the
// B boxes of k-blocks [kb_begin, kb_end) into L2 (the same boxes load_stage loads; in a cluster,
// this CTA's share of the multicast). B is usually a weight the previous kernel does not write,
// but that is not assumed: this is only an L2 prefetch, and L2 is the point of coherence, so what
// the previous grid writes later is still what the TMA loads after griddep_wait() see.
template <class Config>
__device__ __forceinline__ void prefetch_b_l2(const CUtensorMap* tma_b, int kb_begin, int kb_end, int n0,
                                              int rank_m) {
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    for (int kb = kb_begin; kb < kb_end; ++kb) {
        const int k0 = kb * BK;
        if constexpr (Config::kBKMajor) {
#pragma unroll
            for (int j = 0; j < BK / 64; ++j)
                tma_prefetch_l2_2d(tma_b, k0 + 64 * j, n0 + (Config::kMulticastB ? rank_m * (BN / 2) : 0));
        } else {
#pragma unroll
            for (int c = 0; c < BN / 64; ++c)
                tma_prefetch_l2_2d(tma_b, n0 + c * 64, k0 + (Config::kMulticastB ? rank_m * (BK / 2) : 0));
        }
    }
}

// Consumer warp: the stage whose empty barrier is `empty` has been read; in a cluster, tell every
// CTA whose producer may multicast into it (lane r arrives on CTA r's barrier).
template <int kCluster>
__device__ __forceinline__ void release_stage_of(uint32_t empty, uint32_t lane) {
    if constexpr (kCluster == 1) {
        if (lane == 0) mbar_arrive(empty);
    } else {
        if (lane < kCluster) mbar_arrive_cluster(empty, lane);
    }
}

// Next position in a kStages ring: the stage, and the mbarrier parity that flips on every wrap.
template <int kStages>
__device__ __forceinline__ void ring_step(uint32_t& stage, uint32_t& phase) {
    if (++stage == kStages) {
        stage = 0;
        phase ^= 1;
    }
}

// Calls f(std::integral_constant<int, I>{}) for I = 0 .. N-1 in order.
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
    [&]<int... I>(std::integer_sequence<int, I...>) {
        (f(std::integral_constant<int, I>{}), ...);
    }(std::make_integer_sequence<int, N>{});
}

struct NoHook {
    template <class I>
    __device__ __forceinline__ void operator()(I) const {}
};

// The bytes between a wgmma operand's consecutive k-steps (16 k) within a stage: 32 along the
// 128-byte rows of a K-major operand, 16 k-rows of 128 bytes of an MN-major one.
constexpr int operand_k_step_bytes(bool k_major) { return k_major ? 32 : 16 * 128; }

// The byte offset, from its ring's base, of k-step kk of an operand in stage `stage` (kStageBytes
// a stage): K-major (kStepBytes == 32) a stage is kAtoms swizzle atoms of equal size (load_stage),
// 4 k-steps of 32 bytes each; MN-major the stage's k-rows in order, kStepBytes a k-step.
template <int kStageBytes, int kStepBytes, int kAtoms>
__device__ __forceinline__ uint32_t operand_offset(uint32_t stage, int kk) {
    return stage * kStageBytes + (kStepBytes == 32 ? (kk / 4) * (kStageBytes / kAtoms) + (kk % 4) * 32 : kk * kStepBytes);
}

// A consumer warpgroup's main loop over the k-blocks [kb_begin, kb_end) of one unit (at least
// one): per k-block, wait for its stage, issue its BK / 16 wgmmas into acc (the unit's first one
// overwrites), keep one wgmma group in flight and release the previous stage; then drain and
// release the last. Operand A of k-step kk lies at desc_a0 + operand_offset<kAStageBytes,
// kAStepBytes>(stage, kk), B at desc_b0 + operand_offset<kBStageBytes, kBStepBytes>(stage, kk)
// (kAStepBytes / kBStepBytes: operand_k_step_bytes; an MN-major A operand is the swap-AB kernel's
// weights with B stored K x N). release(stage) frees a stage;
// on_ready() runs after each full-barrier wait (diagnostics hooks). after_issue(I), I = 0 ..
// kPeel-1 (compile-time), runs once each, in order: right after the wgmmas of the unit's k-block I
// are issued, while they run (the first kPeel k-blocks are peeled off the loop for it), or at once
// where the unit has no k-block I.
template <class Mma, int kStages, int BK, int kAStageBytes, int kBStageBytes, int kBStepBytes, int kPeel = 0,
          int kAStepBytes = 32, class Release, class OnReady, class AfterIssue = NoHook>
__device__ __forceinline__ void consume_unit(float (&acc)[Mma::kNumAccum], uint32_t& stage, uint32_t& phase,
                                             int kb_begin, int kb_end, uint32_t bar_full, uint64_t desc_a0,
                                             uint64_t desc_b0, Release release, OnReady on_ready,
                                             AfterIssue after_issue = {}) {
    uint32_t prev_stage = 0;
    auto issue = [&](int kb) {
        // The stage's descriptors, then k-step kk's as compile-time offsets from them.
        const uint64_t desc_a = desc_advance(desc_a0, stage * (kAStageBytes / 16));
        const uint64_t desc_b = desc_advance(desc_b0, stage * (kBStageBytes / 16));
        mbar_wait(bar_full + 8 * stage, phase);
        on_ready();
#pragma unroll
        for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {
            constexpr int kAtoms = BK / 64;
            Mma::mma(acc, desc_advance(desc_a, operand_offset<kAStageBytes, kAStepBytes, kAtoms>(0, kk) / 16),
                     desc_advance(desc_b, operand_offset<kBStageBytes, kBStepBytes, kAtoms>(0, kk) / 16),
                     kb > kb_begin || kk > 0);
        }
        wgmma_commit();
#pragma unroll
        for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
    };
    auto retire = [&](int kb) {
        wgmma_wait<1>();
        if (kb > kb_begin) release(prev_stage);
        prev_stage = stage;
        ring_step<kStages>(stage, phase);
    };
    int kb = kb_begin;
    if constexpr (kPeel > 0) {
        // The unit's first wgmma overwrites acc: its old values are dead here (the wgmma asm reads
        // and writes acc, its scale-d being a run-time value), so ptxas may reuse their registers
        // for what the previous unit left to after_issue (PackedBlock) before this point.
#pragma unroll
        for (int i = 0; i < Mma::kNumAccum; ++i) asm volatile("" : "=f"(acc[i]));
    }
    static_for<kPeel>([&](auto i) {
        if (kb < kb_end) {  // uniform
            issue(kb);
            after_issue(i);
            retire(kb);
            ++kb;
        } else {
            after_issue(i);  // (not after the loop: what it reads would then be live through the loop)
        }
    });
    for (; kb < kb_end; ++kb) {
        issue(kb);
        retire(kb);
    }
    wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < Mma::kNumAccum; ++i) fence_operand(acc[i]);
    release(prev_stage);
}

// The whole epilogue for 4 consecutive outputs of row gm (columns gn..gn+3, gn % 4 == 0, gm < M,
// gn < N) from their fp32 sums: D = alpha * sum * scale_a * scale_b + bias + beta * C, plain
// stores, only the columns < N. The split-K reductions' epilogue (they end with rows of sums, not
// wgmma fragments).
template <class ElementD>
__device__ __forceinline__ void epilogue_quad(const KernelParams& p, int gm, int gn, float4 sum) {
    float rs = p.alpha;
    if (p.scale_a != nullptr) rs *= p.scale_a[gm];
    float v[4] = {sum.x * rs, sum.y * rs, sum.z * rs, sum.w * rs};
    const bool has_c = reads_c(p);
    const ElementD* c_row = static_cast<const ElementD*>(p.c) + static_cast<long long>(gm) * p.ldc;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        if (gn + i >= p.n) break;
        if (p.scale_b != nullptr) v[i] *= p.scale_b[gn + i];
        if (p.bias_type != 0) v[i] += load_bias(p.bias, p.bias_type, gn + i);
        if (has_c) v[i] += p.beta * to_float(c_row[gn + i]);
    }
    store_quad<ElementD>(static_cast<ElementD*>(p.d) + static_cast<long long>(gm) * p.ldd + gn, gn, p.n, v);
}

// Parallel split-K summed within a thread-block cluster (cluster 1x1 kernels, split_cluster = C >
// 1; consumer threads; the producer warpgroup joins the two cluster barriers on its own): the C
// CTAs of the cluster hold C consecutive slices of one tile (TileScheduler). Each writes its fp32
// accumulators into its own pipeline smem (idle: a CTA of this mode has one work unit, fully
// consumed); after a cluster barrier, rank r sums rows [r * BM / C, (r + 1) * BM / C) of the C
// tiles through distributed shared memory in rank order (deterministic), then either applies the
// epilogue (C == S: nothing goes through global memory) or stores the sum as the partial tile of
// slice group `group` for parallel_split_reduce. The second cluster barrier keeps every CTA's smem
// until its peers have read it, and orders the group's partial stores before rank 0 counts it in.
//
// NOTES: replaces, per slice, 64 KB of fp32 partial stores to L2, a release, and the wait for and
// reads of every slice in the reduction phase (128x128x16384 on H100, sm90_trace: 2.0 us hand-off,
// 3.7 us reduction at S = 64) with smem traffic. Rows of 4 KB (BN = 128) plus 32 bytes: the 8 rows
// of one fragment store then fall into distinct bank groups.
// cluster_split_reduce's middle: this CTA (rank r of C) sums rows [r * BM / C, (r + 1) * BM / C) of
// the C partial tiles in the cluster's smem (row stride BN + 8 floats) in rank order, then applies
// the epilogue (slots == 1) or stores the sums as partial tile `group` of the workspace. Every
// thread's C x (items) DSMEM loads are issued before any add.
// NOTES (sm90_trace, H100, 128x128x16384, 8 slices in a cluster of 8): each cluster barrier took
// ~0.7 us and the DSMEM loads ~0.9 us to return; partial in smem -> rows summed and stored 2.4 us,
// then 0.7 us to the second barrier (issuing the loads all at once instead of C per step changed
// nothing). A push design (st.async into the owner's smem, completing on its mbarrier) would save
// one barrier and the round trip.
template <class Config, int C>
__device__ __forceinline__ void sum_cluster_rows(const KernelParams& p, uint32_t red_smem, int m0, int n0,
                                                 int group, int slots, int ctile, int num_ctiles) {
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int kStride = BN + 8;
    constexpr int kThreads = Config::kConsumerWGs * 128;
    constexpr int kQuads = BN / 4;
    constexpr int kRows = BM / C;                             // this rank's rows
    constexpr int kItems = kRows * kQuads / kThreads;         // 4-column quads per thread
    static_assert(kRows * kQuads % kThreads == 0 && kItems >= 1, "whole quads per thread");
    const int rank = static_cast<int>(cluster_cta_rank());
    const int tid = static_cast<int>(threadIdx.x);
    float4 x[kItems][C];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
        const int it = tid + i * kThreads;
        const uint32_t off = 4u * static_cast<uint32_t>((rank * kRows + it / kQuads) * kStride + (it % kQuads) * 4);
#pragma unroll
        for (int q = 0; q < C; ++q) x[i][q] = ld_shared_cluster_f32x4(map_shared_rank(red_smem + off, q));
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
        float4 sum = x[i][0];
#pragma unroll
        for (int q = 1; q < C; ++q) sum.x += x[i][q].x, sum.y += x[i][q].y, sum.z += x[i][q].z, sum.w += x[i][q].w;
        const int it = tid + i * kThreads;
        const int r = rank * kRows + it / kQuads, c = (it % kQuads) * 4;
        const int gm = m0 + r, gn = n0 + c;
        if (gm >= p.m || gn >= p.n) continue;
        if (slots == 1) {
            epilogue_quad<ElementD>(p, gm, gn, sum);
        } else {
            float* tile = p.partials + (static_cast<long long>(group) * num_ctiles + ctile) * (BM * BN);
            __stcg(reinterpret_cast<float4*>(tile + r * BN + c), sum);
        }
    }
}

template <class Config, int kNumAccum>
__device__ __forceinline__ void cluster_split_reduce(const KernelParams& p, const float (&acc)[kNumAccum],
                                                     uint32_t red_smem, int m0, int n0, int group,
                                                     int slots, int ctile, int num_ctiles, int wg_idx,
                                                     int warp_in_wg, int lane) {
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int kStride = BN + 8;  // floats per smem row
    static_assert(BM * kStride * 4 <= Config::kStages * Config::kStageBytes, "reduction tile fits the stages");
    // Both consumer warpgroups past their main loop first: one that finishes early must not write
    // over stages the other's wgmmas are still reading (seen under compute-sanitizer's timing:
    // 128-row tiles only, wrong sums, no hazard reported since wgmma reads through the async proxy).
    if constexpr (Config::kConsumerWGs > 1) named_barrier_sync(3, Config::kConsumerWGs * 128);
    const int r0 = wg_idx * 64 + warp_in_wg * 16 + lane / 4;
    const int c0 = 2 * (lane % 4);
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        st_shared_f32x2(red_smem + 4 * (r0 * kStride + 8 * j + c0), acc[4 * j + 0], acc[4 * j + 1]);
        st_shared_f32x2(red_smem + 4 * ((r0 + 8) * kStride + 8 * j + c0), acc[4 * j + 2], acc[4 * j + 3]);
    }
    GRAPHGEMM_TRACE(threadIdx.x == 0, 13);
    cluster_sync();

    switch (p.split_cluster) {  // uniform
        case 2: sum_cluster_rows<Config, 2>(p, red_smem, m0, n0, group, slots, ctile, num_ctiles); break;
        case 4: sum_cluster_rows<Config, 4>(p, red_smem, m0, n0, group, slots, ctile, num_ctiles); break;
        default: sum_cluster_rows<Config, 8>(p, red_smem, m0, n0, group, slots, ctile, num_ctiles); break;
    }
    if (slots > 1) __threadfence();  // the group's partial, before rank 0 counts it in
    GRAPHGEMM_TRACE(threadIdx.x == 0, 14);
    cluster_sync();
    GRAPHGEMM_TRACE(threadIdx.x == 0, 15);
    const int tid = static_cast<int>(threadIdx.x);
    if (slots > 1 && cluster_cta_rank() == 0 && tid < Config::kConsumerWGs && m0 + tid * 64 < p.m)
        red_release_gpu_add(p.counters + ctile * Config::kConsumerWGs + tid, 1);
}

// Parallel split-K, second phase (consumer threads of every CTA, after their GEMM work units):
// the rows of D (per n-tile) are cut into gridDim.x contiguous shares; for each tile in its share the CTA
// waits until all S slices of the rows' warpgroups have counted in, sums the S fp32 partials,
// applies the whole epilogue and stores D with plain stores, never outside M x N. Deadlock-free:
// GEMM units of this mode never wait, and the persistent grid is co-resident.
//
// NOTES: a share is small (total partial bytes / gridDim.x), so this phase is bound by L2 latency,
// not bandwidth: one thread summing S slices with a few loads in flight took ~S/4 L2 round trips
// (15 us at S = 64 on H100). Here G lanes (a power of two, G | 32) share each 4-column quad, each
// lane sums a contiguous range of at most kLoadsInFlight slices with all its loads issued before
// any add, then a butterfly over the G lanes (shuffles) combines the ranges. The order of additions
// is fixed by (S, G), and G by the share size: deterministic run to run for a given launch.
template <class Config>
__device__ __forceinline__ void parallel_split_reduce(const KernelParams& p, int num_ctiles,
                                                      int ctiles_n, int slots) {
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int kThreads = Config::kConsumerWGs * 128;
    constexpr int kQuadsPerRow = BN / 4;
    constexpr int kLoadsInFlight = 8;
    const int tid = static_cast<int>(threadIdx.x);
    const int splits = slots;  // partial tiles per tile: S, or S / C after cluster sums
    // Shares of the rows that exist: (n-tile, row of D) pairs, n-tiles with columns < N, rows < M,
    // cut into gridDim.x contiguous ranges. (Cutting whole CTA tiles instead left most CTAs idle
    // when M is small: at M = 16 with 64-row tiles, only a quarter of them had rows inside M.)
    const int n_tiles = (p.n + BN - 1) / BN;
    const long long total = static_cast<long long>(n_tiles) * p.m;
    const long long cta = blockIdx.x, ctas = gridDim.x;
    long long v = total * cta / ctas;
    const long long v_end = total * (cta + 1) / ctas;
    const long long slice_stride = static_cast<long long>(num_ctiles) * BM * BN;  // between slices' slots
    while (v < v_end) {  // one segment: consecutive rows of one CTA tile
        const int ni = static_cast<int>(v / p.m);
        const int g = static_cast<int>(v - static_cast<long long>(ni) * p.m);  // row of D
        const int mi = g / BM;
        const int lr0 = g - mi * BM;
        const long long seg_end = min(v_end, static_cast<long long>(ni) * p.m + min(p.m, (mi + 1) * BM));
        const int rows = static_cast<int>(seg_end - v);
        v = seg_end;
        const int ctile = mi * ctiles_n + ni;
        const long long tile_row0 = static_cast<long long>(ctile) * BM;
        const int m0 = mi * BM, n0 = ni * BN;
        if (tid == 0) {
            for (int w = lr0 / 64; w <= (lr0 + rows - 1) / 64; ++w)
                wait_flag_equal(p.counters + ctile * Config::kConsumerWGs + w, splits);
        }
        named_barrier_sync(3, kThreads);
        const float* src = p.partials + tile_row0 * BN + static_cast<long long>(lr0) * BN;
        const int quads = rows * kQuadsPerRow;
        // G lanes per quad: enough to use every thread, and at most kLoadsInFlight slices a lane.
        int log_g = 0;
        while (log_g < 5 && (2 << log_g) <= splits &&
               ((quads << log_g) < kThreads || (splits + (1 << log_g) - 1) >> log_g > kLoadsInFlight))
            ++log_g;
        const int g_lanes = 1 << log_g;
        const int items = quads << log_g;
        const int items_warps = (items + 31) & ~31;  // whole warps: every lane joins the shuffles
        for (int it = tid; it < items_warps; it += kThreads) {
            const int q = it >> log_g, g = it & (g_lanes - 1);
            const int r = q / kQuadsPerRow, c = (q % kQuadsPerRow) * 4;
            const int gm = m0 + lr0 + r, gn = n0 + c;
            const bool live = it < items && gn < p.n;  // uniform over the quad's G lanes
            float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (live) {
                const float* ptr = src + r * BN + c;
                const int s_end = (g + 1) * splits >> log_g;
                int s = g * splits >> log_g;
                for (; s + kLoadsInFlight <= s_end; s += kLoadsInFlight) {
                    float4 x[kLoadsInFlight];
#pragma unroll
                    for (int i = 0; i < kLoadsInFlight; ++i)
                        x[i] = __ldcg(reinterpret_cast<const float4*>(ptr + (s + i) * slice_stride));
#pragma unroll
                    for (int i = 0; i < kLoadsInFlight; ++i)
                        sum.x += x[i].x, sum.y += x[i].y, sum.z += x[i].z, sum.w += x[i].w;
                }
                float4 x[kLoadsInFlight - 1];
                const int rest = s_end - s;
#pragma unroll
                for (int i = 0; i < kLoadsInFlight - 1; ++i)
                    if (i < rest) x[i] = __ldcg(reinterpret_cast<const float4*>(ptr + (s + i) * slice_stride));
#pragma unroll
                for (int i = 0; i < kLoadsInFlight - 1; ++i)
                    if (i < rest) sum.x += x[i].x, sum.y += x[i].y, sum.z += x[i].z, sum.w += x[i].w;
            }
            // Butterfly: lanes g and g ^ off add the same two values (commutative, exact order),
            // so all G lanes end with the same sum.
            for (int off = 1; off < g_lanes; off <<= 1) {
                sum.x += __shfl_xor_sync(0xffffffffu, sum.x, off);
                sum.y += __shfl_xor_sync(0xffffffffu, sum.y, off);
                sum.z += __shfl_xor_sync(0xffffffffu, sum.z, off);
                sum.w += __shfl_xor_sync(0xffffffffu, sum.w, off);
            }
            if (!live || g != 0) continue;
            epilogue_quad<ElementD>(p, gm, gn, sum);
        }
    }
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads, 1)
    sm90_gemm_kernel(const __grid_constant__ CUtensorMap tma_a,
                     const __grid_constant__ CUtensorMap tma_b,
                     const __grid_constant__ CUtensorMap tma_d, const KernelParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    GRAPHGEMM_TRACE(threadIdx.x == 0, 0);
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kStages = Config::kStages;
    constexpr int kCluster = Config::kClusterSize;
    constexpr int kConsumerWGs = Config::kConsumerWGs;
    constexpr bool kBKMajor = Config::kBKMajor;
    using Mma = Wgmma<BN, std::is_same_v<typename Config::ElementAB, __nv_bfloat16>,
                      kBKMajor ? 0 : 1>;
    using Scheduler = TileScheduler<BM, BN, Config::kClusterM, Config::kClusterN>;

    // ---- Shared memory carve-up ------------------------------------------------------------
    // NOTES: the dynamic smem base is only guaranteed 16-byte aligned; 128B-swizzle atoms (TMA
    // and the wgmma descriptors with base_offset 0) need 1024, hence the manual round-up (SmemCarve).
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const SmemCarve<Config::kOffBar, Config::kBarBytes> carve(smem_u32(smem_raw));
    const uint32_t smem_base = carve.base;
    const uint32_t smem_a = smem_base + Config::kOffA;
    const uint32_t smem_b = smem_base + Config::kOffB;
    const uint32_t smem_d = smem_base + Config::kOffD;
    const uint32_t bar_full = carve.bars;
    const uint32_t bar_empty = bar_full + 8 * kStages;

    const uint32_t warp_idx = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t wg_idx = warp_idx / 4;
    const uint32_t cta_rank = kCluster > 1 ? cluster_cta_rank() : 0;
    const int rank_m = cluster_rank_m<Config>(cta_rank);
    const int rank_n = cluster_rank_n<Config>(cta_rank);
    const int num_k_blocks = (p.k + BK - 1) / BK;
    // Split-K: slice s covers k-blocks [s*q + min(s, r), +q + (s < r)) with q, r = divmod(nkb, S).
    const bool stream_k = Config::kSplitK && p.split_mode == static_cast<int>(SplitMode::stream_k);  // splits == 1
    const int splits = Config::kSplitK ? p.splits : 1;
    const int split_cluster = Config::kSplitK ? p.split_cluster : 1;
    const int kb_per_slice = num_k_blocks / splits;
    const int kb_extra = num_k_blocks - kb_per_slice * splits;

    // ---- Barrier initialisation --------------------------------------------------------------
    if (threadIdx.x == kConsumerWGs * 128) {
        tma_prefetch_descriptor(&tma_a);
        tma_prefetch_descriptor(&tma_b);
        tma_prefetch_descriptor(&tma_d);
#pragma unroll
        for (int s = 0; s < kStages; ++s) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, kConsumerWGs * 4 * kCluster);
        }
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    // NOTES: peers multicast into our smem and arrive on our barriers: all of them must be
    // initialised cluster-wide before any producer starts (relaxed arrive: the fence above
    // releases the inits; see cluster_arrive_relaxed).
    if constexpr (kCluster > 1) cluster_sync_relaxed();
    else __syncthreads();

    GRAPHGEMM_TRACE(threadIdx.x == 0, 1);
    if (wg_idx == kConsumerWGs) {
        // ======================== Producer warpgroup (TMA) ========================
        setmaxnreg_dec<Config::kProducerRegs>();
        if (warp_idx == kConsumerWGs * 4 && lane == 0) {
            Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, splits, split_cluster);
            if (stream_k) sched.init_stream_k(num_k_blocks);
            uint32_t stage = 0, phase = 0;
#ifdef GRAPHGEMM_SM90_TRACE
            bool traced = false, first_unit = true;
#endif
            bool waited = false;  // for the previous grid (PDL)
            int tile_m, tile_n, slice, t, kb_begin, kb_end;
            while (next_unit(sched, stream_k, kb_per_slice, kb_extra, tile_m, tile_n, slice, t, kb_begin, kb_end)) {
                const int m0 = (tile_m * Config::kClusterM + rank_m) * BM;
                const int n0 = (tile_n * Config::kClusterN + rank_n) * BN;
                const int b_row0 = kBKMajor ? edge_box_row(n0, p.n, BN) : n0;  // B stored N x K: as A's M
                if (!waited) {
                    prefetch_b_l2<Config>(&tma_b, kb_begin, min(kb_end, kb_begin + p.pdl_prefetch_kb), b_row0, rank_m);
                    griddep_wait();
                    GRAPHGEMM_TRACE(true, 11);
                    waited = true;
                }
                for (int kb = kb_begin; kb < kb_end; ++kb) {
                    // Stage free in every CTA this load (or its multicast) writes to (CTA-scope
                    // wait: see mbar_wait's NOTES).
                    mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                    GRAPHGEMM_TRACE_ONCE(traced, true, 2);
#ifdef GRAPHGEMM_SM90_TRACE
                    if (first_unit) trace_kb(kb - kb_begin, m0, n0);
#endif
                    load_stage<Config>(&tma_a, &tma_b, bar_full + 8 * stage, smem_a + stage * Config::kSmemAStage,
                                       smem_b + stage * Config::kSmemBStage, kb * BK, edge_box_row(m0, p.m, BM), b_row0,
                                       rank_m, rank_n);
                    ring_step<kStages>(stage, phase);
                }
#ifdef GRAPHGEMM_SM90_TRACE
                first_unit = false;
#endif
            }
            griddep_launch_dependents();  // PDL: every load of this CTA is issued
            GRAPHGEMM_TRACE(true, 12);
        }
        __syncwarp();
        if constexpr (Config::kSplitCluster) {
            // Cluster split-K: the whole warpgroup joins the consumers' two cluster barriers of
            // this CTA's work unit (one at most in this mode).
            if (p.split_cluster > 1 &&
                Scheduler(p.m, p.n, p.raster_group, p.raster_along_n, p.splits, p.split_cluster).has_next()) {
                cluster_sync();
                cluster_sync();
            }
        }
    } else {
        // ======================== Consumer warpgroups (WGMMA + epilogue) ========================
        setmaxnreg_inc<Config::kConsumerRegs>();
        griddep_wait();  // before the epilogue's and split-K's global accesses
        const uint32_t warp_in_wg = warp_idx % 4;
        const bool wg_leader = (threadIdx.x % 128) == 0;
        Scheduler sched(p.m, p.n, p.raster_group, p.raster_along_n, splits, split_cluster);
        if (stream_k) sched.init_stream_k(num_k_blocks);
        const int ctiles_n = sched.tiles_n * Config::kClusterN;  // CTA tiles along N
        const int num_ctiles = sched.tiles_m * Config::kClusterM * ctiles_n;

        // Stage-0 descriptors; per stage / k-step only the start address field changes.
        const uint64_t desc_a0 = make_smem_desc_sw128(smem_a + wg_idx * 64 * 128, 0, 1024);
        const uint64_t desc_b0 = make_smem_desc_sw128(smem_b, kBKMajor ? 0 : BK * 128, 1024);

        auto release_stage = [&](uint32_t s) { release_stage_of<kCluster>(bar_empty + 8 * s, lane); };

        float acc[Mma::kNumAccum];
#pragma unroll
        for (int i = 0; i < Mma::kNumAccum; ++i) acc[i] = 0.0f;

        uint32_t stage = 0, phase = 0;
        uint32_t epi_buf = 0;
        // NOTES: with one buffer epi_buf is the constant 0, and ptxas then moved the main loop's
        // stage and smem descriptors off the uniform datapath (R2UR 16 a k-block, 65 -> 108
        // instructions, tools/diag/sass_mainloop.py; 4-28% slower on H100, session 28): an opaque
        // value keeps it from folding.
        if constexpr (Config::kEpiBufs == 1) asm volatile("" : "+r"(epi_buf));
        // The deferred epilogue (PackedBlock): a unit's D chunks are stored while the next unit's
        // first k-blocks run, one chunk after each of them. Only in the 128x256 tile in 2x1
        // clusters, which automatic takes past two waves (CTAs with several tiles).
        // NOTES: H100, session 35 (docs/sm90_notes.md): in every kernel it gained on multi-tile
        // 128x256 c2x1 shapes (up to 2-4%) and lost on one-wave grids and split-K (1024^3 with
        // 64x128 -1 to -5%; llama3_8b.o M = 1024 with 128x256 c1x1 -1 to -4%), where a CTA has no
        // next unit to overlap with; a CTA's last unit taking store_block instead made ptxas
        // spill 2.8 KB in its general path and did not recover those losses.
        constexpr bool kDeferStore = sizeof(ElementD) == 2 && BM == 128 && BN == 256 && Config::kClusterM == 2;
        constexpr int kEpiChunks = BN / Config::kEpiCols;
        using Packed = PackedBlock<std::conditional_t<kDeferStore, ElementD, __nv_bfloat16>,
                                   kDeferStore ? BN : Config::kEpiCols, Config::kEpiCols>;
        [[maybe_unused]] Packed packed;
        const uint32_t epi_bufs = smem_d + wg_idx * Config::kEpiBufs * Config::kEpiBufBytes;
        // No chunks pending; ends the live range of packed's registers where nothing reads them
        // before the next pack_block (else ptxas keeps them live through the main loop and the
        // split-K paths, and spills there).
        auto forget_packed = [&] {
            if constexpr (kDeferStore) {
#pragma unroll
                for (int i = 0; i < static_cast<int>(sizeof(packed.v) / 4); ++i) asm volatile("" : "=r"(packed.v[i]));
                asm volatile("" : "=r"(packed.row_base), "=r"(packed.n0));
                packed.pending = false;
            }
        };
        forget_packed();
        auto store_packed = [&](auto chunk) {
            if constexpr (kDeferStore) {
                store_packed_chunk<decltype(chunk)::value, ElementD, BN, Config::kEpiCols, Config::kEpiBufs,
                                   Config::kEpiBufBytes>(p, &tma_d, packed, epi_bufs, epi_buf, 1 + wg_idx, wg_leader,
                                                         static_cast<int>(warp_in_wg), static_cast<int>(lane));
            }
        };
#ifdef GRAPHGEMM_SM90_TRACE
        bool traced = false, sk_began = false, sk_first_done = false;
#endif
        int tile_m, tile_n, slice, t, kb_begin, kb_end;
        // Cluster split-K: the unit whose accumulators are summed within the cluster after the
        // loop (outside it, so that the reduction's divergent loop does not take the main loop's
        // stage counters and descriptors out of the uniform datapath: 50 -> 109 instructions).
        struct { int m0 = -1, n0 = 0, slice = 0; } cluster_unit;
        while (next_unit(sched, stream_k, kb_per_slice, kb_extra, tile_m, tile_n, slice, t, kb_begin, kb_end)) {
            const int m0 = (tile_m * Config::kClusterM + rank_m) * BM;
            const int n0 = (tile_n * Config::kClusterN + rank_n) * BN;

#ifdef GRAPHGEMM_SM90_TRACE
            // Stream-K (no cluster sums there: their events are free): the CTA's first unit of a
            // shared tile begins (13) and ends its main loop (14).
            const bool sk_shared_unit = stream_k && (kb_begin > 0 || kb_end < num_k_blocks);
            GRAPHGEMM_TRACE_ONCE(sk_began, sk_shared_unit && wg_leader && wg_idx == 0, 13);
#endif
            // ---- Main loop: one wgmma group in flight, release the previous stage ----
            // (The previous unit's D chunks are stored during its first k-blocks.)
            consume_unit<Mma, kStages, BK, Config::kSmemAStage, Config::kSmemBStage, operand_k_step_bytes(kBKMajor),
                         kDeferStore ? kEpiChunks : 0>(
                acc, stage, phase, kb_begin, kb_end, bar_full, desc_advance(desc_a0, edge_row_bytes(m0, p.m, BM) / 16),
                kBKMajor ? desc_advance(desc_b0, edge_row_bytes(n0, p.n, BN) / 16) : desc_b0, release_stage,
                [&] { GRAPHGEMM_TRACE_ONCE(traced, wg_leader && wg_idx == 0, 3); }, store_packed);
            forget_packed();  // (every chunk stored)
            GRAPHGEMM_TRACE(wg_leader && wg_idx == 0, 4);
#ifdef GRAPHGEMM_SM90_TRACE
            GRAPHGEMM_TRACE_ONCE(sk_first_done, sk_shared_unit && wg_leader && wg_idx == 0, 14);
#endif

            if constexpr (Config::kSplitCluster) {
                if (p.split_cluster > 1) {  // uniform: slices summed within the cluster, below
                    cluster_unit = {m0, n0, slice};
                    break;  // this mode gives a CTA one work unit at most
                }
            }
            const int row_base = m0 + static_cast<int>(wg_idx) * 64;
            const bool in_bounds = row_base < p.m && n0 < p.n;  // warpgroup-uniform

            // ---- Split-K: hand the partial sum on, or take the running sum over ----
            // NOTES: per warpgroup (its 64 rows), so the two consumer warpgroups never wait on
            // each other. Warpgroups entirely outside M x N take no part (nobody reads them).
            bool store_d = true;
            if (splits > 1 && in_bounds) {  // uniform (splits: 1 in the unsplit twin)
                const int ctile = (m0 / BM) * ctiles_n + n0 / BN;
                int* counter = p.counters + ctile * kConsumerWGs + wg_idx;
                const int slot = p.split_mode == static_cast<int>(SplitMode::parallel)
                                     ? slice * num_ctiles + ctile : ctile;
                float* tile = p.partials + static_cast<long long>(slot) * (BM * BN) +
                              static_cast<int>(wg_idx) * 64 * BN;
                const int r0 = static_cast<int>(warp_in_wg) * 16 + static_cast<int>(lane / 4);
                const int c0 = 2 * static_cast<int>(lane % 4);
                if (p.split_mode == static_cast<int>(SplitMode::serial) && slice > 0) {
                    // Wait for slices 0..slice-1, then add their running sum (fixed order).
                    if (wg_leader) wait_flag_equal(counter, slice);
                    named_barrier_sync(1 + wg_idx, 128);
                    add_partial<BN>(tile, acc, r0, c0);
                }
                if (p.split_mode == static_cast<int>(SplitMode::parallel) || slice + 1 < p.splits) {
                    // Not the last serial slice: hand on the (running) sum and signal.
                    store_partial<BN>(tile, acc, r0, c0);
                    named_barrier_sync(1 + wg_idx, 128);
                    if (wg_leader) red_release_gpu_add(counter, 1);
                    store_d = false;
                }
            }
            // Stream-K: the owner of a shared tile (its segment holds k-block 0 and is its CTA's
            // last unit, StreamKPartition) copies the other holders' partials into the ring, idle
            // now: the producer (and a cluster peer's, which walks the same units) has issued its
            // last load and every stage has been consumed. Both warpgroups' wgmmas must have read
            // the stages first (B and the A stage are shared).
            const bool sk_owner = stream_k && kb_begin == 0 && kb_end < num_k_blocks;  // CTA-uniform
            if constexpr (kConsumerWGs > 1) {
                if (sk_owner) named_barrier_sync(3, kConsumerWGs * 128);
            }
            if (stream_k && in_bounds) {  // uniform
                const int tid = static_cast<int>(threadIdx.x % 128);
                const long long wg_off = static_cast<long long>(wg_idx) * 64 * BN;
                // Worker w's CTA of this rank hands its partial on through slot / flag
                // w * kCluster + rank (the CTAs of a cluster hold the same k-blocks of one cluster
                // tile: each its own CTA tile of it).
                auto slot_of = [&](int w) { return w * kCluster + static_cast<int>(cta_rank); };
                if (kb_begin > 0) {
                    // Not the owner (this worker's first segment started mid-tile): hand the
                    // partial to the owner through this CTA's slot and flag.
                    const int slot = slot_of(sched.worker());
                    store_partial_frag(p.partials + static_cast<long long>(slot) * (BM * BN) + wg_off, acc, tid);
                    named_barrier_sync(1 + wg_idx, 128);
                    if (wg_leader) red_release_gpu_add(p.counters + slot * kConsumerWGs + wg_idx, 1);
                    store_d = false;
                } else if (sk_owner) {
                    // The owner, and later workers hold the rest of the tile (each in its first
                    // segment, which it works on before anything else; grouped, the later ranges'
                    // workers of this row): add their partials in worker order, then the epilogue. Each partial (64 KB a warpgroup at BN = 256)
                    // comes in as one bulk copy into this warpgroup's part of the ring, on the
                    // full barrier of a stage no load will use again (its next phase: the ring's
                    // position after the unit).
                    // NOTES: H100, 4096^3, 128x256, per CTA: read with ld.global.cg straight into
                    // registers (16 loads in flight a thread, four L2 round trips back to back per
                    // partial) the owner handed off 11.5 us after its last main loop (session 51);
                    // this way 4.9 us (session 52).
                    constexpr uint32_t kSlotBytes = 64 * BN * 4;
                    static_assert(!Config::kSplitK || kConsumerWGs * kSlotBytes <= static_cast<uint32_t>(Config::kOffD),
                                  "stream-K's partials must fit in the ring");
                    const uint32_t buf = smem_base + wg_idx * kSlotBytes;
                    static_assert(kConsumerWGs <= kStages, "the borrowed full barriers: stage + wg_idx wraps once at most");
                    const uint32_t bar = bar_full + 8 * ((stage + wg_idx) % kStages);
                    uint32_t parity = stage + wg_idx < static_cast<uint32_t>(kStages) ? phase : phase ^ 1;
                    for (int w = sched.sk_range + 1; w < sched.sk_waits_end; ++w) {
                        if (wg_leader) {
                            const int slot = slot_of(sched.sk_worker_of(w));
                            wait_flag_equal(p.counters + slot * kConsumerWGs + wg_idx, 1);
                            fence_proxy_async_global();  // the acquire, before the async proxy's read
                            mbar_arrive_expect_tx(bar, kSlotBytes);
                            bulk_load_1d(buf, p.partials + static_cast<long long>(slot) * (BM * BN) + wg_off,
                                         kSlotBytes, bar);
                        }
                        mbar_wait(bar, parity);
                        parity ^= 1;
                        add_partial_frag_smem(buf, acc, tid);
                        named_barrier_sync(1 + wg_idx, 128);  // buf read before the next copy
                    }
                }
            }

            // ---- Epilogue: registers -> swizzled smem chunk -> TMA store ----
            if (store_d && in_bounds) {  // warpgroup-uniform
                if constexpr (kDeferStore) {
                    pack_block<ElementD, BN, Config::kEpiCols, Config::kEpiBufs, Config::kEpiBufBytes>(
                        p, acc, row_base, n0, epi_bufs, epi_buf, 1 + wg_idx, wg_leader, static_cast<int>(warp_in_wg),
                        static_cast<int>(lane), packed);
                } else {
                    store_block<ElementD, BN, Config::kEpiCols, Config::kEpiBufs, Config::kEpiBufBytes>(
                        p, &tma_d, acc, row_base, n0, epi_bufs, epi_buf, 1 + wg_idx, wg_leader,
                        static_cast<int>(warp_in_wg), static_cast<int>(lane));
                }
            } else {
                forget_packed();
            }
            GRAPHGEMM_TRACE(wg_leader && wg_idx == 0, 5);
        }
        static_for<kDeferStore ? kEpiChunks : 0>(store_packed);  // the last unit's D
        if constexpr (Config::kSplitCluster) {
            if (cluster_unit.m0 >= 0) {
                const int m0 = cluster_unit.m0, n0 = cluster_unit.n0;
                cluster_split_reduce<Config>(p, acc, smem_a, m0, n0, cluster_unit.slice / p.split_cluster,
                                             p.splits / p.split_cluster, (m0 / BM) * ctiles_n + n0 / BN, num_ctiles,
                                             static_cast<int>(wg_idx), static_cast<int>(warp_in_wg),
                                             static_cast<int>(lane));
                GRAPHGEMM_TRACE(wg_leader && wg_idx == 0, 5);
            }
        }
        const int slots = splits / split_cluster;  // partial tiles per tile in the workspace
        if (p.split_mode == static_cast<int>(SplitMode::parallel) && slots > 1) {  // slots: 1 in the twin
            parallel_split_reduce<Config>(p, num_ctiles, ctiles_n, slots);
        }
        GRAPHGEMM_TRACE(wg_leader && wg_idx == 0, 6);
        if (wg_leader) tma_store_wait<0>();
        GRAPHGEMM_TRACE(wg_leader && wg_idx == 0, 7);
    }

    // NOTES: a CTA must not exit while its peer may still arrive on its empty barriers.
    if constexpr (kCluster > 1) cluster_sync();
#else
    // NOTES: built for a target without WGMMA/TMA (anything but sm_90a). Trap rather than return
    // silently with D unwritten; the host side refuses such a binary at plan time already.
    __trap();
#endif
}

// Split-K through the workspace: zeroes its counters (`n16` 16-byte units) on the run's stream
// before the GEMM kernel, which is launched programmatically after it (Gemm::launch): the GEMM's
// CTAs start at once (this kernel lets them at entry) and touch the counters only after
// griddep_wait(), which returns once this grid has completed and its stores are visible. This
// kernel writes only after its own griddep_wait(): launched normally it starts after everything
// before it in the stream; launched programmatically (GemmParams::programmatic) it may start
// while the previous kernel finishes, and waits for it (the previous user of the workspace, or a
// kernel that waited for that one).
// NOTES: replaces a memset node, after which the GEMM kernel could only start once the memset
// was done: -1.6 to -2.4 us per split launch in a graph (H100, session 13; sm90_trace's `memset`
// argument rebuilds the old launch).
template <int kThreads>
__global__ void __launch_bounds__(kThreads) sm90_zero_counters_kernel(int4* counters, unsigned n16) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    griddep_launch_dependents();
    griddep_wait();
#endif
    for (unsigned i = threadIdx.x; i < n16; i += kThreads) counters[i] = make_int4(0, 0, 0, 0);
}

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
