// graphgemm: a chain of GEMMs in ONE persistent launch (sm_90a): x_{l+1} = epilogue_l(x_l · W_lᵀ)
// for l = 0..L-1, x_0 the input (M x K_0), x_L the output, the activations between in the
// workspace. Layer l+1's tiles of an M block start once every tile of that M block of layer l is
// stored (a counter per layer and M block), so one launch replaces L and its graph node has ONE
// parameter block to update per step.
//
// Why (issue 4, docs/sm90_notes.md "Session 29"): a synchronized decode step of 4 GEMM nodes pays
// 4 host updates of 640-byte parameter blocks (4.6-4.9 us on H100) and ran 1.18-1.31x a static
// replay; the driver's update costs ~0.66 us + ~0.77 us per KB of parameters
// (tools/diag/chain_node_probe.cu). So the chain kernel's parameter (ChainStepParams) holds only
// what a step changes: M, the input and output tensor maps, each layer's scale_a and alpha (~400
// bytes). Everything fixed — the weights' and the activations' tensor maps, N, K, the biases — is
// a table the setup kernel copies into the workspace on every launch from its own parameter (a
// graph node nobody updates) while it zeroes the counters; the chain kernel follows it
// programmatically (its CTAs start at once and read the table after griddep_wait()).
//
// Kernel: the cooperative sm90 kernel's pieces (GemmConfig, load_stage, consume_unit,
// store_block), cluster 1x1, B stored N x K, 16-bit in = out (an output feeds the next layer's
// A); one tile configuration, or two chosen by M at each launch (session 31: 64x64 while its
// tiles fit the 64x128 grid in one wave, hidden 4096 M <= 128: 61-65 against 68-71 us a chain of
// 4 on H100; the table holds W_l's tensor map in both tiles' boxes). Every CTA walks the layers in order and, within one, its tiles in the persistent
// scheduler's order; its rows' producer thread waits for the M block's counter of the layer before
// (deadlock-free on a co-resident grid: the lowest unfinished layer never waits) while its weights'
// producer thread runs ahead through the ring. The activations' tensor maps
// span max_m rows (fixed); rows M..max_m-1 of them may hold anything (rows are independent in a
// GEMM, and only rows < M of the output are stored: its map has M rows).
//
// Memory ordering of a hand-over (a TMA store read by another SM's TMA load): the storing
// warpgroup leader waits for its bulk stores to complete (cp.async.bulk.wait_group 0), fences the
// async proxy, the CTA's consumers meet at a named barrier and one thread adds 1 to the counter
// with release semantics at GPU scope; the waiting producer acquires it, fences the async proxy
// and only then issues its TMA loads.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sm90_gemm.cuh"
#include "sm90_gemm_launch.cuh"
#include "sm90_gemm_types.hpp"

