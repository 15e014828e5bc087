#pragma once
// Problems for tests that never touch the GPU: operands at fake, 256-byte aligned addresses
// (validation never dereferences them).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "graphgemm/gemm.hpp"

namespace graphgemm::testing {

inline const void* fake_address(std::uintptr_t v) { return reinterpret_cast<const void*>(v); }

// y = x · Wᵀ: x M x K row-major, W N x K (a PyTorch Linear weight), y M x N.
inline GemmArgs fake_linear(std::int64_t m, std::int64_t n, std::int64_t k, DType in = DType::bf16, DType out = DType::bf16) {
  GemmArgs g;
  g.a = MatrixView::row_major(fake_address(0x10000), in, m, k);
  g.b = MatrixView::transposed_weight(fake_address(0x20000), in, n, k);
  g.d = MatrixView::row_major(fake_address(0x30000), out, m, n);
  return g;
}

// `s` is an error of `code` whose message contains `fragment`.
inline void expect_error(const Status& s, StatusCode code, const std::string& fragment) {
  EXPECT_EQ(s.code(), code) << s.to_string();
  EXPECT_NE(s.message().find(fragment), std::string::npos) << "message: " << s.message() << "\nexpected: " << fragment;
}

// GemmPlan::initialize(args, options) refuses with invalid_argument and a message containing
// `fragment`, and leaves the plan uninitialized.
inline void expect_initialize_error(const GemmArgs& args, const GemmOptions& options, const std::string& fragment) {
  GemmPlan plan;
  expect_error(plan.initialize(args, options), StatusCode::invalid_argument, fragment);
  EXPECT_FALSE(plan.initialized());
}

}  // namespace graphgemm::testing
