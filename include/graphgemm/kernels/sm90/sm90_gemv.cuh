// graphgemm: decode GEMM for Hopper (sm_90a), 8 or 16 tokens a pass (automatic takes 8 at M <= 8,
// and 16 at M = 9..16 where swap-AB would leave SMs idle; any M runs, in passes): the weights
// streamed with plain 16-byte loads into registers, multiplied with mma.sync (m16n8k16), no TMA,
// no shared-memory ring (a per-lane cp.async ring measured slower, session 40).
//
//   D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc    = sum_k A[m,k] * B[k,n]  (bf16/fp16 in, fp32 accumulate; B stored N x K)
//
// Why (docs/sm90_notes.md, "Session 39"): at M = 1..16 a GEMM reads its weights once and does
// almost no arithmetic, so its time is the weight bytes over DRAM bandwidth plus what the kernel
// costs before its first load and after its last. The TMA kernels pay barrier set-up, a tensor-map
// fetch and a pipeline fill before the first byte arrives (session 19's trace: the first TMA load
// 1.3-1.7 us after entry), and the swap-AB tile (64 weight rows a CTA) leaves half the SMs idle at
// N = 4096. Here every thread issues its loads at entry, and a CTA is 16 weight rows.
//
// Work: CTA (x, y) owns weight rows [16 x, 16 x + 16) and token tiles y, y + gridDim.y, ... of
// Tokens rows each; its kWarpsK warps split K into 32-column chunks, warp w taking chunks w,
// w + kWarpsK, ... (neighbouring warps read neighbouring 64-byte pieces of the same rows, so a
// row's 128-byte lines are requested together). Per chunk a lane loads 8 consecutive k of weight
// rows g and g + 8 (g = lane / 4) and of token rows g (and g + 8 with 16 tokens), at column
// 8 (lane % 4): one 16-byte load each. Those registers ARE mma.sync fragments once K is permuted
// within the chunk: the k-slots {2t, 2t+1} and {2t+8, 2t+9} (t = lane % 4) of the chunk's first
// m16n8k16 hold columns 8t + {0,1} and 8t + {2,3}, those of the second 8t + {4,5} and
// 8t + {6,7}; A (weights) and B (tokens) use the same permutation, so the products pair the same
// k. Accumulator layout = the swap-AB kernel's (weight row 16 x + g (+8), token 8j + 2t + {0,1}),
// so its epilogue (detail::store_swapped) stores D.
// Rows past N and tokens past M read the last valid row (in bounds; their results are not stored);
// columns past K are zero in both operands (loads guarded in the last chunk only).
// The warps' partial sums meet in shared memory and are added in warp order: deterministic.
// Programmatic launch (PDL): the first chunks of each lane's weight rows are prefetched into L2
// before griddepcontrol.wait (an L2 prefetch, not a load: the previous kernel may write them).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "sm90_gemm_launch.cuh"
#include "sm90_gemm_swapab.cuh"
#include "sm90_gemm_types.hpp"
#include "sm90_primitives.cuh"

namespace graphgemm::kernels::sm90 {

// Tokens: 8 or 16 (tokens per pass: one or two n8 mma tiles); WarpsK: warps splitting K (the
// CTA's threads: 32 WarpsK); Unroll: chunks of 32 columns a warp loads as one batch (with the next
// batch issued before this one's products: 2 x 2 x Unroll weight loads and 2 x Tokens / 8 x Unroll
// token loads in flight per lane); CtasPerSm: the CTAs an SM the compiled kernel fits (its
// registers a thread: ptxas -v), by which the heuristic sizes the grid's waves
// (KernelInfo::ctas_per_sm; the GPU test Sm90.EveryKernelFitsItsCtasPerSm checks it with the
// occupancy API). NOTES: not a __launch_bounds__ minimum: given that budget ptxas allocated more
// registers (gemv8_w16 82 -> 120, gemv16_w16 118 -> 122) and other code (session 42).
template <class ElementAB_, class ElementD_, int Tokens_, int WarpsK_, int Unroll_, int CtasPerSm_>
struct GemvConfig {
    using ElementAB = ElementAB_;
    using ElementD = ElementD_;
    static constexpr Schedule kSchedule = Schedule::gemv;
    static constexpr int kTokens = Tokens_;
    static constexpr int kTokenTiles = Tokens_ / 8;
    static constexpr int kWarpsK = WarpsK_;
    static constexpr int kUnroll = Unroll_;
    static constexpr int kRows = 16;      // weight rows a CTA (mma's M)
    static constexpr int kChunk = 32;     // columns a warp step (two m16n8k16)
    static constexpr int kThreads = 32 * kWarpsK;
    static constexpr int kCtasPerSm = CtasPerSm_;
    // (KernelInfo: block_m = tokens, block_n = weight rows, block_k = a chunk, stages = Unroll.)
    static constexpr int kBlockM = kTokens;
    static constexpr int kBlockN = kRows;
    static constexpr int kBlockK = kChunk;
    static constexpr int kStages = kUnroll;
    static constexpr int kClusterM = 1, kClusterN = 1, kClusterSize = 1;
    static constexpr bool kBKMajor = true;
    static constexpr int kConsumerWGs = (kWarpsK + 3) / 4;
    static constexpr int kSmemBytes = 0;  // static: the warps' partial sums
    static constexpr int kAccum = 4 * kTokenTiles;