namespace graphgemm::kernels::sm90 {

namespace detail {

// One layer's fixed parameters, in the workspace (the setup kernel writes them every launch).
struct alignas(128) ChainLayerTable {
    CUtensorMap tma_b[2];  // W_l: N_l x K_l, K-major, in the boxes of the small-M tile [0] and the
                           // other [1] (the same map twice in a chain of one tile)
    CUtensorMap tma_in;   // l > 0: x_l in the workspace (max_m x K_l)
    CUtensorMap tma_out;  // l < L-1: x_{l+1} in the workspace (max_m x N_l)
    const void* bias;     // N_l entries of bias_type, or nullptr
    void* out;            // l < L-1: x_{l+1}
    long long ld_out;
    int n, k;
    int bias_type;        // BiasType
};

// The setup kernel's parameter: the table (by value) and where it goes.
struct ChainSetupParams {
    ChainLayerTable layer[kMaxChainLayers];
    ChainLayerTable* table;  // workspace
    int4* counters;          // workspace: zeroed
    unsigned counter_n16;    // 16-byte units of counters
    int layers;
};

// The chain kernel's parameter: what a step may change (graph updates rewrite only this).
struct ChainStepParams {
    CUtensorMap tma_in;   // x_0: M x K_0
    CUtensorMap tma_out;  // x_L: M x N_{L-1}
    const ChainLayerTable* table;
    int* counters;        // [layer][M block of BlockM rows]: tiles of the block stored
    void* out;            // x_L
    long long ld_out;
    int m;
    int layers;
    int raster_group;
    int counter_stride;   // counters per layer (M blocks of max_m)
    int small_max_m;      // M <= small_max_m: the chain's small-M tile (two-tile chains), else the other
    int a0_rows;          // rows of x_0's box (tma_in): BlockM, or M rounded up to 8 where M < BlockM
    const float* scale_a[kMaxChainLayers];  // per-row scale of layer l, or nullptr
    float alpha[kMaxChainLayers];
};

// One CTA: copies the table into the workspace and zeroes the counters. It lets the chain kernel
// launch at once and writes only after its own griddep_wait() (launched normally it starts after
// everything before it in the stream, the previous user of the workspace included).
template <int kThreads>
__global__ void __launch_bounds__(kThreads) sm90_chain_setup_kernel(const __grid_constant__ ChainSetupParams sp) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    griddep_launch_dependents();
    griddep_wait();
#endif
    const int4* src = reinterpret_cast<const int4*>(sp.layer);
    int4* dst = reinterpret_cast<int4*>(sp.table);
    const unsigned n16 = static_cast<unsigned>(sp.layers) * (sizeof(ChainLayerTable) / 16);
    for (unsigned i = threadIdx.x; i < n16; i += kThreads) dst[i] = src[i];
    for (unsigned i = threadIdx.x; i < sp.counter_n16; i += kThreads) sp.counters[i] = make_int4(0, 0, 0, 0);
}

// Diagnostics only (tools/diag/chain_trace.cu defines GRAPHGEMM_SM90_TRACE; the library's kernels
// record nothing): per CTA and layer l < kChainTraceLayers, g_chain_trace[cta][4l + e] holds the
// %globaltimer of its (last) tile's e = 0 producer waiting for the layer before (layer 0: the
// table acquired), 1 the wait over (its loads go out), 2 main loop done, 3 tile handed over (the
// last layer: stored); [16] the CTA's SM.
inline constexpr int kChainTraceLayers = 4;
#ifdef GRAPHGEMM_SM90_TRACE
__device__ unsigned long long g_chain_trace[1024][17];
#define GRAPHGEMM_CHAIN_TRACE(cond, slot)                   \
    do {                                                    \
        if (cond) trace_event_to(g_chain_trace, slot);      \
    } while (0)
#else
#define GRAPHGEMM_CHAIN_TRACE(cond, slot) ((void)0)
#endif

// One launch of the chain in one tile configuration; kTile: which of the table's two B maps its
// boxes match (ChainLayerTable::tma_b).
template <class Config, int kTile>
__device__ __forceinline__ void chain_body(const ChainStepParams& cp, uint8_t* smem_raw) {
    using ElementD = typename Config::ElementD;
    constexpr int BM = Config::kBlockM;
    constexpr int BN = Config::kBlockN;
    constexpr int BK = Config::kBlockK;
    constexpr int kStages = Config::kStages;
    constexpr int kConsumerWGs = Config::kConsumerWGs;
    static_assert(Config::kClusterSize == 1 && Config::kBKMajor, "chain: cluster 1x1, B stored N x K");
    static_assert(BK == 64 && Config::kBoxAOuter == BM && Config::kSmemAStage == BM * 128,
                  "chain: stages of one k-block, A one box of BlockM rows (the short x_0 box below)");
    using Mma = Wgmma<BN, std::is_same_v<typename Config::ElementAB, __nv_bfloat16>, 0>;
    using Scheduler = TileScheduler<BM, BN, 1, 1>;

    const SmemCarve<Config::kOffBar, Config::kBarBytes> carve(smem_u32(smem_raw));
    const uint32_t smem_a = carve.base + Config::kOffA;
    const uint32_t smem_b = carve.base + Config::kOffB;
    const uint32_t smem_d = carve.base + Config::kOffD;
    const uint32_t bar_full = carve.bars;
    const uint32_t bar_empty = bar_full + 8 * kStages;

    const uint32_t warp_idx = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    const uint32_t lane = threadIdx.x % 32;
    const uint32_t wg_idx = warp_idx / 4;

    if (threadIdx.x == kConsumerWGs * 128) {
        tma_prefetch_descriptor(&cp.tma_in);
        tma_prefetch_descriptor(&cp.tma_out);
#pragma unroll
        for (int s = 0; s < kStages; ++s) {
            mbar_init(bar_full + 8 * s, 2);  // the weights' and the rows' producer threads
            mbar_init(bar_empty + 8 * s, kConsumerWGs * 4);
        }
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    __syncthreads();

    const int layers = cp.layers;
    if (wg_idx == kConsumerWGs) {
        // ======================== Producer warpgroup (TMA) ========================
        // Two threads fill each stage, each arriving on its full barrier (count 2) with its bytes:
        // the weights' thread its B box, waiting for nothing but the ring (the weights do not
        // depend on the layer before: at a hand-over the ring already holds up to kStages k-blocks
        // of the next tile's weights), and the rows' thread its A box once the layer before has
        // handed the M block over (session 48: 1-3 µs less a chain of 4 than one thread loading
        // both after the hand-over, with the first k-blocks of B pulled into L2 meanwhile).
        setmaxnreg_dec<Config::kProducerRegs>();
        if (warp_idx == kConsumerWGs * 4 + 1 && lane == 0) {
            griddep_wait();  // the table (setup kernel)
            for (int l = 0; l < layers; ++l) fence_tensormap_acquire(&cp.table[l].tma_b[kTile]);
            uint32_t stage = 0, phase = 0;
            for (int l = 0; l < layers; ++l) {
                const ChainLayerTable* t = cp.table + l;
                const CUtensorMap* map_b = &t->tma_b[kTile];
                const int k_blocks = (t->k + BK - 1) / BK;
                Scheduler sched(cp.m, t->n, cp.raster_group, 0, 1);
                int tile_m, tile_n, slice;
                while (sched.next(tile_m, tile_n, slice)) {
                    for (int kb = 0; kb < k_blocks; ++kb) {
                        mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                        const uint32_t full = bar_full + 8 * stage;
                        mbar_arrive_expect_tx(full, Config::kSmemBStage);
                        tma_load_2d(smem_b + stage * Config::kSmemBStage, map_b, full, kb * BK, tile_n * BN);
                        ring_step<kStages>(stage, phase);
                    }
                }
            }
        } else if (warp_idx == kConsumerWGs * 4 && lane == 0) {
            griddep_wait();  // the table and counters (setup kernel), x_0 (whoever wrote it)
            for (int l = 1; l < layers; ++l) fence_tensormap_acquire(&cp.table[l].tma_in);
            GRAPHGEMM_CHAIN_TRACE(true, 0);  // (trace builds: see kChainTraceLayers)
            GRAPHGEMM_CHAIN_TRACE(true, 1);
            uint32_t stage = 0, phase = 0;
            int prev_tiles_n = 0;
            for (int l = 0; l < layers; ++l) {
                const ChainLayerTable* t = cp.table + l;
                const CUtensorMap* map_a = l == 0 ? &cp.tma_in : &t->tma_in;
                const int k_blocks = (t->k + BK - 1) / BK;
                const int* ready = cp.counters + (l - 1) * cp.counter_stride;  // used for l > 0
                // M < BlockM: x_0's box holds M rows rounded up to 8 (a box mostly past M is slow to
                // zero-fill, session 32; hidden 4096, M = 1: layer 0's main loop 16.4 against 11.8
                // us a later layer's). The stage's rows past it keep what they held: they only feed
                // output rows >= M, which no layer reads for a row < M and the last one does not store.
                const bool short_a = l == 0 && cp.a0_rows < BM;
                const uint32_t a_bytes = short_a ? static_cast<uint32_t>(cp.a0_rows) * 128 : Config::kSmemAStage;
                Scheduler sched(cp.m, t->n, cp.raster_group, 0, 1);
                int tile_m, tile_n, slice;
                while (sched.next(tile_m, tile_n, slice)) {
                    // Layer 0's input map spans M rows (edge_box_row; row 0 for the one, partial tile
                    // of M < BlockM); the later layers' span max_m, so their boxes stay where they
                    // are (INT_MAX: no tile ends past it).
                    const int a_row0 = edge_box_row(tile_m * BM, l == 0 ? cp.m : INT_MAX, BM);
                    if (l > 0) {
                        GRAPHGEMM_CHAIN_TRACE(l < kChainTraceLayers, 4 * l);
                        wait_flag_at_least(ready + tile_m, prev_tiles_n);
                        fence_proxy_async_global();
                        GRAPHGEMM_CHAIN_TRACE(l < kChainTraceLayers, 4 * l + 1);
                    }
                    for (int kb = 0; kb < k_blocks; ++kb) {
                        mbar_wait(bar_empty + 8 * stage, phase ^ 1);
                        const uint32_t full = bar_full + 8 * stage;
                        mbar_arrive_expect_tx(full, a_bytes);
                        tma_load_2d(smem_a + stage * Config::kSmemAStage, map_a, full, kb * BK, a_row0);
                        ring_step<kStages>(stage, phase);
                    }
                }
                prev_tiles_n = sched.tiles_n;
            }
            griddep_launch_dependents();  // PDL: every row load of this CTA is issued (the weights' run ahead)
        }
        __syncwarp();
    } else {
        // ======================== Consumer warpgroups (WGMMA + epilogue) ========================
        setmaxnreg_inc<Config::kConsumerRegs>();
        griddep_wait();
        const uint32_t warp_in_wg = warp_idx % 4;
        const bool wg_leader = (threadIdx.x % 128) == 0;
        if (wg_leader)
            for (int l = 0; l + 1 < layers; ++l) fence_tensormap_acquire(&cp.table[l].tma_out);

        const uint64_t desc_a0 = make_smem_desc_sw128(smem_a + wg_idx * 64 * 128, 0, 1024);
        const uint64_t desc_b0 = make_smem_desc_sw128(smem_b, 0, 1024);
        auto release_stage = [&](uint32_t s) { release_stage_of<1>(bar_empty + 8 * s, lane); };

        float acc[Mma::kNumAccum];
#pragma unroll
        for (int i = 0; i < Mma::kNumAccum; ++i) acc[i] = 0.0f;
        uint32_t stage = 0, phase = 0;
        uint32_t epi_buf = 0;
        // (an opaque value: see sm90_gemm_kernel's NOTES on a single staging buffer)
        if constexpr (Config::kEpiBufs == 1) asm volatile("" : "+r"(epi_buf));

        for (int l = 0; l < layers; ++l) {
            const ChainLayerTable* t = cp.table + l;
            const bool last = l + 1 == layers;
            KernelParams kp{};
            kp.m = cp.m;
            kp.n = t->n;
            kp.k = t->k;
            kp.bias_type = t->bias_type;
            kp.bias = t->bias;
            kp.alpha = cp.alpha[l];
            kp.beta = 0.0f;
            kp.c = nullptr;
            kp.d = last ? cp.out : t->out;
            kp.ldd = last ? cp.ld_out : t->ld_out;
            kp.n_tma = t->n;  // N is a multiple of 8 (the launcher checks): whole 16-byte units
            kp.scale_a = cp.scale_a[l];
            kp.scale_b = nullptr;
            const CUtensorMap* map_d = last ? &cp.tma_out : &t->tma_out;
            const int k_blocks = (t->k + BK - 1) / BK;
            int* done = cp.counters + l * cp.counter_stride;
            Scheduler sched(cp.m, t->n, cp.raster_group, 0, 1);
            int tile_m, tile_n, slice;
            while (sched.next(tile_m, tile_n, slice)) {
                const int m0 = tile_m * BM;
                const int n0 = tile_n * BN;
                consume_unit<Mma, kStages, BK, Config::kSmemAStage, Config::kSmemBStage, operand_k_step_bytes(true)>(
                    acc, stage, phase, 0, k_blocks, bar_full,
                    desc_advance(desc_a0, edge_row_bytes(m0, l == 0 ? cp.m : INT_MAX, BM) / 16),  // as the producer's a_row0
                    desc_b0, release_stage, [] {});
                GRAPHGEMM_CHAIN_TRACE(threadIdx.x == 0 && l < kChainTraceLayers, 4 * l + 2);
                const int row_base = m0 + static_cast<int>(wg_idx) * 64;
                const bool in_bounds = row_base < cp.m;  // warpgroup-uniform
                if (in_bounds) {
                    store_block<ElementD, BN, Config::kEpiCols, Config::kEpiBufs, Config::kEpiBufBytes>(
                        kp, map_d, acc, row_base, n0, smem_d + wg_idx * Config::kEpiBufs * Config::kEpiBufBytes,
                        epi_buf, 1 + wg_idx, wg_leader, static_cast<int>(warp_in_wg), static_cast<int>(lane));
                }
                if (!last) {  // uniform: hand the tile over to the next layer's producers
                    if (wg_leader && in_bounds) {
                        tma_store_wait<0>();
                        fence_proxy_async_global();
                    }
                    named_barrier_sync(3, kConsumerWGs * 128);
                    if (threadIdx.x == 0) red_release_gpu_add(done + tile_m, 1);
                }
                GRAPHGEMM_CHAIN_TRACE(threadIdx.x == 0 && l < kChainTraceLayers, 4 * l + 3);
            }
        }
        if (wg_leader) tma_store_wait<0>();
    }
}

// The chain kernel: one tile configuration (Small = Large), or two, chosen by M at every launch
// (M <= small_max_m: Small), so that a graph node keeps ONE function while M moves across them
// (a node whose function changes on update pays ~2 us a step more: docs/sm90_notes.md, "Session
// 30"). Every tile gives the same bits (each output element sums the same k16 wgmma steps in the
// same order), so a two-tile chain is bit for bit equal to either tile's layers.
template <class Small, class Large>
__global__ void __launch_bounds__(Large::kThreads, 1)
    sm90_gemm_chain_kernel(const __grid_constant__ ChainStepParams cp) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ __align__(16) uint8_t smem_raw[];
    if constexpr (std::is_same_v<Small, Large>) {
        chain_body<Large, 1>(cp, smem_raw);
    } else if (cp.m <= cp.small_max_m) {
        chain_body<Small, 0>(cp, smem_raw);
    } else {
        chain_body<Large, 1>(cp, smem_raw);
    }
#else
    __trap();
#endif
}

}  // namespace detail

