// graphgemm: explicit instantiation of every cooperative sm90 GEMM configuration
// (sm90_gemm_configs.cuh: AllConfigs) behind the non-template interface of
// sm90_gemm_instances.hpp. The ping-pong and swap-AB configurations are instantiated in
// sm90_gemm_pingpong_instances.cu, sm90_gemm_swapab_instances.cu and sm90_gemv_instances.cu
// (compile time); the table lists them after these.
#include "sm90_gemm_instances.hpp"

#include <cstring>
#include <tuple>

#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"
#include "sm90_gemm_adapter.cuh"

namespace graphgemm::detail::sm90 {
namespace {

namespace k = graphgemm::kernels::sm90;
using instances::Entry;

const Entry* cooperative_table() {
    static const Entry* t = instances::build_table(static_cast<k::configs::AllConfigs*>(nullptr));
    return t;
}

constexpr int kCooperative = static_cast<int>(std::tuple_size_v<k::configs::AllConfigs>);
constexpr int kPingpong = static_cast<int>(std::tuple_size_v<k::configs::PingpongConfigs>);
constexpr int kSwapAB = static_cast<int>(std::tuple_size_v<k::configs::SwapABConfigs>);
constexpr int kGemv = static_cast<int>(std::tuple_size_v<k::configs::GemvConfigs>);
constexpr int kCount = kCooperative + kPingpong + kSwapAB + kGemv;

bool valid(int i) { return i >= 0 && i < kCount; }

// Row i of the table: the cooperative instances first, then the ping-pong ones, swap-AB, gemv.
const Entry& entry(int i) {
    if (!valid(i)) i = 0;
    if (i < kCooperative) return cooperative_table()[i];
    if (i < kCooperative + kPingpong) return instances::pingpong_table()[i - kCooperative];
    if (i < kCooperative + kPingpong + kSwapAB) return instances::swapab_table()[i - kCooperative - kPingpong];
    return instances::gemv_table()[i - kCooperative - kPingpong - kSwapAB];
}

}  // namespace

int kernel_count() { return kCount; }

const KernelInfo& kernel_info(int i) { return entry(i).info; }

int find_kernel(const char* name) {
    for (int i = 0; i < kCount; ++i)
        if (std::strcmp(entry(i).info.name, name) == 0) return i;
    return -1;
}

cudaError_t kernel_initialize(int i, int device) {
    return valid(i) ? entry(i).initialize(device) : cudaErrorInvalidValue;
}

cudaError_t kernel_make_launch_args(int i, const kernels::sm90::GemmParams& params, int num_sms,
                                    LaunchArgsStorage& storage, bool full_grid) {
    return valid(i) ? entry(i).make_launch_args(params, num_sms, storage, full_grid)
                    : cudaErrorInvalidValue;
}

cudaError_t kernel_launch(int i, const LaunchArgsStorage& storage, cudaStream_t stream) {
    return valid(i) ? entry(i).launch(storage, stream) : cudaErrorInvalidValue;
}

const void* kernel_function(int i) { return valid(i) ? entry(i).function() : nullptr; }

const void* kernel_launch_function(int i, const LaunchArgsStorage& storage) {
    return valid(i) ? entry(i).launch_function(storage) : nullptr;
}

int kernel_args(int i, const LaunchArgsStorage& storage, void* args[4]) {
    return valid(i) ? entry(i).args(storage, args) : 0;
}

kernels::sm90::SplitWorkspaceLayout kernel_split_workspace(int i, long long m, long long n,
                                                           kernels::sm90::SplitMode mode, int splits,
                                                           int split_cluster) {
    if (!valid(i)) return {};
    const KernelInfo& ki = entry(i).info;
    if (!supports_split_k(ki)) return {};
    return kernels::sm90::split_workspace_layout(m, n, ki.block_m, ki.block_n, ki.cluster_m,
                                                 ki.cluster_n, mode, splits, split_cluster);
}

int kernel_split_cluster_capacity(int i, int c, int num_sms) {
    return valid(i) && entry(i).info.split_cluster ? entry(i).split_cluster_capacity(c, num_sms) : 0;
}

LaunchGeometry kernel_geometry(int i, const LaunchArgsStorage& storage) {
    return valid(i) ? entry(i).geometry(storage) : LaunchGeometry{};
}

}  // namespace graphgemm::detail::sm90
