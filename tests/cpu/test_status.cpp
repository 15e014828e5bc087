#include <gtest/gtest.h>

#include "graphgemm/graphgemm.hpp"

using namespace graphgemm;

TEST(Status, DefaultIsSuccess) {
  const Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.to_string(), "ok");
}

TEST(Status, CarriesCodeAndMessage) {
  const Status s{StatusCode::not_supported, "int8 needs int32 output"};
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::not_supported);
  EXPECT_EQ(s.to_string(), "not_supported: int8 needs int32 output");
}

TEST(MatrixView, PackedLeadingDimensions) {
  EXPECT_EQ(MatrixView::row_major(nullptr, DType::bf16, 3, 5).leading_dim(), 5);
  EXPECT_EQ(MatrixView::col_major(nullptr, DType::bf16, 3, 5).leading_dim(), 3);
  EXPECT_EQ(MatrixView::row_major(nullptr, DType::bf16, 3, 5, 8).leading_dim(), 8);
  const MatrixView w = MatrixView::transposed_weight(nullptr, DType::bf16, /*n=*/4096, /*k=*/1024);
  EXPECT_EQ(w.rows, 1024);
  EXPECT_EQ(w.cols, 4096);
  EXPECT_EQ(w.layout, Layout::col_major);
  EXPECT_EQ(w.leading_dim(), 1024);
}

TEST(DType, SizesAndNames) {
  EXPECT_EQ(size_of(DType::bf16), 2u);
  EXPECT_EQ(size_of(DType::fp8_e4m3), 1u);
  EXPECT_EQ(size_of(DType::int32), 4u);
  EXPECT_STREQ(to_string(DType::fp8_e4m3), "fp8_e4m3");
}

TEST(GemmPlan, UninitializedPlanRefusesToRun) {
  const GemmPlan plan;
  EXPECT_FALSE(plan.initialized());
  EXPECT_EQ(plan.workspace_size(GemmArgs{}), 0u);
  const Status s = plan.run(GemmArgs{}, Workspace{}, nullptr);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("call initialize"), std::string::npos) << s.message();
}

TEST(MatrixView, FromStrides) {
  // A PyTorch weight W (N x K) passed as W.t(): strides (1, K): a K x N column-major view.
  auto w_t = MatrixView::from_strides(nullptr, DType::bf16, 64, 32, 1, 64);
  ASSERT_TRUE(w_t.has_value());
  EXPECT_EQ(w_t->layout, Layout::col_major);
  EXPECT_EQ(w_t->leading_dim(), 64);
  // A row slice of a wider matrix keeps its row stride.
  auto slice = MatrixView::from_strides(nullptr, DType::bf16, 8, 16, 40, 1);
  ASSERT_TRUE(slice.has_value());
  EXPECT_EQ(slice->layout, Layout::row_major);
  EXPECT_EQ(slice->leading_dim(), 40);
  // Extent-1 dimensions may carry any stride.
  auto row = MatrixView::from_strides(nullptr, DType::bf16, 1, 16, 999, 1);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->leading_dim(), 16);
  auto column = MatrixView::from_strides(nullptr, DType::bf16, 16, 1, 3, 7);
  ASSERT_TRUE(column.has_value());
  EXPECT_EQ(column->layout, Layout::row_major);
  EXPECT_EQ(column->leading_dim(), 3);
  // No contiguous dimension: not a view graphgemm can take.
  EXPECT_FALSE(MatrixView::from_strides(nullptr, DType::bf16, 4, 4, 8, 2).has_value());
}
