// graphgemm: header-only HOST launcher for the split-K kernel (sm90_gemm_splitk.cuh).
//
// Same interface as Gemm<Config> (sm90_gemm_launch.cuh), so the instance table wraps both alike:
//   template <class Config> struct SplitKGemm {
//     struct LaunchArgs;                            // the same fields as Gemm<>::LaunchArgs
//     static cudaError_t initialize(int device);
//     static cudaError_t make_launch_args(const GemmParams&, int num_sms, LaunchArgs&, bool full_grid);
//     static cudaError_t launch(const LaunchArgs&, cudaStream_t);  // memset (G > 1 only) + kernel
//     static SplitWorkspaceLayout workspace(m, n, mode, splits);
//     static const void* kernel_function();
//     static void kernel_args(const LaunchArgs&, void* args[4]);
//     static constexpr const char* name();
//   };
//
// Split-K (GemmParams::splits = S): the cluster size is CS = splitk_cluster_size(S) (the largest
// of 8, 4, 2, 1 dividing S) and G = S / CS cluster groups per output tile. G == 1: no workspace,
// no memset, a single kernel. G > 1: tiles x 8 counters + G cluster partials per tile; the launch
// is a memset of the counters, then the kernel. serial and parallel run the same deterministic
// scheme here (the mode only tells the workspace-free cooperative kernel apart).
//
// Programmatic dependent launch: opt-in with the environment variable GRAPHGEMM_SM90_PDL=1 (read
// once): the kernel is launched with cudaLaunchAttributeProgrammaticStreamSerialization, so its
// prologue (barrier setup, descriptor prefetch) overlaps the previous kernel's tail; the kernel
// waits (griddepcontrol.wait) before its first global memory access. Off by default until
// measured in graphs (see docs/sm90_notes.md).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "sm90_gemm_launch.cuh"  // encode_tma_2d, tma_dtype, ConfigName, dtype_name, aligned16
#include "sm90_gemm_splitk.cuh"

namespace graphgemm::kernels::sm90 {
namespace detail {

// e.g. "sm90_bf16_bf16_64x128x64_s7_splitk_bk"
template <class Config>
constexpr ConfigName make_splitk_config_name() {
    ConfigName s;
    s.append("sm90_");
    s.append(dtype_name<typename Config::ElementAB>());
    s.append("_");
    s.append(dtype_name<typename Config::ElementD>());
    s.append("_");
    s.append(Config::kBlockM);
    s.append("x");
    s.append(Config::kBlockN);
    s.append("x");
    s.append(Config::kBlockK);
    s.append("_s");
    s.append(Config::kStages);
    s.append("_splitk");
    s.append(Config::kBKMajor ? "_bk" : "_bn");
    return s;
}

template <class Config>
inline constexpr ConfigName kSplitKConfigName = make_splitk_config_name<Config>();

inline bool splitk_pdl_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("GRAPHGEMM_SM90_PDL");
        return v != nullptr && v[0] == '1';
    }();
    return on;
}

}  // namespace detail

template <class Config>
struct SplitKGemm {
    using ElementAB = typename Config::ElementAB;
    using ElementD = typename Config::ElementD;

    struct LaunchArgs {
        CUtensorMap tma_a;
        CUtensorMap tma_b;
        CUtensorMap tma_d;
        detail::KernelParams params;
        dim3 grid, block, cluster;
        size_t smem;
        void* memset_ptr;     // G > 1: counters to zero before the kernel (nullptr: none)
        size_t memset_bytes;
    };

    static SplitWorkspaceLayout workspace(long long m, long long n, SplitMode mode, int splits) {
        return splitk_workspace_layout(m, n, Config::kBlockN, mode, splits);
    }

    static constexpr const char* name() { return detail::kSplitKConfigName<Config>.data; }
    static constexpr Schedule schedule() { return Schedule::splitk; }

    static const void* kernel_function() {
        return reinterpret_cast<const void*>(&detail::sm90_gemm_splitk_kernel<Config>);
    }

    static void kernel_args(const LaunchArgs& la, void* args[4]) {
        args[0] = const_cast<CUtensorMap*>(&la.tma_a);
        args[1] = const_cast<CUtensorMap*>(&la.tma_b);
        args[2] = const_cast<CUtensorMap*>(&la.tma_d);
        args[3] = const_cast<detail::KernelParams*>(&la.params);
    }

