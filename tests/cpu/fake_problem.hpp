#pragma once
// Problems for tests that never touch the GPU: operands at fake, 256-byte aligned addresses
// (validation never dereferences them).
#include <cstdint>

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

}  // namespace graphgemm::testing
