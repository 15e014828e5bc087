// graphgemm: header-only HOST launcher for the sm90 GEMM kernel (sm90_gemm.cuh).
//
// Usable from the library (through src/kernels/sm90_gemm_instances.*) and from a standalone
// PyTorch extension. Compile with nvcc for sm_90a; no -lcuda needed (the driver's
// cuTensorMapEncodeTiled is fetched with cudaGetDriverEntryPointByVersion).
//
//   namespace graphgemm::kernels::sm90
//     enum class BiasType { none, bf16, fp16, fp32 };          (sm90_gemm_types.hpp)
//     struct GemmParams { m, n, k, a, lda, b, ldb, c, ldc, d, ldd, bias, bias_type,
//                         scale_a, scale_b, alpha, beta, raster_group, raster_along_n,
//                         split_mode, splits, split_cluster, workspace, workspace_bytes,
//                         programmatic };
//     template <ElementAB, ElementD, BlockM, BlockN, Stages, ClusterM, ClusterN, BKMajor>
//       struct GemmConfig;                                       (sm90_gemm.cuh, cooperative)
//     template <same parameters> struct PingpongConfig;          (sm90_gemm_pingpong.cuh;
//       BlockM x BlockN is one consumer warpgroup's tile; no split-K: make_launch_args refuses
//       splits > 1 with cudaErrorInvalidValue)
//     template <class Config> struct Gemm {
//       static cudaError_t initialize(int device);   // once per device at plan creation
//       struct LaunchArgs;                            // tensor maps + params + geometry
//       static cudaError_t make_launch_args(const GemmParams&, int num_sms, LaunchArgs&,
//                                           bool full_grid = false);
//       static cudaError_t launch(const LaunchArgs&, cudaStream_t);   // split-K: zeroing + GEMM kernel
//       static SplitWorkspaceLayout workspace(m, n, mode, splits);     // split-K workspace
//       static const void* kernel_function();             // the full kernel (attributes)
//       static const void* kernel_function(const LaunchArgs&);  // the one a launch runs
//       static int kernel_args(const LaunchArgs&, void* args[4]);  // for graph kernel nodes: 4
//       static constexpr const char* name();
//       static constexpr Schedule schedule();          // cooperative or pingpong
//     };
//
// Usage:
//   using G = Gemm<GemmConfig<__nv_bfloat16, __nv_bfloat16, 128, 256, 4, 2, 1, true>>;
//   G::initialize(dev);                                   // not per run
//   G::LaunchArgs la; G::make_launch_args(params, num_sms, la);   // host only, capture-safe
//   G::launch(la, stream);
//
// Graph updates: the kernel parameters are (tma_a, tma_b, tma_d, KernelParams). M lives only in
// tma_a, tma_d and KernelParams::m; the kernel loops over tiles derived from M at run time, so
// any grid works: a graph layer re-runs make_launch_args for a new M and updates the parameters
// (graph::GemmNode keeps the grid it recorded for its max_m: a changed grid makes the update and
// the next graph launch dearer for the host, session 12). full_grid = true launches the
// co-resident maximum instead (tools/sm90_gemm_check runs both; tools/diag/sm90_trace.cu `full`).
// Graph nodes used it until session 8, when it measured 14% slower at 32 tiles of 4096 x 4096
// (H200): the busy CTAs were the grid's first and shared TPCs (SMs 0-3, 16-19, ...), where a
// grid of 32 gets one TPC each. Since session 12 the scheduler spreads fewer units than CTAs
// over the whole grid (TileScheduler).
//
// Split-K (GemmParams::splits > 1): the launch is TWO kernels on the stream, one CTA zeroing the
// workspace's counters (LaunchArgs::zero_ptr, zero_bytes; detail::sm90_zero_counters_kernel;
// programmatic after the previous kernel when GemmParams::programmatic) and the GEMM kernel
// launched programmatically after it; a graph layer must add both (two kernel nodes, a
// programmatic edge between them). The workspace size depends on M (the tile count). Parallel
// split-K summed within clusters (GemmParams::split_cluster == splits) has no workspace: one
// kernel launch with cluster dims (split_cluster, 1, 1).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "sm90_gemm.cuh"
#include "sm90_gemm_pingpong.cuh"
#include "sm90_gemm_swapab.cuh"
#include "sm90_gemm_types.hpp"