    static_assert(std::is_same_v<ElementAB, __nv_bfloat16> || std::is_same_v<ElementAB, __half>);
    static_assert(std::is_same_v<ElementD, __nv_bfloat16> || std::is_same_v<ElementD, __half> ||
                  std::is_same_v<ElementD, float>);
    static_assert(kTokens == 8 || kTokens == 16);
    static_assert(kWarpsK >= 1 && kWarpsK <= 32 && kUnroll >= 1);
    static_assert(kCtasPerSm >= 1 && kCtasPerSm * kThreads <= 2048, "at most 2048 threads an SM");
};

namespace detail {

// The by-value kernel parameter: the epilogue's parameters (KernelParams: m, n, k, C, D, bias,
// scales, alpha, beta) and A, B by pointer.
struct GemvParams {
    KernelParams p;
    const void* a;
    long long lda;
    const void* b;
    long long ldb;
};

// One m16n8k16 mma.sync: c += A (16 x 16, row) * B (16 x 8, col), fp32 accumulate.
template <bool Bf16>
__device__ __forceinline__ void mma_16816(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                          uint32_t b0, uint32_t b1) {
    if constexpr (Bf16) {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
}

// 16 bytes of the tokens: every CTA reads them (L1 / L2 hits). (The weights: ld_stream, not kept in L1.)
__device__ __forceinline__ uint4 ldg_keep(const void* p) {
    uint4 v;
    asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ void prefetch_l2(const void* p) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// 8 elements at row[k..k+8), zero from column `kend` on (the last chunk only).
template <class T>
__device__ __forceinline__ uint4 load8_tail(const T* row, int k, int kend) {
    if (k + 8 <= kend) return ldg_keep(row + k);
    union {
        uint4 v;
        unsigned short h[8];
    } u;
    u.v = make_uint4(0, 0, 0, 0);
    const unsigned short* s = reinterpret_cast<const unsigned short*>(row);
#pragma unroll
    for (int e = 0; e < 8; ++e)
        if (k + e < kend) u.h[e] = s[k + e];
    return u.v;
}

// The products of one 32-column chunk: weight rows (w_lo: g, w_hi: g + 8) times each token tile.
template <bool Bf16, int TT>
__device__ __forceinline__ void mma_chunk(float (&acc)[4 * TT], const uint4& w_lo, const uint4& w_hi,
                                          const uint4 (&x)[TT]) {
#pragma unroll
    for (int t = 0; t < TT; ++t) {
        float(&c)[4] = *reinterpret_cast<float(*)[4]>(&acc[4 * t]);
        mma_16816<Bf16>(c, w_lo.x, w_hi.x, w_lo.y, w_hi.y, x[t].x, x[t].y);
        mma_16816<Bf16>(c, w_lo.z, w_hi.z, w_lo.w, w_hi.w, x[t].z, x[t].w);
    }
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads)
    sm90_gemv_kernel(const __grid_constant__ GemvParams gp) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
    using T = typename Config::ElementAB;
    using ElementD = typename Config::ElementD;
    constexpr bool kBf16 = std::is_same_v<T, __nv_bfloat16>;
    constexpr int TT = Config::kTokenTiles;
    constexpr int W = Config::kWarpsK;
    constexpr int U = Config::kUnroll;
    constexpr int kAcc = Config::kAccum;
    __shared__ float partial[W][kAcc][32];

    const KernelParams& p = gp.p;
    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
    const int g = lane / 4, col = 8 * (lane % 4);
    const int n0 = static_cast<int>(blockIdx.x) * Config::kRows;
    const int K = p.k;
    const T* w_lo = static_cast<const T*>(gp.b) + static_cast<long long>(min(n0 + g, p.n - 1)) * gp.ldb + col;
    const T* w_hi = static_cast<const T*>(gp.b) + static_cast<long long>(min(n0 + g + 8, p.n - 1)) * gp.ldb + col;
    const int full = K / Config::kChunk;  // chunks with all 32 columns inside K
    const int chunks = (K + Config::kChunk - 1) / Config::kChunk;

    if (p.pdl_prefetch_kb > 0) {  // programmatic launch: this lane's first weight lines into L2
        for (int c = warp; c < min(full, W * U); c += W) {
            prefetch_l2(w_lo + c * Config::kChunk);
            prefetch_l2(w_hi + c * Config::kChunk);
        }
    }
    griddep_wait();

    for (int m0 = static_cast<int>(blockIdx.y) * Config::kTokens; m0 < p.m;
         m0 += static_cast<int>(gridDim.y) * Config::kTokens) {
        const T* xrow[TT];
#pragma unroll
        for (int t = 0; t < TT; ++t)
            xrow[t] = static_cast<const T*>(gp.a) + static_cast<long long>(min(m0 + 8 * t + g, p.m - 1)) * gp.lda + col;
        float acc[kAcc];
#pragma unroll
        for (int i = 0; i < kAcc; ++i) acc[i] = 0.0f;

        // Whole chunks, U at a time, software-pipelined: the next U chunks' loads are issued before
        // this U's products, so a warp keeps 2U chunks of loads in flight while its mma.sync wait
        // (issued in order, a warp stalls at its first mma whose operands have not arrived).
        int c = warp;
        if (c + W * (U - 1) < full) {
            uint4 wl[2][U], wh[2][U], x[2][U][TT];
            auto load_batch = [&](int buf, int c0) {
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const int k = (c0 + W * u) * Config::kChunk;
                    wl[buf][u] = ld_stream(w_lo + k);
                    wh[buf][u] = ld_stream(w_hi + k);
#pragma unroll
                    for (int t = 0; t < TT; ++t) x[buf][u][t] = ldg_keep(xrow[t] + k);
                }
            };
            auto mma_batch = [&](int buf) {
#pragma unroll
                for (int u = 0; u < U; ++u) mma_chunk<kBf16, TT>(acc, wl[buf][u], wh[buf][u], x[buf][u]);
            };
            // One step: the next batch's loads into the other buffer (if whole), this buffer's
            // products; false after the last batch. Two steps an iteration, buffer 0 then 1, so
            // each buffer index is a constant and the buffers alternate without copies.
            auto step = [&](auto buf_constant) {
                constexpr int buf = decltype(buf_constant)::value;
                const int next = c + W * U;
                const bool more = next + W * (U - 1) < full;
                if (more) load_batch(1 - buf, next);
                mma_batch(buf);
                c = next;
                return more;
            };
            load_batch(0, c);
            while (step(std::integral_constant<int, 0>{}) && step(std::integral_constant<int, 1>{})) {
            }
        }
        for (; c < chunks; c += W) {  // the rest, the partial chunk last
            const int k = c * Config::kChunk;
            uint4 wl, wh, x[TT];
            if (c < full) {
                wl = ld_stream(w_lo + k);
                wh = ld_stream(w_hi + k);
#pragma unroll
                for (int t = 0; t < TT; ++t) x[t] = ldg_keep(xrow[t] + k);
            } else {
                const int kend = K - col;  // columns past K (relative to this lane's row pointers)
                wl = load8_tail(w_lo, k, kend);
                wh = load8_tail(w_hi, k, kend);
#pragma unroll
                for (int t = 0; t < TT; ++t) x[t] = load8_tail(xrow[t], k, kend);
            }
            mma_chunk<kBf16, TT>(acc, wl, wh, x);
        }
        griddep_launch_dependents();  // this CTA's loads are issued (the first call counts)

        // The warps' partial sums, added in warp order by warp 0, which stores D.
        if constexpr (W > 1) {
#pragma unroll
            for (int i = 0; i < kAcc; ++i) partial[warp][i][lane] = acc[i];
            __syncthreads();
            if (warp == 0) {
                for (int w = 1; w < W; ++w) {
#pragma unroll
                    for (int i = 0; i < kAcc; ++i) acc[i] += partial[w][i][lane];
                }
            }
        }
        if (warp == 0) store_swapped<ElementD, Config::kTokens>(p, acc, m0, n0, 0, lane);
        if constexpr (W > 1) __syncthreads();  // partial[] is rewritten by the next token tile
    }
#else
    __trap();
#endif
}

// e.g. "sm90_bf16_bf16_gemv8_w8_u2_bk": inputs, output, tokens a pass, warps, chunks a batch.
template <class Config>
constexpr ConfigName make_gemv_name() {
    ConfigName s;
    append_name_dtypes<Config>(s);
    s.append("gemv");
    s.append(Config::kTokens);
    s.append("_w");
    s.append(Config::kWarpsK);
    s.append("_u");
    s.append(Config::kUnroll);
    s.append("_bk");
    return s;
}
template <class Config>
inline constexpr ConfigName kGemvName = make_gemv_name<Config>();

}  // namespace detail

// The launcher, with the interface of Gemm<Config> (sm90_gemm_launch.cuh) that the instance table
// uses. One kernel parameter (GemvParams); grid (ceil(N / 16), token tiles of M, at most 65535:
// the kernel strides over the rest). A graph node keeps the grid it recorded (its max_m); a
// smaller M leaves the CTAs past it without work.
template <class Config>
struct Gemv {
    using ElementAB = typename Config::ElementAB;
    using ElementD = typename Config::ElementD;

