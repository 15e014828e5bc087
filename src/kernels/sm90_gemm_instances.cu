// graphgemm: explicit instantiation of every sm90 GEMM configuration (sm90_gemm_configs.cuh)
// behind the non-template interface of sm90_gemm_instances.hpp.
#include "sm90_gemm_instances.hpp"

#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"
#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

namespace graphgemm::detail::sm90 {
namespace {

namespace k = graphgemm::kernels::sm90;

struct Entry {
    KernelInfo info;
    cudaError_t (*initialize)(int);
    cudaError_t (*make_launch_args)(const k::GemmParams&, int, LaunchArgsStorage&, bool);
    cudaError_t (*launch)(const LaunchArgsStorage&, cudaStream_t);
    const void* (*function)();
    void (*args)(const LaunchArgsStorage&, void* [4]);
    LaunchGeometry (*geometry)(const LaunchArgsStorage&);
};

template <class Config>
struct Adapter {
    using G = k::Gemm<Config>;
    using Args = typename G::LaunchArgs;
    static_assert(sizeof(Args) <= sizeof(LaunchArgsStorage));
    static_assert(alignof(Args) <= alignof(LaunchArgsStorage));
    static_assert(std::is_trivially_copyable_v<Args>);

    static const Args& as_args(const LaunchArgsStorage& s) {
        return *reinterpret_cast<const Args*>(s.bytes);
    }
    static cudaError_t make(const k::GemmParams& p, int num_sms, LaunchArgsStorage& s,
                            bool full_grid) {
        Args args;
        const cudaError_t err = G::make_launch_args(p, num_sms, args, full_grid);
        if (err == cudaSuccess) std::memcpy(s.bytes, &args, sizeof(Args));
        return err;
    }
    static cudaError_t launch(const LaunchArgsStorage& s, cudaStream_t stream) {
        return G::launch(as_args(s), stream);
    }
    static void args(const LaunchArgsStorage& s, void* out[4]) { G::kernel_args(as_args(s), out); }
    static LaunchGeometry geometry(const LaunchArgsStorage& s) {
        const Args& a = as_args(s);
        return LaunchGeometry{{a.grid.x, a.grid.y, a.grid.z},
                              {a.block.x, a.block.y, a.block.z},
                              {a.cluster.x, a.cluster.y, a.cluster.z},
                              a.smem,
                              a.memset_ptr,
                              a.memset_bytes};
    }

    template <class T>
    static constexpr DTypeOut out_type() {
        if constexpr (std::is_same_v<T, float>) return DTypeOut::fp32;
        else if constexpr (std::is_same_v<T, __half>) return DTypeOut::fp16;
        else return DTypeOut::bf16;
    }

    static Entry entry() {
        return Entry{
            KernelInfo{G::name(),
                       std::is_same_v<typename Config::ElementAB, __half> ? DTypeIn::fp16
                                                                         : DTypeIn::bf16,
                       out_type<typename Config::ElementD>(), Config::kBlockM, Config::kBlockN,
                       Config::kBlockK, Config::kStages, Config::kClusterM, Config::kClusterN,
                       Config::kConsumerWGs, Config::kThreads, Config::kSmemBytes,
                       Config::kBKMajor},
            &G::initialize, &make, &launch, &G::kernel_function, &args, &geometry};
    }
};

template <class... Configs>
const Entry* build_table(std::tuple<Configs...>*) {
    static const Entry table[] = {Adapter<Configs>::entry()...};
    return table;
}

const Entry* table() {
    static const Entry* t = build_table(static_cast<k::configs::AllConfigs*>(nullptr));
    return t;
}

constexpr int kCount = static_cast<int>(std::tuple_size_v<k::configs::AllConfigs>);

bool valid(int i) { return i >= 0 && i < kCount; }

}  // namespace

int kernel_count() { return kCount; }

const KernelInfo& kernel_info(int i) { return table()[valid(i) ? i : 0].info; }

int find_kernel(const char* name) {
    for (int i = 0; i < kCount; ++i)
        if (std::strcmp(table()[i].info.name, name) == 0) return i;
    return -1;
}

cudaError_t kernel_initialize(int i, int device) {
    return valid(i) ? table()[i].initialize(device) : cudaErrorInvalidValue;
}

cudaError_t kernel_make_launch_args(int i, const kernels::sm90::GemmParams& params, int num_sms,
                                    LaunchArgsStorage& storage, bool full_grid) {
    return valid(i) ? table()[i].make_launch_args(params, num_sms, storage, full_grid)
                    : cudaErrorInvalidValue;
}

cudaError_t kernel_launch(int i, const LaunchArgsStorage& storage, cudaStream_t stream) {
    return valid(i) ? table()[i].launch(storage, stream) : cudaErrorInvalidValue;
}

const void* kernel_function(int i) { return valid(i) ? table()[i].function() : nullptr; }

void kernel_args(int i, const LaunchArgsStorage& storage, void* args[4]) {
    if (valid(i)) table()[i].args(storage, args);
}

kernels::sm90::SplitWorkspaceLayout kernel_split_workspace(int i, long long m, long long n,
                                                           kernels::sm90::SplitMode mode, int splits) {
    if (!valid(i)) return {};
    const KernelInfo& ki = table()[i].info;
    return kernels::sm90::split_workspace_layout(m, n, ki.block_m, ki.block_n, ki.cluster_m,
                                                 ki.cluster_n, mode, splits);
}

LaunchGeometry kernel_geometry(int i, const LaunchArgsStorage& storage) {
    return valid(i) ? table()[i].geometry(storage) : LaunchGeometry{};
}

}  // namespace graphgemm::detail::sm90
