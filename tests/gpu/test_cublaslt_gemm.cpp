// The cuBLASLt backend through GemmPlan, against an fp64 reference, outputs poisoned before each run.
#include <array>
#include <cstdint>
#include <vector>

#include "gemm_check.hpp"

using namespace graphgemm;
using support::GemmOperands;
using support::GemmSpec;

using graphgemm::testing::check_case;

TEST(CublasLt, HalfPrecisionSweep) {
  GRAPHGEMM_REQUIRE_GPU();
  const std::int64_t shapes[][3] = {{1, 1, 1},     {1, 256, 4096}, {17, 33, 65},   {128, 128, 128},
                                    {127, 259, 67}, {300, 200, 40}, {256, 512, 1024}};
  std::uint64_t seed = 1;
  for (DType in : {DType::bf16, DType::fp16})
    for (DType out : {in, DType::fp32})
      for (Layout b_layout : {Layout::col_major, Layout::row_major})
        for (const auto& s : shapes)
          for (int epilogue = 0; epilogue < 3; ++epilogue) {
            GemmSpec spec{s[0], s[1], s[2], in, out};
            spec.b_layout = b_layout;
            spec.ld_pad = (seed % 3 == 0) ? 8 : 0;
            if (epilogue == 1) { spec.with_c = true; spec.alpha = 0.75f; spec.beta = -1.25f; }
            if (epilogue == 2) spec.with_bias = true;
            check_case(spec, Backend::cublaslt, seed++);
          }
}

TEST(CublasLt, Int8ToInt32IsExact) {
  GRAPHGEMM_REQUIRE_GPU();
  std::uint64_t seed = 100;
  for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{16, 16, 16}, {64, 128, 256}, {256, 512, 1024}, {1, 4096, 4096}}) {
    GemmSpec plain{s[0], s[1], s[2], DType::int8, DType::int32};
    check_case(plain, Backend::cublaslt, seed++);
    GemmSpec with_c = plain;
    with_c.with_c = true;
    with_c.alpha = 2.0f;
    with_c.beta = -1.0f;
    check_case(with_c, Backend::cublaslt, seed++);
  }
}

TEST(CublasLt, Fp8PerTensorScales) {
  GRAPHGEMM_REQUIRE_GPU();
  std::uint64_t seed = 200;
  for (DType out : {DType::bf16, DType::fp32})
    for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{16, 16, 32}, {128, 256, 512}, {1, 4096, 4096}}) {
      GemmSpec spec{s[0], s[1], s[2], DType::fp8_e4m3, out};
      spec.scale_a = 1;
      spec.scale_b = 1;
      spec.with_bias = out == DType::bf16;
      check_case(spec, Backend::cublaslt, seed++);
    }
}

TEST(CublasLt, Fp8RowwiseScales) {
  GRAPHGEMM_REQUIRE_GPU();
  GemmSpec spec{128, 256, 512, DType::fp8_e4m3, DType::bf16};
  spec.scale_a = 2;
  spec.scale_b = 2;
  GemmOperands ops(spec, 300);
  GemmPlan plan;
  const Status init = plan.initialize(ops.args(), {Backend::cublaslt});
  if (init.code() == StatusCode::not_supported)
    GTEST_SKIP() << "cuBLASLt on this GPU has no row-wise fp8 scaling: " << init.message();
  ASSERT_TRUE(init.ok()) << init.to_string();
  check_case(spec, Backend::cublaslt, 301);
}

TEST(CublasLt, EmptyProductsAndKZero) {
  GRAPHGEMM_REQUIRE_GPU();
  // M = 0 and N = 0: nothing to do, nothing launched.
  for (const auto& s : std::vector<std::array<std::int64_t, 3>>{{0, 64, 64}, {64, 0, 64}}) {
    GemmSpec spec{s[0], s[1], s[2]};
    GemmOperands ops(spec, 400);
    GemmPlan plan;
    ASSERT_TRUE(plan.initialize(ops.args()).ok());
    EXPECT_TRUE(plan.run(ops.args(), {}, nullptr).ok());
  }
  // K = 0: D = beta·C + bias.
  for (DType out : {DType::bf16, DType::fp32}) {
    GemmSpec spec{33, 65, 0, DType::bf16, out};
    spec.with_c = true;
    spec.beta = 0.5f;
    spec.with_bias = true;
    check_case(spec, Backend::cublaslt, 401);
  }
}

TEST(CublasLt, AutomaticPicksAWorkingBackendAndSaysWhich) {
  GRAPHGEMM_REQUIRE_GPU();
  GemmSpec spec{64, 128, 256};
  GemmOperands ops(spec, 500);
  GemmPlan plan;
  ASSERT_TRUE(plan.initialize(ops.args()).ok());
  EXPECT_NE(plan.backend(), Backend::automatic);
  EXPECT_NE(plan.describe().find(to_string(plan.backend())), std::string::npos) << plan.describe();
  check_case(spec, Backend::automatic, 501);
}
