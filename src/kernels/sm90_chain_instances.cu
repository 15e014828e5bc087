// graphgemm: the sm90 GEMM-chain instances (sm90_chain_instances.hpp): cooperative tiles of
// cluster 1x1 with B stored N x K, 16-bit in and out:
//   64x64 (13 stages)  : decode-sized M with few output tiles per layer (hidden 512-1024 at M <= 256)
//   64x128 (8 stages)  : M <= 64 on wider layers
//   128x128 (6 stages) : larger M or wide layers
//   64x64 + 64x128     : both in one kernel, 64x64 while its tiles fit 64x128's grid in one wave
//                        (hidden 4096 at M <= 128: 61-63 against 68-71 us a chain of 4, session 30)
#include "sm90_chain_instances.hpp"

#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>

#include "graphgemm/kernels/sm90/sm90_gemm_chain.cuh"

namespace graphgemm::detail::sm90 {
namespace {

namespace k = graphgemm::kernels::sm90;

template <class AB>
using Tile64x64 = k::GemmConfig<AB, AB, 64, 64, 13, 1, 1, true>;
template <class AB>
using Tile64x128 = k::GemmConfig<AB, AB, 64, 128, 8, 1, 1, true>;
template <class AB>
using Tile128x128 = k::GemmConfig<AB, AB, 128, 128, 6, 1, 1, true>;
// Each entry: a host launcher k::GemmChain<Small, Large> (one tile: Small = Large).
template <class AB>
using ChainTiles = std::tuple<k::GemmChain<Tile64x64<AB>>, k::GemmChain<Tile64x128<AB>>, k::GemmChain<Tile128x128<AB>>,
                              k::GemmChain<Tile64x64<AB>, Tile64x128<AB>>>;
using ChainKernels = decltype(std::tuple_cat(ChainTiles<__nv_bfloat16>{}, ChainTiles<__half>{}));

using Args = k::ChainLaunchArgs;
static_assert(sizeof(Args) <= sizeof(ChainLaunchStorage) && alignof(Args) <= alignof(ChainLaunchStorage));
static_assert(std::is_trivially_copyable_v<Args>);

struct Entry {
    ChainKernelInfo info;
    cudaError_t (*initialize)(int);
    unsigned long long (*workspace)(int, int, const int*);
    int (*grid)(int, int, const int*, int);
    int (*small_max_m)(int, int, const int*, int);
    cudaError_t (*make)(const k::ChainProblem&, int, Args&);
    cudaError_t (*launch)(const Args&, cudaStream_t);
    const void* (*function)();
};

template <class C>
Entry make_entry() {
    using Config = typename C::Config;
    return Entry{ChainKernelInfo{C::name(), std::is_same_v<typename Config::ElementAB, __half> ? DTypeIn::fp16 : DTypeIn::bf16,
                                 Config::kBlockM, Config::kBlockN, Config::kStages, C::small_name(), C::large_name(),
                                 C::kSmallBlockN},
                 &C::initialize,
                 [](int max_m, int layers, const int* n) { return C::workspace_layout(max_m, layers, n).total; },
                 &C::grid_size, &C::small_max_m, &C::make_launch_args, &C::launch, &C::chain_function};
}

template <class... Cs>
const Entry* build(std::tuple<Cs...>*) {
    static const Entry table[] = {make_entry<Cs>()...};
    return table;
}

const Entry* table() {
    static const Entry* t = build(static_cast<ChainKernels*>(nullptr));
    return t;
}
constexpr int kCount = static_cast<int>(std::tuple_size_v<ChainKernels>);
bool valid(int i) { return i >= 0 && i < kCount; }
const Args& as_args(const ChainLaunchStorage& s) { return *reinterpret_cast<const Args*>(s.bytes); }

}  // namespace

int chain_kernel_count() { return kCount; }
const ChainKernelInfo& chain_kernel_info(int i) { return table()[valid(i) ? i : 0].info; }
int find_chain_kernel(const char* name) {
    for (int i = 0; i < kCount; ++i)
        if (std::strcmp(table()[i].info.name, name) == 0) return i;
    return -1;
}
cudaError_t chain_initialize(int i, int device) { return valid(i) ? table()[i].initialize(device) : cudaErrorInvalidValue; }
unsigned long long chain_workspace_bytes(int i, int max_m, int layers, const int* n) {
    return valid(i) ? table()[i].workspace(max_m, layers, n) : 0;
}
int chain_grid(int i, int max_m, int layers, const int* n, int num_sms) {
    return valid(i) ? table()[i].grid(max_m, layers, n, num_sms) : 0;
}
int chain_small_max_m(int i, int max_m, int layers, const int* n, int num_sms) {
    return valid(i) ? table()[i].small_max_m(max_m, layers, n, num_sms) : 0;
}
cudaError_t chain_make_launch_args(int i, const k::ChainProblem& p, int num_sms, ChainLaunchStorage& out) {
    if (!valid(i)) return cudaErrorInvalidValue;
    // Made in place: no copy of the ~5 KB of arguments on every graph update.
    return table()[i].make(p, num_sms, *::new (static_cast<void*>(out.bytes)) Args);
}
cudaError_t chain_launch(int i, const ChainLaunchStorage& s, cudaStream_t stream) {
    return valid(i) ? table()[i].launch(as_args(s), stream) : cudaErrorInvalidValue;
}
const void* chain_setup_function() { return std::tuple_element_t<0, ChainKernels>::setup_function(); }
const void* chain_function(int i) { return valid(i) ? table()[i].function() : nullptr; }
void* chain_setup_arg(const ChainLaunchStorage& s) { return const_cast<k::detail::ChainSetupParams*>(&as_args(s).setup); }
void* chain_step_arg(const ChainLaunchStorage& s) { return const_cast<k::detail::ChainStepParams*>(&as_args(s).step); }
std::size_t chain_setup_arg_bytes() { return sizeof(k::detail::ChainSetupParams); }
std::size_t chain_step_arg_bytes() { return sizeof(k::detail::ChainStepParams); }
LaunchGeometry chain_setup_geometry(const ChainLaunchStorage& s) {
    return LaunchGeometry{{1, 1, 1}, {std::tuple_element_t<0, ChainKernels>::kSetupThreads, 1, 1},
                          {1, 1, 1}, 0, as_args(s).programmatic};
}
LaunchGeometry chain_geometry(const ChainLaunchStorage& s) {
    const Args& a = as_args(s);
    return LaunchGeometry{{a.grid.x, a.grid.y, a.grid.z}, {a.block.x, a.block.y, a.block.z}, {1, 1, 1}, a.smem, true};
}

}  // namespace graphgemm::detail::sm90