    struct LaunchArgs {
        detail::GemvParams params;
        dim3 grid, block, cluster;
        size_t smem;
        bool programmatic;
    };

    static constexpr Schedule schedule() { return Schedule::gemv; }
    static constexpr bool supports_split_cluster(int) { return false; }
    static int split_cluster_capacity(int, int) { return 0; }

    static constexpr const char* name() { return detail::kGemvName<Config>.data; }

    static const void* kernel_function() { return reinterpret_cast<const void*>(&detail::sm90_gemv_kernel<Config>); }
    static const void* kernel_function(const LaunchArgs&) { return kernel_function(); }

    static int kernel_args(const LaunchArgs& la, void* args[4]) {
        args[0] = const_cast<detail::GemvParams*>(&la.params);
        return 1;
    }

    static cudaError_t initialize(int device) { return detail::require_sm90(device); }

    static cudaError_t make_launch_args(const GemmParams& p, int num_sms, LaunchArgs& la, bool full_grid = false) {
        (void)num_sms, (void)full_grid;
        // No split-K of any kind; the same operand rules as the TMA kernels (16-byte rows).
        if (p.splits != 1 || p.split_mode != SplitMode::none || p.split_cluster != 1) return cudaErrorInvalidValue;
        if (!detail::operands_ok<ElementAB, ElementD, true>(p)) return cudaErrorInvalidValue;

        la.params.p = detail::common_params(p);
        la.params.p.pdl_prefetch_kb = p.programmatic ? 1 : 0;  // here a flag: prefetch the first batch
        la.params.a = p.a, la.params.lda = p.lda;
        la.params.b = p.b, la.params.ldb = p.ldb;
        la.programmatic = p.programmatic;
        const long long row_blocks = (static_cast<long long>(p.n) + Config::kRows - 1) / Config::kRows;
        const long long token_tiles = (static_cast<long long>(p.m) + Config::kTokens - 1) / Config::kTokens;
        if (row_blocks > 0x7fffffffll) return cudaErrorInvalidValue;
        la.grid = dim3(static_cast<unsigned>(row_blocks), static_cast<unsigned>(std::min(token_tiles, 65535ll)), 1);
        la.block = dim3(Config::kThreads, 1, 1);
        la.cluster = dim3(1, 1, 1);
        la.smem = 0;
        return cudaSuccess;
    }

    static cudaError_t launch(const LaunchArgs& la, cudaStream_t stream) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = la.grid;
        cfg.blockDim = la.block;
        cfg.dynamicSmemBytes = 0;
        cfg.stream = stream;
        cudaLaunchAttribute attr[1] = {detail::programmatic_attribute()};
        cfg.attrs = attr;
        cfg.numAttrs = la.programmatic ? 1 : 0;
        return cudaLaunchKernelEx(&cfg, &detail::sm90_gemv_kernel<Config>, la.params);
    }
};

}  // namespace graphgemm::kernels::sm90
