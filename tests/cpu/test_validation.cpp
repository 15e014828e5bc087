// Validation runs before anything is launched: each bad input has its own message.
#include <gtest/gtest.h>

#include "fake_problem.hpp"

#include <cstdint>
#include <string>

#include "gemm/validate.hpp"

using namespace graphgemm;
using graphgemm::testing::fake_address;
using graphgemm::testing::fake_linear;
using graphgemm::detail::check_alignment;
using graphgemm::detail::check_same_problem;
using graphgemm::detail::validate_problem;
using graphgemm::testing::expect_error;

TEST(Validation, WellFormedProblemsPass) {
  EXPECT_TRUE(validate_problem(fake_linear(128, 4096, 4096), true).ok());
  EXPECT_TRUE(validate_problem(fake_linear(1, 1, 1), true).ok());
  EXPECT_TRUE(validate_problem(fake_linear(7, 13, 17, DType::fp16, DType::fp32), true).ok());
  EXPECT_TRUE(validate_problem(fake_linear(64, 64, 64, DType::int8, DType::int32), true).ok());
  EXPECT_TRUE(validate_problem(fake_linear(64, 64, 64, DType::fp8_e4m3, DType::bf16), true).ok());
}

TEST(Validation, NullPointersAreNamed) {
  GemmArgs g = fake_linear(16, 16, 16);
  g.b.data = nullptr;
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "B is a null pointer");
  EXPECT_TRUE(validate_problem(g, false).ok()) << "plans are built without buffers";
  g = fake_linear(16, 16, 16);
  g.bias = VectorView{nullptr, DType::bf16, 16};
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "bias is a null pointer");
}

TEST(Validation, EmptyOperandsMayBeNull) {
  GemmArgs g = fake_linear(0, 16, 16);
  g.a.data = nullptr;
  g.d.data = nullptr;
  EXPECT_TRUE(validate_problem(g, true).ok());
}

TEST(Validation, InconsistentShapes) {
  GemmArgs g = fake_linear(16, 32, 64);
  g.b = MatrixView::row_major(fake_address(0x20000), DType::bf16, 48, 32);
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "A's columns (K = 64) must equal B's rows");
  g = fake_linear(16, 32, 64);
  g.d.cols = 31;
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "D is 16 x 31 but A · B is 16 x 32");
  g = fake_linear(16, 32, 64);
  g.c = MatrixView::row_major(fake_address(0x40000), DType::bf16, 32, 16);
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "C must have D's shape");
  g = fake_linear(16, 32, 64);
  g.a.rows = -1;
  g.d.rows = -1;
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "negative dimension");
}

TEST(Validation, LeadingDimensionTooSmall) {
  GemmArgs g = fake_linear(16, 32, 64);
  g.a.ld = 63;
  expect_error(validate_problem(g, true), StatusCode::invalid_argument,
               "A's leading dimension 63 is smaller than its 64 columns");
  g = fake_linear(16, 32, 64);
  g.b.ld = 10;  // column-major K x N: ld counts rows (K)
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "B's leading dimension 10 is smaller than its 64 rows");
}

TEST(Validation, UnsupportedDtypeCombinations) {
  expect_error(validate_problem(fake_linear(8, 8, 8, DType::bf16, DType::fp16), true), StatusCode::not_supported,
               "unsupported dtype combination bf16 -> fp16");
  expect_error(validate_problem(fake_linear(8, 8, 8, DType::fp32, DType::fp32), true), StatusCode::not_supported,
               "unsupported dtype combination");
  GemmArgs g = fake_linear(8, 8, 8);
  g.b.dtype = DType::fp16;
  expect_error(validate_problem(g, true), StatusCode::not_supported, "A and B must have the same dtype");
  g = fake_linear(8, 8, 8);
  g.c = MatrixView::row_major(fake_address(0x40000), DType::fp32, 8, 8);
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "C must have D's dtype");
}

