#pragma once
// The vocabulary of a GEMM problem: element types, matrix and vector views.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace graphgemm {

enum class DType : std::uint8_t { bf16, fp16, fp32, int8, fp8_e4m3, int32 };

[[nodiscard]] constexpr std::size_t size_of(DType t) noexcept {
  switch (t) {
    case DType::bf16:
    case DType::fp16: return 2;
    case DType::fp32:
    case DType::int32: return 4;
    case DType::int8:
    case DType::fp8_e4m3: return 1;
  }
  return 0;
}
[[nodiscard]] const char* to_string(DType t) noexcept;

// row_major: element (i, j) lives at data[i * ld + j]; col_major: at data[j * ld + i].
enum class Layout : std::uint8_t { row_major, col_major };
[[nodiscard]] const char* to_string(Layout l) noexcept;

// A rows x cols matrix in device memory. `ld` is in elements; 0 means "packed" (cols for row-major,
// rows for column-major) and is resolved by `leading_dim()`.
struct MatrixView {
  const void* data = nullptr;
  DType dtype = DType::bf16;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;

  [[nodiscard]] std::int64_t leading_dim() const noexcept {
    return ld != 0 ? ld : (layout == Layout::row_major ? cols : rows);
  }
  [[nodiscard]] static MatrixView row_major(const void* data, DType dtype, std::int64_t rows,
                                            std::int64_t cols, std::int64_t ld = 0) noexcept {
    return {data, dtype, rows, cols, ld, Layout::row_major};
  }
  [[nodiscard]] static MatrixView col_major(const void* data, DType dtype, std::int64_t rows,
                                            std::int64_t cols, std::int64_t ld = 0) noexcept {
    return {data, dtype, rows, cols, ld, Layout::col_major};
  }
  // A 2-D strided array (strides in elements, as DLPack and PyTorch give them) as a view, when one
  // of its dimensions is contiguous; std::nullopt otherwise. A dimension of extent 1 may carry any
  // stride, so it does not decide the layout alone.
  [[nodiscard]] static std::optional<MatrixView> from_strides(const void* data, DType dtype, std::int64_t rows,
                                                              std::int64_t cols, std::int64_t stride0,
                                                              std::int64_t stride1) noexcept {
    if (stride1 == 1 || (cols == 1 && stride0 != 1))
      return MatrixView{data, dtype, rows, cols, rows > 1 && stride0 > cols ? stride0 : cols, Layout::row_major};
    if (stride0 == 1 || rows == 1)
      return MatrixView{data, dtype, rows, cols, cols > 1 && stride1 > rows ? stride1 : rows, Layout::col_major};
    return std::nullopt;
  }
  // B = Wᵀ for a weight W stored N x K row-major (a PyTorch Linear weight, y = x · Wᵀ):
  // a K x N column-major view of the same memory.
  [[nodiscard]] static MatrixView transposed_weight(const void* w, DType dtype, std::int64_t n,
                                                    std::int64_t k, std::int64_t ld = 0) noexcept {
    return {w, dtype, k, n, ld, Layout::col_major};
  }
};

// A vector in device memory (bias, per-row or per-column scales).
struct VectorView {
  const void* data = nullptr;
  DType dtype = DType::fp32;
  std::int64_t size = 0;
};

}  // namespace graphgemm
