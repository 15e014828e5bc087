// Errors at run time: each returns a clear message and writes nothing.
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu_test.hpp"

using namespace graphgemm;
using support::GemmOperands;
using support::GemmSpec;

namespace {

class PlanErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    GRAPHGEMM_REQUIRE_GPU();
    ops_ = std::make_unique<GemmOperands>(GemmSpec{96, 160, 224}, 42);
    ASSERT_TRUE(plan_.initialize(ops_->args(), {Backend::cublaslt}).ok());
    ws_ = support::DeviceBuffer(plan_.workspace_size(ops_->args()) + 256);
    ops_->poison_output();
    SUPPORT_CUDA(cudaDeviceSynchronize());
    before_ = support::download(ops_->args().d);
  }
  // The run failed with `code` and a message containing `fragment`, and D still holds the poison.
  void expect_rejected(const GemmArgs& args, Workspace ws, cudaStream_t stream, StatusCode code, const char* fragment) {
    const Status s = plan_.run(args, ws, stream);
    EXPECT_EQ(s.code(), code) << s.to_string();
    EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
    SUPPORT_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(support::download(ops_->args().d), before_) << "D was written by a rejected run";
  }
  Workspace workspace() const { return {ws_.get(), ws_.bytes()}; }

  std::unique_ptr<GemmOperands> ops_;
  GemmPlan plan_;
  support::DeviceBuffer ws_;
  std::vector<unsigned char> before_;
};

}  // namespace

TEST_F(PlanErrors, WorkspaceTooSmall) {
  if (plan_.workspace_size(ops_->args()) == 0) GTEST_SKIP() << "this cuBLASLt algorithm needs no workspace";
  expect_rejected(ops_->args(), {ws_.get(), plan_.workspace_size(ops_->args()) - 1}, nullptr,
                  StatusCode::invalid_argument, "but this plan needs");
}

TEST_F(PlanErrors, NullPointer) {
  GemmArgs args = ops_->args();
  args.a.data = nullptr;
  expect_rejected(args, workspace(), nullptr, StatusCode::invalid_argument, "A is a null pointer");
}

TEST_F(PlanErrors, MisalignedOperand) {
  GemmArgs args = ops_->args();
  args.b.data = static_cast<const char*>(args.b.data) + 2;
  expect_rejected(args, workspace(), nullptr, StatusCode::invalid_argument, "B must be 16-byte aligned");
}

TEST_F(PlanErrors, DifferentProblem) {
  GemmArgs args = ops_->args();
  args.a.rows = 95;
  args.d.rows = 95;
  expect_rejected(args, workspace(), nullptr, StatusCode::invalid_argument, "differ from the problem the plan was built for");
}

TEST_F(PlanErrors, StreamOfAnotherDevice) {
  int count = 0;
  SUPPORT_CUDA(cudaGetDeviceCount(&count));
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices";
  cudaStream_t other = nullptr;
  SUPPORT_CUDA(cudaSetDevice(1));
  SUPPORT_CUDA(cudaStreamCreate(&other));
  SUPPORT_CUDA(cudaSetDevice(0));
  expect_rejected(ops_->args(), workspace(), other, StatusCode::invalid_argument, "the stream belongs to device 1");
  SUPPORT_CUDA(cudaStreamDestroy(other));
}

TEST(PlanInitErrors, UnsupportedOnCublasLtSaysWhatCan) {
  GRAPHGEMM_REQUIRE_GPU();
  GemmOperands w8a8(GemmSpec{64, 64, 64, DType::int8, DType::bf16}, 7);
  GemmPlan plan;
  Status s = plan.initialize(w8a8.args(), {Backend::cublaslt});
  EXPECT_EQ(s.code(), StatusCode::not_supported);
  EXPECT_NE(s.message().find("sm90 backend"), std::string::npos) << s.message();

  GemmSpec scaled{64, 64, 64};
  scaled.scale_a = 2;
  GemmOperands bf16_scaled(scaled, 8);
  s = plan.initialize(bf16_scaled.args(), {Backend::cublaslt});
  EXPECT_EQ(s.code(), StatusCode::not_supported);
  EXPECT_NE(s.message().find("fp8_e4m3 inputs only"), std::string::npos) << s.message();

  GemmSpec int_alpha{64, 64, 64, DType::int8, DType::int32};
  int_alpha.alpha = 0.5f;
  GemmOperands int8_ops(int_alpha, 9);
  s = plan.initialize(int8_ops.args(), {Backend::cublaslt});
  EXPECT_EQ(s.code(), StatusCode::not_supported);
  EXPECT_NE(s.message().find("integral alpha and beta"), std::string::npos) << s.message();
}
