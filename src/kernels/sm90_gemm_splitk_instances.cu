// graphgemm: explicit instantiation of the split-K kernel (sm90_gemm_splitk.cuh) for every input
// and output type and both B layouts, in its own translation unit. sm90_gemm_instances.cu appends
// these rows to the instance table, after the ping-pong ones.
#include <tuple>

#include "graphgemm/kernels/sm90/sm90_gemm_splitk_launch.cuh"
#include "sm90_gemm_adapter.cuh"

namespace graphgemm::detail::sm90::instances {
namespace {

template <class AB, class D>
using SplitKLayoutSet = std::tuple<k::SplitKConfig<AB, D, 128, true>, k::SplitKConfig<AB, D, 128, false>>;
template <class AB>
using SplitKOutputSet = decltype(std::tuple_cat(SplitKLayoutSet<AB, __nv_bfloat16>{}, SplitKLayoutSet<AB, __half>{},
                                                SplitKLayoutSet<AB, float>{}));
using SplitKConfigs = decltype(std::tuple_cat(SplitKOutputSet<__nv_bfloat16>{}, SplitKOutputSet<__half>{}));

template <class... Configs>
const Entry* build_splitk_table(std::tuple<Configs...>*) {
    static const Entry table[] = {Adapter<Configs, k::SplitKGemm<Configs>>::entry()...};
    return table;
}

}  // namespace

int splitk_count() { return static_cast<int>(std::tuple_size_v<SplitKConfigs>); }

const Entry* splitk_table() {
    static const Entry* t = build_splitk_table(static_cast<SplitKConfigs*>(nullptr));
    return t;
}

}  // namespace graphgemm::detail::sm90::instances