    // Co-resident clusters of 1, 2, 4, 8 CTAs, measured by initialize() (index log2; 0: unknown).
    static std::atomic<int>& max_active_clusters(int log2_cs) {
        static std::atomic<int> value[4] = {0, 0, 0, 0};
        return value[log2_cs];
    }

    static cudaError_t initialize(int device) {
        int prev = 0;
        cudaError_t err = cudaGetDevice(&prev);
        if (err != cudaSuccess) return err;
        if (prev != device && (err = cudaSetDevice(device)) != cudaSuccess) return err;
        err = initialize_current(device);
        if (prev != device) {
            const cudaError_t restore = cudaSetDevice(prev);
            if (err == cudaSuccess) err = restore;
        }
        return err;
    }

    static cudaError_t make_launch_args(const GemmParams& p, int num_sms, LaunchArgs& la,
                                        bool full_grid = false) {
        using namespace detail;
        constexpr long long kAB = sizeof(ElementAB), kD = sizeof(ElementD);
        constexpr int BN = Config::kBlockN;
        if (p.m < 1 || p.n < 1 || p.k < 1 || num_sms < 1) return cudaErrorInvalidValue;
        if (p.a == nullptr || p.b == nullptr || p.d == nullptr) return cudaErrorInvalidValue;
        if (!aligned16(p.a) || !aligned16(p.b) || !aligned16(p.d)) return cudaErrorInvalidValue;
        if (p.lda < p.k || (p.lda * kAB) % 16 != 0) return cudaErrorInvalidValue;
        if (p.ldb < (Config::kBKMajor ? p.k : p.n) || (p.ldb * kAB) % 16 != 0)
            return cudaErrorInvalidValue;
        if (p.ldd < p.n || (p.ldd * kD) % 16 != 0) return cudaErrorInvalidValue;
        if (p.c != nullptr && p.ldc < p.n) return cudaErrorInvalidValue;
        if ((p.bias == nullptr) != (p.bias_type == BiasType::none)) return cudaErrorInvalidValue;
        const int k_blocks = (p.k + Config::kBlockK - 1) / Config::kBlockK;
        if (p.splits < 1 || p.splits > k_blocks) return cudaErrorInvalidValue;
        if ((p.splits > 1) != (p.split_mode != SplitMode::none)) return cudaErrorInvalidValue;
        const SplitWorkspaceLayout ws = workspace(p.m, p.n, p.split_mode, p.splits);
        if (ws.total() > 0) {
            if (p.workspace == nullptr || !aligned16(p.workspace) || p.workspace_bytes < ws.total())
                return cudaErrorInvalidValue;
            if (ws.counters > 0x7fffffffull) return cudaErrorInvalidValue;
        }
        constexpr long long kMaxStride = 1ll << 40;
        if (p.lda * kAB >= kMaxStride || p.ldb * kAB >= kMaxStride || p.ldd * kD >= kMaxStride)
            return cudaErrorInvalidValue;

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
        std::memset(&la.tma_d, 0, sizeof(la.tma_d));  // unused: D takes plain stores

        const int cs = splitk_cluster_size(p.splits);
        const int groups = p.splits / cs;
        la.params.m = p.m;
        la.params.n = p.n;
        la.params.k = p.k;
        la.params.raster_group = 1;
        la.params.raster_along_n = 0;
        la.params.bias_type = static_cast<int>(p.bias_type);
        la.params.alpha = p.alpha;
        la.params.beta = p.beta;
        la.params.c = p.c;
        la.params.ldc = p.ldc;
        la.params.d = p.d;
        la.params.ldd = p.ldd;
        la.params.n_tma = 0;
        la.params.bias = p.bias;
        la.params.scale_a = p.scale_a;
        la.params.scale_b = p.scale_b;
        la.params.splits = p.splits;
        la.params.split_mode = static_cast<int>(p.split_mode);
        la.params.counters = ws.total() > 0 ? static_cast<int*>(p.workspace) : nullptr;
        la.params.partials = ws.total() > 0
            ? reinterpret_cast<float*>(static_cast<char*>(p.workspace) + ws.counter_bytes) : nullptr;
        la.memset_ptr = ws.total() > 0 ? p.workspace : nullptr;
        la.memset_bytes = ws.total() > 0 ? static_cast<size_t>(ws.counter_bytes) : 0;

        // Persistent grid of whole clusters. Correct for any count (no cluster waits on another);
        // more than are co-resident would only run in waves.
        const long long tiles = static_cast<long long>((p.m + 63) / 64) * ((p.n + BN - 1) / BN);
        const long long units = tiles * groups;
        if (units * cs > 0x7fffffffll) return cudaErrorInvalidValue;
        const int log2_cs = cs == 8 ? 3 : cs == 4 ? 2 : cs == 2 ? 1 : 0;
        int max_clusters = std::max(1, num_sms / cs);
        const int measured = max_active_clusters(log2_cs).load(std::memory_order_relaxed);
        if (measured > 0) max_clusters = std::min(max_clusters, measured);
        const long long clusters = full_grid ? max_clusters : std::min<long long>(units, max_clusters);
        la.grid = dim3(static_cast<unsigned>(clusters * cs), 1, 1);
        la.block = dim3(Config::kThreads, 1, 1);
        la.cluster = dim3(static_cast<unsigned>(cs), 1, 1);
        la.smem = Config::kSmemBytes;
        return cudaSuccess;
    }