TEST(Validation, VectorLengthsAndTypes) {
  GemmArgs g = fake_linear(16, 32, 64);
  g.bias = VectorView{fake_address(0x50000), DType::bf16, 16};
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "bias has 16 entries; it needs 32");
  g.bias = VectorView{fake_address(0x50000), DType::fp16, 32};
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "bias has dtype fp16; it must be bf16 or fp32");
  g = fake_linear(16, 32, 64, DType::fp8_e4m3, DType::bf16);
  g.scale_a = VectorView{fake_address(0x50000), DType::fp32, 32};
  expect_error(validate_problem(g, true), StatusCode::invalid_argument,
               "scale_a has 32 entries; it needs 16 (one per row of A) or 1");
  g.scale_a = VectorView{fake_address(0x50000), DType::fp32, 1};
  g.scale_b = VectorView{fake_address(0x60000), DType::bf16, 32};
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "scale_b has dtype bf16; it must be fp32");
  g.scale_b = VectorView{fake_address(0x60000), DType::fp32, 32};
  EXPECT_TRUE(validate_problem(g, true).ok());
}

TEST(Validation, BetaNeedsC) {
  GemmArgs g = fake_linear(16, 32, 64);
  g.beta = 0.5f;
  expect_error(validate_problem(g, true), StatusCode::invalid_argument, "no C was given");
}

TEST(Validation, OutputMustBeRowMajor) {
  GemmArgs g = fake_linear(16, 32, 64);
  g.d.layout = Layout::col_major;
  g.d.ld = 16;
  expect_error(validate_problem(g, true), StatusCode::not_supported, "D must be row-major");
}

TEST(Validation, AlignmentNamesOperandAndAddress) {
  const graphgemm::detail::AlignmentRequirements tma{16, 16, "TMA needs 16-byte aligned rows"};
  GemmArgs g = fake_linear(16, 32, 64);
  EXPECT_TRUE(check_alignment(g, tma).ok());
  g.b.data = fake_address(0x20004);
  expect_error(check_alignment(g, tma), StatusCode::invalid_argument,
               "B must be 16-byte aligned (got address 0x20004); TMA needs 16-byte aligned rows");
  g = fake_linear(16, 32, 60);  // K = 60 bf16: 120-byte rows
  expect_error(check_alignment(g, tma), StatusCode::invalid_argument,
               "A's leading dimension 60 (120 bytes) must be a multiple of 16 bytes, i.e. of 8 bf16 elements");
  EXPECT_TRUE(check_alignment(g, {16, 0, ""}).ok()) << "no leading-dimension requirement";
  g = fake_linear(16, 32, 64);
  g.scale_a = VectorView{fake_address(0x50002), DType::fp32, 16};
  expect_error(check_alignment(g, tma), StatusCode::invalid_argument, "scale_a must be 4-byte aligned");
}

TEST(Validation, SameProblemComparesEverythingButPointers) {
  const GemmArgs planned = fake_linear(128, 256, 512);
  GemmArgs g = planned;
  g.a.data = fake_address(0x90000);
  g.alpha = 3.0f;
  EXPECT_TRUE(check_same_problem(planned, g).ok());
  g = fake_linear(64, 256, 512);
  expect_error(check_same_problem(planned, g), StatusCode::invalid_argument, "A's shape is 64 x 512 here but 128 x 512");
  g = planned;
  g.b.ld = 1024;
  expect_error(check_same_problem(planned, g), StatusCode::invalid_argument, "B's leading dimension is 1024 here but 512");
  g = planned;
  g.bias = VectorView{fake_address(0x50000), DType::bf16, 256};
  expect_error(check_same_problem(planned, g), StatusCode::invalid_argument, "bias is given here but absent");
}

TEST(Validation, DescribeProblem) {
  GemmArgs g = fake_linear(128, 4096, 4096);
  g.bias = VectorView{fake_address(0x50000), DType::bf16, 4096};
  const std::string s = graphgemm::detail::describe_problem(g);
  EXPECT_NE(s.find("M=128 N=4096 K=4096 bf16 -> bf16"), std::string::npos) << s;
  EXPECT_NE(s.find("B column-major (ld 4096)"), std::string::npos) << s;
  EXPECT_NE(s.find("bias bf16"), std::string::npos) << s;
}
