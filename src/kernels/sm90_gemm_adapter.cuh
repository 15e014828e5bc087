// graphgemm: one row of the sm90 instance table (sm90_gemm_instances.hpp) for a kernel
// configuration: Adapter<Config> over k::Gemm<Config>. Internal to the instance .cu files, which
// each instantiate a share of the configurations (compile time): sm90_gemm_instances.cu the
// cooperative ones, sm90_gemm_pingpong_instances.cu the ping-pong ones,
// sm90_gemm_swapab_instances.cu the swap-AB ones, sm90_gemv_instances.cu the gemv ones.
#pragma once

#include <cstring>
#include <tuple>
#include <type_traits>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"
#include "graphgemm/kernels/sm90/sm90_gemv.cuh"
#include "sm90_gemm_instances.hpp"

namespace graphgemm::detail::sm90::instances {

namespace k = graphgemm::kernels::sm90;

struct Entry {
    KernelInfo info;
    cudaError_t (*initialize)(int);
    cudaError_t (*make_launch_args)(const k::GemmParams&, int, LaunchArgsStorage&, bool);
    cudaError_t (*launch)(const LaunchArgsStorage&, cudaStream_t);
    const void* (*function)();                                  // the full kernel (attributes)
    const void* (*launch_function)(const LaunchArgsStorage&);   // the kernel these arguments launch
    int (*args)(const LaunchArgsStorage&, void* [4]);  // returns the argument count
    LaunchGeometry (*geometry)(const LaunchArgsStorage&);
    int (*split_cluster_capacity)(int, int);
};

// The launcher of a configuration: Gemv for the gemv ones, Gemm for the TMA kernels.
template <class Config>
struct LauncherOf {
    using type = k::Gemm<Config>;
};
template <class Config>
    requires(k::detail::schedule_of<Config>() == k::Schedule::gemv)
struct LauncherOf<Config> {
    using type = k::Gemv<Config>;
};

template <class Config>
struct Adapter {
    using G = typename LauncherOf<Config>::type;
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
    static int args(const LaunchArgsStorage& s, void* out[4]) { return G::kernel_args(as_args(s), out); }
    static const void* launch_function(const LaunchArgsStorage& s) { return G::kernel_function(as_args(s)); }
    static LaunchGeometry geometry(const LaunchArgsStorage& s) {
        const Args& a = as_args(s);
        return LaunchGeometry{{a.grid.x, a.grid.y, a.grid.z},
                              {a.block.x, a.block.y, a.block.z},
                              {a.cluster.x, a.cluster.y, a.cluster.z},
                              a.smem,
                              a.programmatic};
    }

    template <class T>
    static constexpr DTypeOut out_type() {
        if constexpr (std::is_same_v<T, float>) return DTypeOut::fp32;
        else if constexpr (std::is_same_v<T, __half>) return DTypeOut::fp16;
        else return DTypeOut::bf16;
    }

    // The persistent kernels are built for one CTA an SM (__launch_bounds__(threads, 1)).
    static constexpr int ctas_per_sm() {
        if constexpr (requires { Config::kCtasPerSm; }) return Config::kCtasPerSm;
        else return 1;
    }

    static Entry entry() {
        return Entry{
            KernelInfo{G::name(),
                       std::is_same_v<typename Config::ElementAB, __half> ? DTypeIn::fp16
                                                                         : DTypeIn::bf16,
                       out_type<typename Config::ElementD>(), Config::kBlockM, Config::kBlockN,
                       Config::kBlockK, Config::kStages, Config::kClusterM, Config::kClusterN,
                       Config::kConsumerWGs, Config::kThreads, Config::kSmemBytes, ctas_per_sm(),
                       Config::kBKMajor, G::schedule(), G::supports_split_cluster(2)},
            &G::initialize, &make, &launch, static_cast<const void* (*)()>(&G::kernel_function), &launch_function,
            &args, &geometry,
            &G::split_cluster_capacity};
    }
};

template <class... Configs>
const Entry* build_table(std::tuple<Configs...>*) {
    static const Entry table[] = {Adapter<Configs>::entry()...};
    return table;
}

// The ping-pong rows, in k::configs::PingpongConfigs order (sm90_gemm_pingpong_instances.cu).
const Entry* pingpong_table();
// The swap-AB rows, in k::configs::SwapABConfigs order (sm90_gemm_swapab_instances.cu).
const Entry* swapab_table();
// The gemv rows, in k::configs::GemvConfigs order (sm90_gemv_instances.cu).
const Entry* gemv_table();

}  // namespace graphgemm::detail::sm90::instances
