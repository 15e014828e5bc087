// graphgemm: non-template interface to the compiled sm90 GEMM kernel instances.
// Include from host code; no CUDA device code and no kernel headers are pulled in.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "graphgemm/kernels/sm90/sm90_gemm_types.hpp"

namespace graphgemm::detail::sm90 {

enum class DTypeIn : uint8_t { bf16, fp16 };
enum class DTypeOut : uint8_t { bf16, fp16, fp32 };

struct KernelInfo {
    const char* name;          // e.g. "sm90_bf16_bf16_128x256x64_s4_c2x1_bk"
    DTypeIn dtype_in;          // A and B
    DTypeOut dtype_out;        // D (and C)
    int block_m, block_n, block_k;
    int stages;
    int cluster_m, cluster_n;  // CTAs per cluster along M / N (1x1, 2x1, 1x2 or 2x2)
    int consumer_warpgroups;   // cooperative: block_m / 64; pingpong: 2; swap_ab: block_n / 64 (the
                               // 256-token tile: 2, each on half the tokens)
    int threads;               // (consumer_warpgroups + 1) * 128
    int smem_bytes;            // dynamic shared memory per CTA
    int ctas_per_sm;           // CTAs an SM the compiled kernel fits: 1 for the persistent
                               // kernels (__launch_bounds__(threads, 1)), GemvConfig's for gemv
    bool b_k_major;            // true: B stored N x K (ldb >= K); false: B stored K x N (ldb >= N)
    // cooperative: the consumer warpgroups share one block_m x block_n tile; split-K supported.
    // pingpong: each of the 2 consumer warpgroups owns a whole block_m x block_n tile and they
    // alternate on the tensor cores (epilogue overlapped); no split-K (name has "_pp").
    // swap_ab: block_m tokens x block_n weight rows computed as D^T (weights on wgmma's M), for
    // decode-sized M; B stored N x K only; split-K only as slices summed within one cluster (name
    // has "_sw").
    // gemv: block_n (16) weight rows a CTA streamed into mma.sync fragments, block_m (8 or 16)
    // tokens a pass, `threads` / 32 warps splitting K in chunks of block_k (32) columns, `stages`
    // chunks a warp loads before it multiplies; B stored N x K only; no split-K, no cluster, no
    // dynamic shared memory (name has "_gemv").
    graphgemm::kernels::sm90::Schedule schedule;
    // Parallel split-K slices can be summed within clusters of 2, 4 or 8 CTAs (GemmParams::
    // split_cluster): cooperative, cluster 1x1, block_n <= 128; swap-AB (see can_sum_in_cluster).
    bool split_cluster;
};

// Whether instance `k` can run split-K through the workspace (serial, parallel, stream-K): the
// cooperative schedule only.
inline bool supports_split_k(const KernelInfo& k) {
    return k.schedule == graphgemm::kernels::sm90::Schedule::cooperative;
}
// Whether instance `k` can sum `slices` parallel split-K slices in clusters of `c` CTAs: c = 2, 4
// or 8 for the kernels with KernelInfo::split_cluster; swap-AB kernels only with slices == c (no
// workspace) and c at most their consumer warps (each CTA of the cluster owns one warp's share).
inline bool can_sum_in_cluster(const KernelInfo& k, int slices, int c) {
    if (!k.split_cluster || (c != 2 && c != 4 && c != 8) || slices % c != 0) return false;
    if (k.schedule == graphgemm::kernels::sm90::Schedule::swap_ab)
        return slices == c && c <= 4 * k.consumer_warpgroups;
    return true;
}
inline const char* schedule_name(graphgemm::kernels::sm90::Schedule s) {
    return s == graphgemm::kernels::sm90::Schedule::pingpong  ? "pingpong"
           : s == graphgemm::kernels::sm90::Schedule::swap_ab ? "swap_ab"
           : s == graphgemm::kernels::sm90::Schedule::gemv    ? "gemv"
                                                              : "cooperative";
}

// Opaque storage for one instance's LaunchArgs (tensor maps + params + geometry).
struct alignas(128) LaunchArgsStorage {
    unsigned char bytes[1024];
};

struct LaunchGeometry {
    unsigned grid[3], block[3], cluster[3];
    size_t smem;
    // Launched with programmatic stream serialization (PDL): a graph node of it may take
    // programmatic edges from the kernel nodes before it.
    bool programmatic = false;
};

int kernel_count();
const KernelInfo& kernel_info(int i);
int find_kernel(const char* name);  // index, or -1

// One-time per device (max dynamic smem attribute, driver entry point, cluster occupancy).
cudaError_t kernel_initialize(int i, int device);

// Split-K workspace of instance i for an M x N problem (total() == 0 when splits <= 1, and for
// instances without split-K).
graphgemm::kernels::sm90::SplitWorkspaceLayout kernel_split_workspace(
    int i, long long m, long long n, graphgemm::kernels::sm90::SplitMode mode, int splits,
    int split_cluster = 1);

// The most clusters of `c` CTAs (2, 4 or 8) of instance i that can be co-resident on the device
// kernel_initialize(i, device) measured (num_sms / c before that); 0 for instances without
// KernelInfo::split_cluster.
int kernel_split_cluster_capacity(int i, int c, int num_sms);

// Host-only, legal under stream capture. Returns cudaErrorInvalidValue for shapes / alignments
// the kernel cannot handle (and for splits > 1 on an instance without split-K). The grid is
// the work units of M x N (at most the co-resident CTAs; a graph node update sets it anew);
// full_grid: the co-resident maximum instead, CTAs without work exiting (tools/sm90_gemm_check
// runs both).
cudaError_t kernel_make_launch_args(int i, const graphgemm::kernels::sm90::GemmParams& params,
                                    int num_sms, LaunchArgsStorage& storage,
                                    bool full_grid = false);

// Enqueues the launch: with split-K, a kernel zeroing the workspace counters and then the GEMM kernel.
cudaError_t kernel_launch(int i, const LaunchArgsStorage& storage, cudaStream_t stream);

// The instance's full __global__ function (function attributes, occupancy).
const void* kernel_function(int i);
// For graph kernel nodes: the __global__ function these arguments launch (the full kernel, or its
// unsplit twin for unsplit work), its argument pointers (into `storage`; returns how many: 4 for
// the TMA kernels (three tensor maps and the parameters), 1 for gemv) and the launch geometry
// (cluster dims must be set as a node attribute when cluster[0] > 1).
const void* kernel_launch_function(int i, const LaunchArgsStorage& storage);
int kernel_args(int i, const LaunchArgsStorage& storage, void* args[4]);
LaunchGeometry kernel_geometry(int i, const LaunchArgsStorage& storage);

}  // namespace graphgemm::detail::sm90