namespace graphgemm::kernels::sm90 {
namespace detail {

// ---- Driver entry point (function-local static, first set by initialize()) ------------------
inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_fn() {
    static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void* ptr = nullptr;
        cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
        const cudaError_t err = cudaGetDriverEntryPointByVersion(
            "cuTensorMapEncodeTiled", &ptr, 12000, cudaEnableDefault, &status);
        if (err != cudaSuccess || status != cudaDriverEntryPointSuccess) {
            (void)cudaGetLastError();  // do not leave a sticky-looking error behind
            return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
        }
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
    }();
    return fn;
}

// Runs fn() (returning cudaError_t) with `device` current, then makes the caller's device current
// again (the first error wins).
template <class Fn>
cudaError_t on_device(int device, Fn&& fn) {
    int prev = 0;
    cudaError_t err = cudaGetDevice(&prev);
    if (err != cudaSuccess) return err;
    if (prev != device && (err = cudaSetDevice(device)) != cudaSuccess) return err;
    err = fn();
    if (prev != device) {
        const cudaError_t restore = cudaSetDevice(prev);
        if (err == cudaSuccess) err = restore;
    }
    return err;
}

// Programmatic stream serialization (PDL): the launch may start while the previous kernel in the
// stream finishes.
inline cudaLaunchAttribute programmatic_attribute() {
    cudaLaunchAttribute a = {};
    a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a.val.programmaticStreamSerializationAllowed = 1;
    return a;
}

template <class T>
constexpr CUtensorMapDataType tma_dtype() {
    if constexpr (std::is_same_v<T, float>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    else if constexpr (std::is_same_v<T, __half>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    else return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
}

// 2-D row-major tensor {inner (contiguous), outer} with a 128B-swizzled {box_inner, box_outer}
// box. Out-of-bounds box elements are zero-filled on load and skipped on store. (`promotion`: the
// kernels' L2 promotion; tools/diag/tma_stream_probe varies it.)
inline cudaError_t encode_tma_2d(CUtensorMap* map, CUtensorMapDataType dtype, const void* ptr,
                                 uint64_t inner, uint64_t outer, uint64_t row_stride_bytes,
                                 uint32_t box_inner, uint32_t box_outer,
                                 CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
    const auto fn = encode_tiled_fn();
    if (fn == nullptr) return cudaErrorNotSupported;
    const cuuint64_t dims[2] = {inner, outer};
    const cuuint64_t strides[1] = {row_stride_bytes};
    const cuuint32_t box[2] = {box_inner, box_outer};
    const cuuint32_t elem_strides[2] = {1, 1};
    const CUresult r = fn(map, dtype, 2, const_cast<void*>(ptr), dims, strides, box, elem_strides,
                          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, promotion,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// ---- Printable config name, built at compile time -------------------------------------------
struct ConfigName {
    char data[96] = {};
    int len = 0;
    constexpr void append(const char* s) {
        while (*s != '\0') data[len++] = *s++;
    }
    constexpr void append(int v) {
        char tmp[12] = {};
        int n = 0;
        do {
            tmp[n++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v > 0);
        while (n > 0) data[len++] = tmp[--n];
    }
};

// Schedule of a configuration: PingpongConfig says so; GemmConfig (no kSchedule) is cooperative.
template <class Config>
constexpr Schedule schedule_of() {
    if constexpr (requires { Config::kSchedule; }) return Config::kSchedule;
    else return Schedule::cooperative;
}

// The __global__ function of a configuration (both have the same four parameters).
template <class Config>
constexpr auto kernel_entry() {
    if constexpr (schedule_of<Config>() == Schedule::pingpong) return &sm90_gemm_pingpong_kernel<Config>;
    else if constexpr (schedule_of<Config>() == Schedule::swap_ab) return &sm90_gemm_swapab_kernel<Config>;
    else return &sm90_gemm_kernel<Config>;
}

// Whether a configuration has an unsplit twin (cooperative configurations with kUnsplitTwin).
template <class Config>
constexpr bool has_unsplit_twin() {
    if constexpr (schedule_of<Config>() == Schedule::cooperative) return Config::kUnsplitTwin;
    else return false;
}

template <class T>
constexpr const char* dtype_name() {
    if constexpr (std::is_same_v<T, float>) return "f32";
    else if constexpr (std::is_same_v<T, __half>) return "f16";
    else return "bf16";
}

// e.g. "sm90_bf16_bf16_128x256x64_s4_c2x1_bk": inputs, output, tile, stages, cluster, B layout
// (bk = B stored N x K "K-major", bn = B stored K x N "N-major"); ping-pong kernels have "_pp"
// before the layout ("sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk": the tile is one warpgroup's).
// "sm90_<in>_<out>_", the start of every configuration's name.
template <class Config>
constexpr void append_name_dtypes(ConfigName& s) {
    s.append("sm90_");
    s.append(dtype_name<typename Config::ElementAB>());
    s.append("_");
    s.append(dtype_name<typename Config::ElementD>());
    s.append("_");
}
// "<BM>x<BN>x<BK>_s<stages>", the tile and its stages.
template <class Config>
constexpr void append_name_tile(ConfigName& s) {
    s.append(Config::kBlockM);
    s.append("x");
    s.append(Config::kBlockN);
    s.append("x");
    s.append(Config::kBlockK);
    s.append("_s");
    s.append(Config::kStages);
}

template <class Config>
constexpr ConfigName make_config_name() {
    ConfigName s;
    append_name_dtypes<Config>(s);
    append_name_tile<Config>(s);
    s.append("_c");
    s.append(Config::kClusterM);
    s.append("x");
    s.append(Config::kClusterN);
    if (schedule_of<Config>() == Schedule::pingpong) s.append("_pp");
    if (schedule_of<Config>() == Schedule::swap_ab) s.append("_sw");
    s.append(Config::kBKMajor ? "_bk" : "_bn");
    return s;
}

template <class Config>
inline constexpr ConfigName kConfigName = make_config_name<Config>();

inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// The operand rules every sm90 kernel shares (16-byte rows for TMA and the gemv kernel's 16-byte
// loads alike): M, N, K >= 1, A, B, D given and 16-byte aligned, leading dimensions that cover the
// rows and keep them 16-byte aligned (B's per its layout), C's covering N, a bias with its type.
template <class ElementAB, class ElementD, bool BKMajor>
bool operands_ok(const GemmParams& p) {
    constexpr long long kAB = sizeof(ElementAB), kD = sizeof(ElementD);
    if (p.m < 1 || p.n < 1 || p.k < 1) return false;
    if (p.a == nullptr || p.b == nullptr || p.d == nullptr) return false;
    if (!aligned16(p.a) || !aligned16(p.b) || !aligned16(p.d)) return false;
    if (p.lda < p.k || (p.lda * kAB) % 16 != 0) return false;
    if (p.ldb < (BKMajor ? p.k : p.n) || (p.ldb * kAB) % 16 != 0) return false;
    if (p.ldd < p.n || (p.ldd * kD) % 16 != 0) return false;
    if (p.c != nullptr && p.ldc < p.n) return false;
    return (p.bias == nullptr) == (p.bias_type == BiasType::none);
}

// The kernel parameters every sm90 launcher takes from GemmParams alike: the problem, the tile
// order, the epilogue's operands and scalars; unsplit, no workspace, no TMA store columns, no PDL
// prefetch (the TMA launcher sets those after).
inline KernelParams common_params(const GemmParams& p) {
    KernelParams k{};
    k.m = p.m;
    k.n = p.n;
    k.k = p.k;
    k.raster_group = std::clamp(p.raster_group, 1, kMaxRasterGroup);
    k.raster_along_n = p.raster_along_n ? 1 : 0;
    k.bias_type = static_cast<int>(p.bias_type);
    k.alpha = p.alpha;
    k.beta = p.beta;
    k.c = p.c;
    k.ldc = p.ldc;
    k.d = p.d;
    k.ldd = p.ldd;
    k.bias = p.bias;
    k.scale_a = p.scale_a;
    k.scale_b = p.scale_b;
    k.splits = 1;
    k.split_mode = static_cast<int>(SplitMode::none);
    k.split_cluster = 1;
    return k;
}

// cudaSuccess if `device` is sm_90 (the kernels are built for sm_90a only).
inline cudaError_t require_sm90(int device) {
    int major = 0, minor = 0;
    cudaError_t err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (err != cudaSuccess) return err;
    err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (err != cudaSuccess) return err;
    return major == 9 && minor == 0 ? cudaSuccess : cudaErrorNoKernelImageForDevice;
}

}  // namespace detail

template <class Config>
struct Gemm {
    using ElementAB = typename Config::ElementAB;
    using ElementD = typename Config::ElementD;

    struct LaunchArgs {
        CUtensorMap tma_a;
        CUtensorMap tma_b;
        CUtensorMap tma_d;
        detail::KernelParams params;
        dim3 grid, block, cluster;
        size_t smem;
        void* zero_ptr;       // split-K: counters zeroed by a kernel before the GEMM (nullptr: none)
        size_t zero_bytes;    // a multiple of 16 (SplitWorkspaceLayout::counter_bytes)
        bool programmatic;    // the launch may overlap the kernel before it in the stream (PDL)
        bool unsplit;         // launch the unsplit twin (no split-K, stream-K or cluster sum)
    };

    static constexpr Schedule schedule() { return detail::schedule_of<Config>(); }

    static SplitWorkspaceLayout workspace(long long m, long long n, SplitMode mode, int splits,
                                          int split_cluster = 1) {
        if constexpr (schedule() != Schedule::cooperative) return {};  // no split-K
        return split_workspace_layout(m, n, Config::kBlockM, Config::kBlockN, Config::kClusterM,
                                      Config::kClusterN, mode, splits, split_cluster);
    }

    // Whether the kernel can sum split-K slices within clusters of `c` CTAs (GemmParams::
    // split_cluster): cooperative kernels with kSplitCluster (no cluster of their own, BN <= 128),
    // c = 2, 4 or 8; swap-AB kernels with c = 2, 4 (8 with two consumer warpgroups) and then
    // splits == c only (they have no workspace).
    static constexpr bool supports_split_cluster(int c) {
        if constexpr (schedule() == Schedule::pingpong) return false;
        else if constexpr (schedule() == Schedule::swap_ab) return (c == 2 || c == 4 || c == 8) && c <= Config::kMaxSplitCluster;
        else return Config::kSplitCluster && (c == 2 || c == 4 || c == 8);
    }

    static constexpr const char* name() { return detail::kConfigName<Config>.data; }

    // The full kernel (function attributes, occupancy), and the one a launch runs: its unsplit
    // twin where it has one and the work is not split.
    static const void* kernel_function() { return reinterpret_cast<const void*>(entry(false)); }
    static const void* kernel_function(const LaunchArgs& la) { return reinterpret_cast<const void*>(entry(la.unsplit)); }

    // Pointers to the four kernel arguments inside `la` (e.g. cudaKernelNodeParams::kernelParams);
    // returns their count (Gemv's kernel takes one).
    static int kernel_args(const LaunchArgs& la, void* args[4]) {
        args[0] = const_cast<CUtensorMap*>(&la.tma_a);
        args[1] = const_cast<CUtensorMap*>(&la.tma_b);
        args[2] = const_cast<CUtensorMap*>(&la.tma_d);
        args[3] = const_cast<detail::KernelParams*>(&la.params);
        return 4;
    }

    // Co-resident clusters measured by initialize() (0: not known, fall back to num_sms).
    static std::atomic<int>& max_active_clusters() {
        static std::atomic<int> value{0};
        return value;
    }
    // ... and of the clusters of 2, 4 and 8 CTAs a cluster split-K launch forms (-1: not known).
    static std::atomic<int>& max_active_split_clusters(int c) {
        static std::atomic<int> value[3] = {-1, -1, -1};
        return value[c == 2 ? 0 : c == 4 ? 1 : 2];
    }
    // The most clusters of `c` CTAs that can be co-resident (measured, else the SM count's bound).
    static int split_cluster_capacity(int c, int num_sms) {
        const int measured = max_active_split_clusters(c).load(std::memory_order_relaxed);
        return measured >= 0 ? measured : num_sms / c;
    }

    static cudaError_t initialize(int device) {
        return detail::on_device(device, [device] { return initialize_current(device); });
    }

    static cudaError_t make_launch_args(const GemmParams& p, int num_sms, LaunchArgs& la,
                                        bool full_grid = false) {
        using namespace detail;
        constexpr long long kAB = sizeof(ElementAB), kD = sizeof(ElementD);
        // ---- Validation: everything TMA (or the kernel) cannot do ----
        // The ping-pong kernels have no split-K: every work unit is a whole tile. Swap-AB kernels
        // split K only into slices summed within one cluster (splits == split_cluster).
        if constexpr (schedule() == Schedule::pingpong) {
            if (p.splits != 1 || p.split_mode != SplitMode::none) return cudaErrorInvalidValue;
        } else if constexpr (schedule() == Schedule::swap_ab) {
            if (p.splits != 1 && (p.split_mode != SplitMode::parallel || p.splits != p.split_cluster))
                return cudaErrorInvalidValue;
        }
        if (num_sms < 1 || !operands_ok<ElementAB, ElementD, Config::kBKMajor>(p)) return cudaErrorInvalidValue;
        // Split-K: 1 <= splits <= k-blocks (no empty slice), a mode, a big enough workspace.
        // Stream-K: splits = the most CTAs (workspace slots), cooperative kernels only.
        const int k_blocks = (p.k + Config::kBlockK - 1) / Config::kBlockK;
        const bool stream_k = p.split_mode == SplitMode::stream_k;
        if (stream_k) {
            if (schedule() != Schedule::cooperative || p.splits < Config::kClusterSize)
                return cudaErrorInvalidValue;
        } else {
            if (p.splits < 1 || p.splits > k_blocks) return cudaErrorInvalidValue;
            if ((p.splits > 1) != (p.split_mode != SplitMode::none)) return cudaErrorInvalidValue;
        }
        // Cluster tiles (CTA tiles without a cluster of the kernel's own).
        const long long tiles =
            static_cast<long long>((p.m + Config::kBlockM * Config::kClusterM - 1) /
                                   (Config::kBlockM * Config::kClusterM)) *
            ((p.n + Config::kBlockN * Config::kClusterN - 1) /
             (Config::kBlockN * Config::kClusterN));
        const int split_cluster = p.split_cluster;
        if (split_cluster != 1) {
            if (!supports_split_cluster(split_cluster) || p.split_mode != SplitMode::parallel ||
                p.splits % split_cluster != 0)
                return cudaErrorInvalidValue;
            // One work unit per cluster (its pipeline smem holds the partial sums), all co-resident.
            if (tiles * (p.splits / split_cluster) > split_cluster_capacity(split_cluster, num_sms))
                return cudaErrorInvalidValue;
        }
        const SplitWorkspaceLayout ws = workspace(p.m, p.n, p.split_mode, p.splits, split_cluster);
        const bool uses_ws = ws.total() > 0;  // not for a split summed entirely within clusters
        if (uses_ws) {
            if (p.workspace == nullptr || !aligned16(p.workspace) || p.workspace_bytes < ws.total())
                return cudaErrorInvalidValue;
            if (ws.counters > 0x7fffffffull) return cudaErrorInvalidValue;
        }
        constexpr long long kMaxStride = 1ll << 40;
        if (p.lda * kAB >= kMaxStride || p.ldb * kAB >= kMaxStride || p.ldd * kD >= kMaxStride)
            return cudaErrorInvalidValue;

        // ---- Tensor maps ----
        cudaError_t err = encode_tma_2d(&la.tma_a, tma_dtype<ElementAB>(), p.a, p.k, p.m,
                                        p.lda * kAB, Config::kBoxAInner, Config::kBoxAOuter);
        if (err != cudaSuccess) return err;
        if constexpr (Config::kBKMajor) {
            err = encode_tma_2d(&la.tma_b, tma_dtype<ElementAB>(), p.b, p.k, p.n, p.ldb * kAB,
                                Config::kBoxBInner, Config::kBoxBOuter);
        } else {
            err = encode_tma_2d(&la.tma_b, tma_dtype<ElementAB>(), p.b, p.n, p.k, p.ldb * kAB,
                                Config::kBoxBInner, Config::kBoxBOuter);
        }
        if (err != cudaSuccess) return err;
        // TMA stores write whole 16-byte units: tma_d spans only the columns that fill them.
        const int n_tma = static_cast<int>(p.n - p.n % (16 / kD));
        err = encode_tma_2d(&la.tma_d, tma_dtype<ElementD>(), p.d, n_tma > 0 ? n_tma : p.n, p.m,
                            p.ldd * kD, Config::kEpiCols, 64);
        if (err != cudaSuccess) return err;

        // ---- Kernel parameters ----
        la.params = common_params(p);
        la.params.n_tma = n_tma;
        la.params.splits = stream_k ? 1 : p.splits;
        la.params.split_cluster = split_cluster;
        la.params.split_mode = static_cast<int>(p.split_mode);
        la.params.counters = uses_ws ? static_cast<int*>(p.workspace) : nullptr;
        la.params.partials = uses_ws
            ? reinterpret_cast<float*>(static_cast<char*>(p.workspace) + ws.counter_bytes) : nullptr;
        la.zero_ptr = uses_ws ? p.workspace : nullptr;
        la.zero_bytes = uses_ws ? static_cast<size_t>(ws.counter_bytes) : 0;
        // PDL with the previous kernel: the first kernel of the launch (the zeroing kernel of a
        // split through the workspace, which waits for the previous kernel before it writes).
        la.programmatic = p.programmatic;
        la.params.pdl_prefetch_kb = la.programmatic ? kPdlPrefetchKBlocks : 0;
        la.unsplit = has_unsplit_twin<Config>() && !stream_k && p.splits == 1 && split_cluster == 1;

        // ---- Persistent grid: one CTA per SM at most, whole clusters ----
        constexpr int kCluster = Config::kClusterSize;
        int max_clusters = num_sms / kCluster;
        const int measured = max_active_clusters().load(std::memory_order_relaxed);
        if (measured > 0) max_clusters = std::min(max_clusters, measured);
        max_clusters = std::max(1, max_clusters);
        long long units = tiles * (stream_k ? 1 : p.splits);  // work units: tiles x K slices
        if (units > 0x7fffffffll) return cudaErrorInvalidValue;
        int cluster_ctas = kCluster;
        if (split_cluster > 1) {
            // Cluster split-K: a unit is (tile, slice group) for a cluster of split_cluster CTAs,
            // and each cluster takes one at most (its pipeline smem holds the partial sums).
            units /= split_cluster;
            cluster_ctas = split_cluster;
            max_clusters = split_cluster_capacity(split_cluster, num_sms);  // >= units: checked above
        }
        // Few units (at most half the co-resident clusters): the whole co-resident grid, whose
        // busy CTAs the scheduler spreads over every GPC, where a grid of the units' size puts
        // them on the first SMs' GPCs (session 12, trace, 64x128, N = K = 4096: 32 tiles 19.78 us
        // on a grid of 32 against 17.16 us on 132; 64 tiles 17.66 against 17.78). Parallel
        // split-K through the workspace: always, as every CTA of the grid takes a share of the
        // reduction. Not for cluster sums (one unit per cluster, sized by its capacity).
        const bool parallel_ws = p.split_mode == SplitMode::parallel && p.splits > 1;
        const bool spread = split_cluster == 1 && (parallel_ws || units * kSpreadUnitsRatio <= max_clusters);
        long long clusters = full_grid || spread ? max_clusters : std::min<long long>(units, max_clusters);
        if (stream_k) {  // one k-block at least per worker (cluster), no more CTAs than workspace slots
            const long long iterations = tiles * k_blocks;
            if (iterations > 0x7fffffffll) return cudaErrorInvalidValue;  // StreamKPartition is 32-bit
            clusters = std::min<long long>({static_cast<long long>(max_clusters), iterations,
                                            static_cast<long long>(p.splits / kCluster)});
        }
        la.grid = dim3(static_cast<unsigned>(clusters * cluster_ctas), 1, 1);
        la.block = dim3(Config::kThreads, 1, 1);
        la.cluster = dim3(static_cast<unsigned>(cluster_ctas), 1, 1);
        la.smem = Config::kSmemBytes;
        return cudaSuccess;
    }

    static cudaError_t launch(const LaunchArgs& la, cudaStream_t stream) {
        const bool zeroing = la.zero_bytes > 0;
        if (zeroing) {  // split-K counters: zeroed on this stream, every launch
            const cudaError_t err = launch_zeroing(la, stream);
            if (err != cudaSuccess) return err;
        }
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = la.grid;
        cfg.blockDim = la.block;
        cfg.dynamicSmemBytes = la.smem;
        cfg.stream = stream;
        cudaLaunchAttribute attr[2];
        unsigned num_attrs = 0;
        if (la.cluster.x * la.cluster.y * la.cluster.z > 1) {
            attr[num_attrs].id = cudaLaunchAttributeClusterDimension;
            attr[num_attrs].val.clusterDim.x = la.cluster.x;
            attr[num_attrs].val.clusterDim.y = la.cluster.y;
            attr[num_attrs].val.clusterDim.z = la.cluster.z;
            ++num_attrs;
        }
        if (la.programmatic || zeroing) attr[num_attrs++] = detail::programmatic_attribute();
        cfg.attrs = num_attrs > 0 ? attr : nullptr;
        cfg.numAttrs = num_attrs;
        return cudaLaunchKernelEx(&cfg, entry(la.unsplit), la.tma_a, la.tma_b, la.tma_d, la.params);
    }

private:
    // One CTA: the counters are a few KB at most (one int32 per CTA tile and consumer warpgroup).
    static cudaError_t launch_zeroing(const LaunchArgs& la, cudaStream_t stream) {
        constexpr int kThreads = 256;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(1);
        cfg.blockDim = dim3(kThreads);
        cfg.stream = stream;
        cudaLaunchAttribute attr[1] = {detail::programmatic_attribute()};
        cfg.attrs = attr;
        cfg.numAttrs = la.programmatic ? 1 : 0;
        return cudaLaunchKernelEx(&cfg, &detail::sm90_zero_counters_kernel<kThreads>,
                                  static_cast<int4*>(la.zero_ptr), static_cast<unsigned>(la.zero_bytes / 16));
    }

    // The __global__ function: the full kernel, or (unsplit, where the configuration has one) its
    // unsplit twin. Both take the same four parameters.
    static constexpr auto entry(bool unsplit) {
        if constexpr (detail::has_unsplit_twin<Config>()) {
            if (unsplit) return &detail::sm90_gemm_kernel<UnsplitConfig<Config>>;
        }
        return detail::kernel_entry<Config>();
    }

    static cudaError_t initialize_current(int device) {
        cudaError_t err = detail::require_sm90(device);
        if (err != cudaSuccess) return err;
        if (detail::encode_tiled_fn() == nullptr) return cudaErrorNotSupported;
        for (bool unsplit : {false, true}) {  // the full kernel, and its unsplit twin where it has one
            if (unsplit && !detail::has_unsplit_twin<Config>()) break;
            err = cudaFuncSetAttribute(reinterpret_cast<const void*>(entry(unsplit)),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, Config::kSmemBytes);
            if (err != cudaSuccess) return err;
        }
        if constexpr (Config::kClusterSize > 1) {
            int sms = 0;
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
            if (err != cudaSuccess) return err;
            int clusters = 0;
            err = active_clusters(Config::kClusterSize, sms / Config::kClusterSize * Config::kClusterSize, clusters);
            if (err != cudaSuccess) return err;
            if (clusters < 1) return cudaErrorInvalidConfiguration;
            max_active_clusters().store(clusters, std::memory_order_relaxed);
        }
        if constexpr (supports_split_cluster(2)) {
            for (int c = 2; c <= 8; c *= 2) {
                if (!supports_split_cluster(c)) continue;
                int clusters = 0;
                err = active_clusters(c, c, clusters);
                if (err != cudaSuccess) return err;
                max_active_split_clusters(c).store(clusters, std::memory_order_relaxed);
            }
        }
        return cudaSuccess;
    }

    // cudaOccupancyMaxActiveClusters for this kernel launched in clusters of `size` CTAs (x) on a
    // grid of `grid` CTAs (a multiple of size).
    static cudaError_t active_clusters(int size, int grid, int& clusters) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(static_cast<unsigned>(grid));
        cfg.blockDim = dim3(Config::kThreads);
        cfg.dynamicSmemBytes = Config::kSmemBytes;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = static_cast<unsigned>(size);
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        return cudaOccupancyMaxActiveClusters(&clusters, kernel_function(), &cfg);
    }
};

}  // namespace graphgemm::kernels::sm90
