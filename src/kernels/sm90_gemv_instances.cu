// graphgemm: explicit instantiation of every gemv sm90 configuration (sm90_gemm_configs.cuh:
// GemvConfigs), in its own translation unit (compile time). sm90_gemm_instances.cu appends these
// rows to the instance table after the swap-AB ones.
#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"
#include "sm90_gemm_adapter.cuh"

namespace graphgemm::detail::sm90::instances {

const Entry* gemv_table() {
    static const Entry* t = build_table(static_cast<graphgemm::kernels::sm90::configs::GemvConfigs*>(nullptr));
    return t;
}

}  // namespace graphgemm::detail::sm90::instances