// A chain launch's arguments (the same struct for every configuration).
struct ChainLaunchArgs {
    detail::ChainSetupParams setup;
    detail::ChainStepParams step;
    dim3 grid, block;
    size_t smem;
    bool programmatic;
};

namespace detail {
// "sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk": a two-tile chain's name, the small-M tile's
// tile and stages, then the other's.
template <class Small, class Large>
constexpr ConfigName make_chain_pair_name() {
    ConfigName s;
    append_name_dtypes<Large>(s);
    append_name_tile<Small>(s);
    s.append("+");
    append_name_tile<Large>(s);
    s.append("_c1x1_bk");
    return s;
}
template <class Small, class Large>
inline constexpr ConfigName kChainPairName = make_chain_pair_name<Small, Large>();
}  // namespace detail

// Host side: the launch of a chain (setup kernel + chain kernel). Header-only like Gemm<Config>.
// One tile configuration (Small = Large), or two: Small where M <= small_max_m, Large above (the
// grid is Large's; small_max_m the most rows whose Small tiles fit it in one wave).
template <class Small, class Large = Small>
struct GemmChain {
    using Config = Large;
    using Element = typename Config::ElementAB;
    static constexpr bool kTwoTiles = !std::is_same_v<Small, Large>;
    static constexpr int kSmallBlockN = kTwoTiles ? Small::kBlockN : 0;
    static_assert(std::is_same_v<Element, typename Config::ElementD>, "chain: output dtype = input dtype");
    static_assert(Config::kClusterSize == 1 && Config::kBKMajor, "chain: cluster 1x1, B stored N x K");
    static_assert(std::is_same_v<typename Small::ElementAB, Element> && std::is_same_v<typename Small::ElementD, Element> &&
                      Small::kClusterSize == 1 && Small::kBKMajor && Small::kBlockM == Config::kBlockM &&
                      Small::kThreads == Config::kThreads && Small::kEpiCols == Config::kEpiCols &&
                      Small::kBoxAInner == Config::kBoxAInner && Small::kBoxAOuter == Config::kBoxAOuter,
                  "two-tile chain: the same rows, threads, A box, output box and counters (only BN and stages differ)");
    static constexpr int kSmemBytes = std::max(Small::kSmemBytes, Config::kSmemBytes);
    static constexpr int kSetupThreads = 128;

