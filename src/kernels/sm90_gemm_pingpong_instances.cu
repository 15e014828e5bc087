// graphgemm: explicit instantiation of every ping-pong sm90 GEMM configuration
// (sm90_gemm_configs.cuh: PingpongConfigs), in its own translation unit so that the two instance
// files compile in parallel. sm90_gemm_instances.cu appends these rows to the instance table.
#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"
#include "sm90_gemm_adapter.cuh"

namespace graphgemm::detail::sm90::instances {

const Entry* pingpong_table() {
    static const Entry* t =
        build_table(static_cast<graphgemm::kernels::sm90::configs::PingpongConfigs*>(nullptr));
    return t;
}

}  // namespace graphgemm::detail::sm90::instances
