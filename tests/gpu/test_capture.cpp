// run() is legal under stream capture in every mode: captured once, the graph replays the same GEMM.
#include <cstdint>
#include <vector>

#include "gemm_check.hpp"

using namespace graphgemm;
using support::GemmOperands;
using support::GemmSpec;

namespace {

class Capture : public ::testing::TestWithParam<cudaStreamCaptureMode> {};


}  // namespace

TEST_P(Capture, ReplayMatchesEagerBitwise) {
  GRAPHGEMM_REQUIRE_GPU();
  for (DType in : {DType::bf16, DType::int8}) {
    GemmSpec spec{200, 136, 264, in, in == DType::int8 ? DType::int32 : DType::bf16};
    spec.with_c = true;
    spec.beta = in == DType::int8 ? 1.0f : 0.5f;
    spec.with_bias = in != DType::int8;
    SCOPED_TRACE(spec.to_string());
    GemmOperands ops(spec, 77);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args(), {Backend::cublaslt}).ok());
    support::DeviceBuffer ws(plan.workspace_size(ops.args()));
    cudaStream_t stream = nullptr;
    SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    ASSERT_TRUE(plan.run(ops.args(), {ws.get(), ws.bytes()}, stream).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    const std::vector<unsigned char> eager = support::download(ops.args().d);
    ASSERT_LT(ops.check().rel_error, GemmOperands::tolerance(spec.in, spec.out) + 1e-12);

    ops.poison_output(stream);
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    cudaGraph_t graph = nullptr;
    SUPPORT_CUDA(cudaStreamBeginCapture(stream, GetParam()));
    const Status s = plan.run(ops.args(), {ws.get(), ws.bytes()}, stream);
    cudaStreamCaptureStatus capture_status = cudaStreamCaptureStatusNone;
    SUPPORT_CUDA(cudaStreamIsCapturing(stream, &capture_status));
    const cudaError_t end = cudaStreamEndCapture(stream, &graph);
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_EQ(capture_status, cudaStreamCaptureStatusActive) << "run() invalidated the capture";
    ASSERT_EQ(end, cudaSuccess) << cudaGetErrorString(end);

    cudaGraphExec_t exec = nullptr;
    SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    std::vector<unsigned char> poisoned = support::download(ops.args().d);
    EXPECT_NE(poisoned, eager) << "capturing must not execute the GEMM";
    graphgemm::testing::expect_replays_equal(exec, ops, stream, eager);
    SUPPORT_CUDA(cudaGraphExecDestroy(exec));
    SUPPORT_CUDA(cudaGraphDestroy(graph));
    SUPPORT_CUDA(cudaStreamDestroy(stream));
  }
}

INSTANTIATE_TEST_SUITE_P(AllModes, Capture,
                         ::testing::Values(cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                           cudaStreamCaptureModeRelaxed),
                         [](const auto& info) { return ::graphgemm::testing::capture_mode_name(info.param); });