    using Layer = ChainLayerArgs;
    using Problem = ChainProblem;
    // Workspace: the table, the counters, then the activations x_1..x_{L-1} (max_m rows each).
    struct WorkspaceLayout {
        unsigned long long counters = 0, counter_bytes = 0;
        unsigned long long act[kMaxChainLayers] = {};
        unsigned long long total = 0;
        int counter_stride = 0;
    };
    static WorkspaceLayout workspace_layout(int max_m, int layers, const int* n) {
        WorkspaceLayout w;
        w.counter_stride = (max_m + Config::kBlockM - 1) / Config::kBlockM;
        unsigned long long off = static_cast<unsigned long long>(layers) * sizeof(detail::ChainLayerTable);
        w.counters = off;
        w.counter_bytes = (static_cast<unsigned long long>(layers) * w.counter_stride * 4 + 255) / 256 * 256;
        off += w.counter_bytes;
        for (int l = 0; l + 1 < layers; ++l) {
            w.act[l] = off;
            off += (static_cast<unsigned long long>(max_m) * n[l] * sizeof(Element) + 255) / 256 * 256;
        }
        w.total = off;
        return w;
    }

    using LaunchArgs = ChainLaunchArgs;

    static constexpr const char* name() {
        if constexpr (kTwoTiles) return detail::kChainPairName<Small, Large>.data;
        else return detail::kConfigName<Config>.data;
    }
    static constexpr const char* small_name() { return detail::kConfigName<Small>.data; }
    static constexpr const char* large_name() { return detail::kConfigName<Large>.data; }
    static const void* chain_function() {
        return reinterpret_cast<const void*>(&detail::sm90_gemm_chain_kernel<Small, Large>);
    }
    static const void* setup_function() {
        return reinterpret_cast<const void*>(&detail::sm90_chain_setup_kernel<kSetupThreads>);
    }

