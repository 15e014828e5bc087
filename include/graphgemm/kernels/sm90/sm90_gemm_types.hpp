// graphgemm: plain host/device structs shared by the sm90 GEMM kernel, its launcher and the
// non-template instance interface. No device code, no CUDA headers: safe to include anywhere.
#pragma once

#include <cstdint>

namespace graphgemm::kernels::sm90 {

enum class BiasType : int { none = 0, bf16 = 1, fp16 = 2, fp32 = 3 };

// Split-K: the K loop of every output tile is cut into `splits` slices (balanced ranges of 64-wide
// k-blocks), each a separate work unit of the persistent scheduler.
//   serial  : slice s waits on the tile's semaphore until it reads s, adds the fp32 running sum
//             from the workspace to its accumulators, writes it back (or, the last slice, applies
//             the epilogue and stores D) and sets the semaphore to s + 1. Deterministic.
//   parallel: every slice writes its fp32 partial tile to its own workspace slot and counts itself
//             in on the tile's counter; once every CTA has finished its GEMM work it reduces a
//             share of all output rows (waiting on their counters), summing the slices in the
//             fixed order 0..S-1, and applies the epilogue. Deterministic too.
//   stream_k: (`splits` = the most CTAs: workspace slots) whole tiles in the whole waves, then the
//             partial wave's k-blocks in one sequence cut into equal contiguous ranges, one per
//             worker: a CTA, or a cluster, whose CTAs take the same k-blocks of one cluster tile
//             (StreamKPartition). The worker holding a tile's k-block 0 owns it (always the last
//             segment of its range); a segment that starts mid-tile (always a worker's first)
//             writes its fp32 partial to the CTA's workspace slot and raises the CTA's flag; the
//             owner adds those partials in worker order (deterministic) and applies the epilogue.
//             Nobody waits before its last segment: deadlock-free on a co-resident grid. For
//             shapes whose tile count quantizes badly on the SMs.
enum class SplitMode : int { none = 0, serial = 1, parallel = 2, stream_k = 3 };
// The mode's name as the library prints it (GemmPlan::describe, the heuristic's notes, diagnostics).
constexpr const char* split_mode_name(SplitMode m) {
    return m == SplitMode::serial     ? "serial"
           : m == SplitMode::parallel ? "parallel"
           : m == SplitMode::stream_k ? "stream_k"
                                      : "none";
}

#if defined(__CUDACC__)
#define GRAPHGEMM_SM90_HD __host__ __device__
#else
#define GRAPHGEMM_SM90_HD
#endif

// Stream-K's partition of the work among P CTAs (host and device: the kernel's scheduler and the
// CPU tests use this one definition). With T tiles, the whole waves (floor(T/P) * P tiles) are
// whole tiles handed out round-robin as in the data-parallel schedule, so the CTAs in flight keep
// the L2-friendly tile order; only the tiles of the last, partial wave are shared as k-block ranges
// (kb k-blocks per tile), so that no SM idles through it. Where those are fewer k-blocks than CTAs
// (T mod P times kb < P), the last whole wave is shared with them (every CTA gets one k-block at
// least: an owner waits for every later CTA whose range begins inside its tile), and with T a
// multiple of P nothing is shared. With I = (T - dp_tiles) * kb = q * P + r, CTA c gets the
// iterations [sk_base + c * q + min(c, r), + q + (c < r)) (iteration i: k-block i % kb of tile
// i / kb). Every CTA runs its whole tiles before its range, so a range's first segment (the one
// that may continue another CTA's tile) comes early, and the owner of a tile (the CTA holding its
// k-block 0: the last segment of its range) waits only on later CTAs' first segments.
// NOTES: H100, session 53: owners' heads all at one k with the other workers sharing the tails
// (experiments_s53/owner_heads.patch) measured faster only at K >= 14336 (where this partition's
// scattered k-ranges miss L2), level at 8192^3, slower at K <= 8192 with fuller last waves (its
// helpers pay a ~4.5 us partial store per tail they hold); the shared k-ranges themselves stream
// at 0.99-1.06x the whole waves' rate a k-block where a range is one segment (docs/sm90_notes.md,
// session 53).
// 32-bit on purpose (the launcher refuses T * kb >= 2^31): a 64-bit division is a called
// routine in SASS, and a call inside the consumer's loop pushes the main loop's stage counter and
// smem descriptors out of the uniform datapath (59 -> 111 instructions per k-block, measured 27%
// slower on a 64x128 bandwidth-bound shape).
// Grouped (session 55): where every tile is shared (fewer tiles than CTAs) and the tiles have
// several rows (tiles_m > 1), the ranges are over tile columns instead, each taken by a group of
// tiles_m CTAs, one per tile row (the CTAs c with c / group = g: range g, row c % group; the CTAs
// past the last whole group idle). The rows of a column then stream the same B k-blocks at the same
// time, as in the data-parallel waves: ranges over single tiles put the rows of one column at
// different k and re-read B from DRAM (H100, 384 x 3584 x 18944, 84 tiles of 128x128 on 132 CTAs:
// 1.96-2.01x the unsplit time; docs/sm90_notes.md, session 55).
struct StreamKPartition {
    int tiles = 0, dp_tiles = 0, sk_base = 0, q = 0, r = 0;
    int kb = 1, ctas = 1;
    int group = 1;   // CTAs per range: the tile rows (grouped), else 1
    int ranges = 1;  // ctas / group
    GRAPHGEMM_SM90_HD StreamKPartition(int num_tiles, int k_blocks, int num_ctas, int tiles_m = 1)
        : tiles(num_tiles), kb(k_blocks), ctas(num_ctas), ranges(num_ctas) {
        // (At most 8 rows, and at most 1/16 of the CTAs idle past the last whole group.)
        if (tiles_m > 1 && tiles_m <= 8 && num_tiles < num_ctas && num_tiles % tiles_m == 0 &&
            num_ctas % tiles_m * 16 <= num_ctas) {
            group = tiles_m;
            ranges = num_ctas / tiles_m;
            const int iterations = num_tiles / tiles_m * k_blocks;  // >= ranges: tiles * kb >= ctas
            q = iterations / ranges;
            r = iterations - q * ranges;
            return;
        }
        const int full_waves = num_tiles / num_ctas;
        const int tail = num_tiles - full_waves * num_ctas;
        // NOTES: H100, session 51: sharing the last 1-2 waves (as until then) took 1.02-1.84x the
        // unsplit time on 128x256 tiles (k-ranges of neighbouring tiles at different k stream slower
        // than whole waves); sharing the partial wave alone 0.986 at 8192^3, 1.02-1.15x at 4-10 waves
        // with the fix-up then ~10 us (docs/sm90_notes.md, sessions 51-52).
        const bool tail_alone = tail == 0 || static_cast<long long>(tail) * k_blocks >= num_ctas;
        dp_tiles = tail_alone ? full_waves * num_ctas : (full_waves >= 1 ? (full_waves - 1) * num_ctas : 0);
        sk_base = dp_tiles * k_blocks;
        const int iterations = (num_tiles - dp_tiles) * k_blocks;
        q = iterations / num_ctas;
        r = iterations - q * num_ctas;
    }
    // CTA c's range (>= ranges: none) and tile row (grouped; else 0).
    GRAPHGEMM_SM90_HD int range_of(int c) const { return group == 1 ? c : c / group; }
    GRAPHGEMM_SM90_HD int row_of(int c) const { return group == 1 ? 0 : c - c / group * group; }
    // The linear tile of unit u (iteration i's unit is i / kb: a tile, or grouped a tile column) for
    // CTA c: grouped, tile (row_of(c), u) as u * group + row (the tile order of a raster along M).
    GRAPHGEMM_SM90_HD int tile_of(int u, int c) const { return group == 1 ? u : u * group + row_of(c); }
    // First iteration (unit * kb + k-block) of range g; range_begin(ranges) = the units' k-blocks.
    GRAPHGEMM_SM90_HD int range_begin(int g) const { return sk_base + g * q + (g < r ? g : r); }
    // One past the last range that range g, as the owner of its last unit, waits on: the later
    // ranges that begin inside that unit (g + 1 where that unit is not an owner's partial one);
    // grouped, range w's CTA of the owner's row. Computed once per CTA (the scheduler's init): the
    // consumers' owner loop then holds no division (session 54: range_begin's, called in that loop,
    // had taken the main loops of the pair tiles 128x112 / 128x128 in 2x1 and 1x2 clusters off the
    // uniform datapath since session 52: 65 -> 111 and 51 -> 91 SASS instructions a k-block, 16 R2UR).
    GRAPHGEMM_SM90_HD int waits_end(int g) const {
        const int begin = range_begin(g), end = range_begin(g + 1);
        const int unit_end = ((end - 1) / kb + 1) * kb;  // of the unit holding the range's last k-block
        int w = g + 1;
        if (end <= begin || end == unit_end || begin > unit_end - kb) return w;  // no owner's partial unit
        while (w < ranges && range_begin(w) < unit_end) ++w;
        return w;
    }
    // Iterations in the shared part, per range (at least q).
    GRAPHGEMM_SM90_HD int share() const { return q; }
};

// How a kernel's consumer warpgroups share the work (the instance's name says it: "_pp" = pingpong).
//   cooperative: 1-2 consumer warpgroups compute one BlockM x BlockN tile together (64 rows each);
//                the epilogue is not overlapped with the next tile's main loop. Supports split-K.
//   pingpong   : 2 consumer warpgroups, each owns a whole BlockM x BlockN tile (alternate tiles of
//                the CTA); they take turns on the tensor cores, so one's epilogue overlaps the other's
//                main loop. No split-K (splits must be 1).
//   swap_ab    : (sm90_gemm_swapab.cuh) D^T = B^T A^T: the weight rows are wgmma's M, BlockM = 16
//                or 32 tokens its N, for decode-sized M; B stored N x K only; no split-K, no cluster.
//   gemv       : (sm90_gemv.cuh) no warpgroups, no TMA: 16 weight rows a CTA streamed with 16-byte
//                loads into mma.sync fragments, its warps splitting K; 8 or 16 tokens a pass
//                (BlockM); B stored N x K only; no split-K, no cluster.
enum class Schedule : int { cooperative = 0, pingpong = 1, swap_ab = 2, gemv = 3 };

// Tiles per raster group when the caller does not choose (GemmParams::raster_group), and the most
// the launcher takes (larger values are clamped; GemmPlan refuses them).
inline constexpr int kDefaultRasterGroup = 8;
inline constexpr int kMaxRasterGroup = 1 << 16;

// D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc = sum_k A[m,k] * B[k,n] in fp32.
// A: row-major M x K (lda elements). B: see the config's BKMajor (true: stored N x K row-major,
// ldb >= K; false: stored K x N row-major, ldb >= N). C, D: row-major M x N, C has D's dtype.
// TMA requirements: a, b, d 16-byte aligned; lda, ldb, ldd * sizeof(element) % 16 == 0.
// c, bias, scale_a, scale_b: any alignment. c == nullptr or beta == 0: C is not read.
struct GemmParams {
    int m = 0, n = 0, k = 0;
    const void* a = nullptr;
    long long lda = 0;
    const void* b = nullptr;
    long long ldb = 0;
    const void* c = nullptr;
    long long ldc = 0;
    void* d = nullptr;
    long long ldd = 0;
    const void* bias = nullptr;
    BiasType bias_type = BiasType::none;
    const float* scale_a = nullptr;  // length M, may be nullptr (= 1)
    const float* scale_b = nullptr;  // length N, may be nullptr (= 1)
    float alpha = 1.0f, beta = 0.0f;
    // Tile rasterisation (L2 locality): consecutive tiles walk `raster_group` cluster-tiles along
    // M (or along N when raster_along_n), then step along the other dimension.
    int raster_group = kDefaultRasterGroup;
    bool raster_along_n = false;
    // Split-K (splits > 1 needs serial or parallel, and `workspace`: split_workspace_bytes() bytes,
    // 16-byte aligned; its counters are zeroed by launch() on the launch stream, by a 1-CTA kernel
    // the GEMM kernel follows programmatically).
    SplitMode split_mode = SplitMode::none;
    int splits = 1;
    // Parallel split-K only: 1, or 2, 4 or 8 CTAs of a thread-block cluster that take consecutive
    // slices of one tile and sum their fp32 partials through distributed shared memory (cluster
    // 1x1 cooperative kernels). Only splits / split_cluster partial tiles per tile then go through
    // the workspace, and none when they are equal: no workspace, no zeroing. Every cluster takes
    // one work unit at most: tiles x splits / split_cluster must not exceed the co-resident
    // clusters (make_launch_args returns cudaErrorInvalidValue otherwise).
    int split_cluster = 1;
    void* workspace = nullptr;
    unsigned long long workspace_bytes = 0;
    // Programmatic dependent launch (for split-K launches through a workspace: of their zeroing
    // kernel, which waits for the previous kernel before it writes): the kernel may be scheduled
    // while the previous kernel in the stream finishes; it sets up its barriers, pulls the first
    // k-blocks of B of its first work unit into L2, then waits for that kernel before any other
    // global access. It lets the next kernel be scheduled once every CTA has issued its last load
    // (docs/sm90_notes.md, session 6: measured against letting it launch at entry and at exit).
    bool programmatic = false;
};

// A launch of at most 1 / kSpreadUnitsRatio as many work units as co-resident clusters runs the
// whole co-resident grid, its busy CTAs spread over it (TileScheduler; session 12).
constexpr int kSpreadUnitsRatio = 2;

// k-blocks of B a programmatically launched kernel pulls into L2 before it waits (session 6, H100,
// llm M <= 256 geomean time against no PDL: 0 -> 0.987, 4 -> 0.981, 16 -> 1.019).
constexpr int kPdlPrefetchKBlocks = 4;

// Workspace of a split-K launch: one int32 counter per (CTA tile, consumer warpgroup), padded to
// 256 bytes, then fp32 tiles of BlockM x BlockN: one per CTA tile (serial) or one per slot and CTA
// tile (parallel: splits / split_cluster slots). 0 for splits <= 1, and for a parallel split
// reduced entirely within clusters (split_cluster == splits). CTA tiles cover M and N in whole
// clusters.
struct SplitWorkspaceLayout {
    unsigned long long counters = 0;       // number of int32 counters
    unsigned long long counter_bytes = 0;  // what launch() zeroes (a multiple of 256)
    unsigned long long partial_bytes = 0;
    unsigned long long total() const { return counter_bytes + partial_bytes; }
};

inline SplitWorkspaceLayout split_workspace_layout(long long m, long long n, int block_m, int block_n,
                                                   int cluster_m, int cluster_n, SplitMode mode,
                                                   int splits, int split_cluster = 1) {
    SplitWorkspaceLayout w;
    if (splits <= 1 || mode == SplitMode::none || m < 1 || n < 1) return w;
    if (mode == SplitMode::parallel && split_cluster > 1) {
        if (splits % split_cluster != 0 || splits == split_cluster) return w;
        splits /= split_cluster;  // slots: one cluster-summed partial per slice group
    }
    const long long ctiles_m = (m + block_m * cluster_m - 1) / (block_m * cluster_m) * cluster_m;
    const long long ctiles_n = (n + block_n * cluster_n - 1) / (block_n * cluster_n) * cluster_n;
    const unsigned long long ctiles = static_cast<unsigned long long>(ctiles_m * ctiles_n);
    if (mode == SplitMode::stream_k) {
        // Stream-K: `splits` is the number of CTAs; one flag and one fp32 partial tile per CTA.
        w.counters = static_cast<unsigned long long>(splits) * static_cast<unsigned long long>(block_m / 64);
        w.counter_bytes = (w.counters * 4 + 255) / 256 * 256;
        w.partial_bytes = static_cast<unsigned long long>(splits) * block_m * block_n * 4;
        return w;
    }
    w.counters = ctiles * static_cast<unsigned long long>(block_m / 64);
    w.counter_bytes = (w.counters * 4 + 255) / 256 * 256;
    const unsigned long long slots = mode == SplitMode::parallel ? static_cast<unsigned long long>(splits) : 1;
    w.partial_bytes = slots * ctiles * static_cast<unsigned long long>(block_m) * block_n * 4;
    return w;
}

// A chain of GEMMs in one launch (sm90_gemm_chain.cuh, GemmChain<Config>): x_{l+1} =
// alpha_l * (x_l · W_lᵀ) * scale_a_l[row] + bias_l for l = 0..layers-1, x_0 = x (M x K_0), y = x_L;
// 16-bit elements throughout (the config's), every N_l and K_l a multiple of 8, K_{l+1} = N_l.
inline constexpr int kMaxChainLayers = 8;

struct ChainLayerArgs {
    const void* w = nullptr;  // W_l: N x K row-major (the PyTorch weight), ldw elements a row
    long long ldw = 0;
    int n = 0, k = 0;
    const void* bias = nullptr;
    BiasType bias_type = BiasType::none;
    const float* scale_a = nullptr;  // M entries (one per row), or nullptr
    float alpha = 1.0f;
};

struct ChainProblem {
    int m = 0, max_m = 0;  // rows now; the most rows any launch with this workspace has (fixes the grid)
    const void* x = nullptr;
    long long ldx = 0;
    void* y = nullptr;
    long long ldy = 0;
    int layers = 0;
    ChainLayerArgs layer[kMaxChainLayers];
    void* workspace = nullptr;  // 128-byte aligned, GemmChain::workspace_layout(...).total bytes
    unsigned long long workspace_bytes = 0;
    int raster_group = kDefaultRasterGroup;
    bool programmatic = false;  // the setup kernel may start while the kernel before it finishes
    // Fill only the chain kernel's step parameter (and the geometry), not the setup kernel's table:
    // for a graph update whose layers (weights, biases) are those of the setup node as it stands,
    // which saves the table's tensor-map encodes (4 a layer) on every step.
    bool step_only = false;
};

namespace detail {

// The by-value kernel parameter (besides the three CUtensorMaps). Everything that depends on M
// lives here or in the tensor maps, so a graph update only rewrites kernel parameters.
struct KernelParams {
    int m, n, k;
    int raster_group;     // >= 1
    int raster_along_n;   // 0 / 1
    int bias_type;        // BiasType
    float alpha, beta;
    const void* c;        // nullptr: C not read
    long long ldc;
    void* d;              // D: tma_d covers columns [0, n_tma); columns [n_tma, n) are
    long long ldd;        // stored with plain stores (TMA writes whole 16-byte units)
    int n_tma;            // n rounded down to a whole number of 16-byte units (may be 0)
    const void* bias;
    const float* scale_a;
    const float* scale_b;
    // Split-K (see SplitMode). splits == 1: split_mode none, workspace unused.
    int splits;           // >= 1, <= ceil(k / 64)
    int split_mode;       // SplitMode
    int* counters;        // per (CTA tile, consumer warpgroup); zero at launch
    float* partials;      // fp32 BlockM x BlockN tiles, [slot][cta tile][row][col]
    int pdl_prefetch_kb;  // k-blocks of B pulled into L2 before griddep_wait(): 0 unless programmatic
    int split_cluster;    // GemmParams::split_cluster (1, 2, 4, 8; > 1 only with parallel split-K)
};

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