    static cudaError_t launch(const LaunchArgs& la, cudaStream_t stream) {
        if (la.memset_bytes > 0) {  // G > 1: zero the tile counters on this stream, every launch
            const cudaError_t err = cudaMemsetAsync(la.memset_ptr, 0, la.memset_bytes, stream);
            if (err != cudaSuccess) return err;
        }
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = la.grid;
        cfg.blockDim = la.block;
        cfg.dynamicSmemBytes = la.smem;
        cfg.stream = stream;
        cudaLaunchAttribute attr[2];
        int n = 0;
        if (la.cluster.x > 1) {
            attr[n].id = cudaLaunchAttributeClusterDimension;
            attr[n].val.clusterDim.x = la.cluster.x;
            attr[n].val.clusterDim.y = 1;
            attr[n].val.clusterDim.z = 1;
            ++n;
        }
        // NOTES: not after our own memset: the programmatic edge is meant for kernel -> kernel.
        if (detail::splitk_pdl_enabled() && la.memset_bytes == 0) {
            attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr[n].val.programmaticStreamSerializationAllowed = 1;
            ++n;
        }
        cfg.attrs = n > 0 ? attr : nullptr;
        cfg.numAttrs = static_cast<unsigned>(n);
        return cudaLaunchKernelEx(&cfg, detail::sm90_gemm_splitk_kernel<Config>, la.tma_a, la.tma_b,
                                  la.tma_d, la.params);
    }

private:
    static cudaError_t initialize_current(int device) {
        int major = 0, minor = 0;
        cudaError_t err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
        if (err != cudaSuccess) return err;
        err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
        if (err != cudaSuccess) return err;
        if (major != 9 || minor != 0) return cudaErrorNoKernelImageForDevice;
        if (detail::encode_tiled_fn() == nullptr) return cudaErrorNotSupported;
        err = cudaFuncSetAttribute(kernel_function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   Config::kSmemBytes);
        if (err != cudaSuccess) return err;
        int sms = 0;
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err != cudaSuccess) return err;
        for (int l = 0; l < 4; ++l) {
            const int cs = 1 << l;
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(static_cast<unsigned>(std::max(cs, sms / cs * cs)));
            cfg.blockDim = dim3(Config::kThreads);
            cfg.dynamicSmemBytes = Config::kSmemBytes;
            cudaLaunchAttribute attr[1];
            attr[0].id = cudaLaunchAttributeClusterDimension;
            attr[0].val.clusterDim.x = static_cast<unsigned>(cs);
            attr[0].val.clusterDim.y = 1;
            attr[0].val.clusterDim.z = 1;
            cfg.attrs = attr;
            cfg.numAttrs = 1;
            int clusters = 0;
            err = cudaOccupancyMaxActiveClusters(&clusters, kernel_function(), &cfg);
            if (err != cudaSuccess) return err;
            if (clusters < 1) return cudaErrorInvalidConfiguration;
            max_active_clusters(l).store(clusters, std::memory_order_relaxed);
        }
        return cudaSuccess;
    }
};

}  // namespace graphgemm::kernels::sm90