    static cudaError_t initialize(int device) {
        return detail::on_device(device, [] {
            if (detail::encode_tiled_fn() == nullptr) return cudaErrorNotSupported;
            return cudaFuncSetAttribute(chain_function(), cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
        });
    }

    // CTAs of a launch: the most tiles of any layer at max_m, at most one per SM (every CTA must
    // be co-resident: layers wait for each other). Fixed by max_m, so graph updates keep it.
    // (The whole grid with the busy CTAs spread, as GEMMs of few tiles run, measured no faster:
    // docs/sm90_notes.md, "Session 30".)
    static int grid_size(int max_m, int layers, const int* n, int num_sms) {
        return std::min(most_tiles<Config>(max_m, layers, n), num_sms);
    }

    // Two tiles: the most rows (a multiple of BlockM, at most max_m) whose Small tiles of every
    // layer fit the grid in one wave; 0 where not even one row block does, or with one tile.
    static int small_max_m(int max_m, int layers, const int* n, int num_sms) {
        if constexpr (!kTwoTiles) {
            return 0;
        } else {
            const int grid = grid_size(max_m, layers, n, num_sms);
            const int per_block = most_tiles<Small>(1, layers, n);  // tiles of one row block
            const int blocks = std::min(grid / per_block, (max_m + Config::kBlockM - 1) / Config::kBlockM);
            return std::min(blocks * Config::kBlockM, max_m);
        }
    }

    template <class C>
    static int most_tiles(int m, int layers, const int* n) {
        const int tiles_m = (m + C::kBlockM - 1) / C::kBlockM;
        int tiles = 1;
        for (int l = 0; l < layers; ++l) tiles = std::max(tiles, tiles_m * ((n[l] + C::kBlockN - 1) / C::kBlockN));
        return tiles;
    }

    // The setup kernel's parameter: the layers' table (every tensor map of W and of the activations
    // between layers) and where it and the counters go in the workspace `wsp` laid out as `ws`.
    static cudaError_t make_setup_args(const Problem& p, const WorkspaceLayout& ws, char* wsp,
                                       detail::ChainSetupParams& sp) {
        using namespace detail;
        constexpr long long kE = sizeof(Element);
        constexpr CUtensorMapDataType dt = tma_dtype<Element>();
        std::memset(static_cast<void*>(&sp), 0, sizeof sp);
        for (int l = 0; l < p.layers; ++l) {
            const Layer& L = p.layer[l];
            ChainLayerTable& t = sp.layer[l];
            cudaError_t err = encode_tma_2d(&t.tma_b[0], dt, L.w, L.k, L.n, L.ldw * kE, Small::kBoxBInner, Small::kBoxBOuter);
            if (err != cudaSuccess) return err;
            err = encode_tma_2d(&t.tma_b[1], dt, L.w, L.k, L.n, L.ldw * kE, Config::kBoxBInner, Config::kBoxBOuter);
            if (err != cudaSuccess) return err;
            if (l > 0) {
                err = encode_tma_2d(&t.tma_in, dt, wsp + ws.act[l - 1], L.k, p.max_m, L.k * kE, Config::kBoxAInner,
                                    Config::kBoxAOuter);
                if (err != cudaSuccess) return err;
            }
            if (l + 1 < p.layers) {
                t.out = wsp + ws.act[l];
                t.ld_out = L.n;
                err = encode_tma_2d(&t.tma_out, dt, t.out, L.n, p.max_m, L.n * kE, Config::kEpiCols, 64);
                if (err != cudaSuccess) return err;
            }
            t.bias = L.bias;
            t.bias_type = static_cast<int>(L.bias_type);
            t.n = L.n;
            t.k = L.k;
        }
        sp.table = reinterpret_cast<ChainLayerTable*>(wsp);
        sp.counters = reinterpret_cast<int4*>(wsp + ws.counters);
        sp.counter_n16 = static_cast<unsigned>(ws.counter_bytes / 16);
        sp.layers = p.layers;
        return cudaSuccess;
    }

    // Host only, capture-safe. cudaErrorInvalidValue for what the kernel cannot do (the library
    // checks first and says why in words).
    static cudaError_t make_launch_args(const Problem& p, int num_sms, LaunchArgs& la) {
        using namespace detail;
        constexpr long long kE = sizeof(Element);
        if (p.layers < 1 || p.layers > kMaxChainLayers || p.m < 1 || p.m > p.max_m || num_sms < 1)
            return cudaErrorInvalidValue;
        if (p.x == nullptr || p.y == nullptr || !aligned16(p.x) || !aligned16(p.y)) return cudaErrorInvalidValue;
        int n[kMaxChainLayers] = {};
        for (int l = 0; l < p.layers; ++l) {
            const Layer& L = p.layer[l];
            if (L.n < 8 || L.k < 8 || L.n % 8 != 0 || L.k % 8 != 0) return cudaErrorInvalidValue;
            if (l > 0 && L.k != p.layer[l - 1].n) return cudaErrorInvalidValue;
            if (L.w == nullptr || !aligned16(L.w) || L.ldw < L.k || (L.ldw * kE) % 16 != 0) return cudaErrorInvalidValue;
            if ((L.bias == nullptr) != (L.bias_type == BiasType::none)) return cudaErrorInvalidValue;
            n[l] = L.n;
        }
        const Layer& last = p.layer[p.layers - 1];
        if (p.ldx < p.layer[0].k || (p.ldx * kE) % 16 != 0) return cudaErrorInvalidValue;
        if (p.ldy < last.n || (p.ldy * kE) % 16 != 0) return cudaErrorInvalidValue;
        const WorkspaceLayout ws = workspace_layout(p.max_m, p.layers, n);
        if (p.workspace == nullptr || reinterpret_cast<uintptr_t>(p.workspace) % 128 != 0 || p.workspace_bytes < ws.total)
            return cudaErrorInvalidValue;
        char* wsp = static_cast<char*>(p.workspace);

        if (!p.step_only) {
            const cudaError_t err = make_setup_args(p, ws, wsp, la.setup);
            if (err != cudaSuccess) return err;
        }

        constexpr CUtensorMapDataType dt = tma_dtype<Element>();
        ChainStepParams& cp = la.step;
        std::memset(static_cast<void*>(&cp), 0, sizeof cp);
        // x_0 has M rows: where M < BlockM its box holds M rounded up to 8 rows (chain_body).
        cp.a0_rows = p.m < Config::kBlockM ? (p.m + 7) / 8 * 8 : Config::kBoxAOuter;
        cudaError_t err = encode_tma_2d(&cp.tma_in, dt, p.x, p.layer[0].k, p.m, p.ldx * kE, Config::kBoxAInner,
                                        static_cast<uint32_t>(cp.a0_rows));
        if (err != cudaSuccess) return err;
        err = encode_tma_2d(&cp.tma_out, dt, p.y, last.n, p.m, p.ldy * kE, Config::kEpiCols, 64);
        if (err != cudaSuccess) return err;
        cp.table = reinterpret_cast<const ChainLayerTable*>(wsp);
        cp.counters = reinterpret_cast<int*>(wsp + ws.counters);
        cp.out = p.y;
        cp.ld_out = p.ldy;
        cp.m = p.m;
        cp.layers = p.layers;
        cp.raster_group = std::clamp(p.raster_group, 1, kMaxRasterGroup);
        cp.counter_stride = ws.counter_stride;
        for (int l = 0; l < p.layers; ++l) {
            cp.scale_a[l] = p.layer[l].scale_a;
            cp.alpha[l] = p.layer[l].alpha;
        }
        cp.small_max_m = small_max_m(p.max_m, p.layers, n, num_sms);
        la.grid = dim3(static_cast<unsigned>(grid_size(p.max_m, p.layers, n, num_sms)));
        la.block = dim3(Config::kThreads);
        la.smem = kSmemBytes;
        la.programmatic = p.programmatic;
        return cudaSuccess;
    }

    // The setup kernel (programmatic after the kernel before it where asked), then the chain
    // kernel, programmatic after the setup kernel.
    static cudaError_t launch(const LaunchArgs& la, cudaStream_t stream) {
        cudaLaunchAttribute attr[1] = {detail::programmatic_attribute()};
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(1);
        cfg.blockDim = dim3(kSetupThreads);
        cfg.stream = stream;
        cfg.attrs = attr;
        cfg.numAttrs = la.programmatic ? 1 : 0;
        cudaError_t err = cudaLaunchKernelEx(&cfg, &detail::sm90_chain_setup_kernel<kSetupThreads>, la.setup);
        if (err != cudaSuccess) return err;
        cfg.gridDim = la.grid;
        cfg.blockDim = la.block;
        cfg.dynamicSmemBytes = la.smem;
        cfg.numAttrs = 1;
        return cudaLaunchKernelEx(&cfg, &detail::sm90_gemm_chain_kernel<Small, Large>, la.step);
    }
};

}  // namespace graphgemm::kernels::sm90
