#pragma once
// Support for checking and benchmarking GEMMs on the GPU: device buffers, random normal fills,
// poisoning, an fp64 reference GEMM and error measurement. Used by the tests, the benchmark and the
// demo; not part of the library.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "graphgemm/gemm.hpp"

namespace graphgemm::support {

// Throws std::runtime_error with the CUDA error and the expression: test and tool code only.
void cuda_check(cudaError_t err, const char* expr, const char* file, int line);
#define SUPPORT_CUDA(expr) ::graphgemm::support::cuda_check((expr), #expr, __FILE__, __LINE__)

// Whether a CUDA device is usable; fills `why` otherwise (e.g. "cudaGetDeviceCount: no CUDA-capable device").
bool has_cuda_device(std::string* why = nullptr);

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  [[nodiscard]] void* get() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  template <class T> [[nodiscard]] T* as() const noexcept { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Bytes a rows x cols matrix with this layout and leading dimension spans.
std::size_t matrix_bytes(const MatrixView& v);

// Random normal values (mean 0, `stddev`), converted to `dtype`; integers are rounded and clamped
// to the type's range. Deterministic in `seed`.
void fill_random(void* data, DType dtype, std::int64_t count, std::uint64_t seed, float stddev = 1.0f,
                 cudaStream_t stream = nullptr);
// NaN for floating types, 0x7fffffff for int32: a value no GEMM writes in our tests.
void fill_poison(void* data, DType dtype, std::int64_t count, cudaStream_t stream = nullptr);

// ref (M x N, row-major, packed) = alpha · A·B ⊙ (scale_a ⊗ scale_b) + bias + beta · C, in fp64,
// on the GPU, from the operands `args` points at.
void reference_gemm(const GemmArgs& args, double* ref, cudaStream_t stream = nullptr);

struct Comparison {
  double rel_error = 0;         // ‖out − ref‖ / ‖ref‖ (Frobenius)
  double max_abs_error = 0;
  std::int64_t non_finite = 0;  // NaN/Inf in the output: unwritten (poisoned) or broken elements
  std::int64_t mismatches = 0;  // elements that differ at all (meaningful for integer outputs)
  std::int64_t outside_writes = 0;  // bytes changed outside M x N: row padding or past the last row
};
// Compares D (as `args.d` describes it) with a packed fp64 reference; synchronizes.
Comparison compare_with_reference(const MatrixView& d, const double* ref_device);

// Copies a matrix (as described) to host bytes, row by row; synchronizes.
std::vector<unsigned char> download(const MatrixView& v);

// One GEMM problem with its operands allocated on the device and filled with random normal values.
struct GemmSpec {
  std::int64_t m = 0, n = 0, k = 0;
  DType in = DType::bf16, out = DType::bf16;
  Layout a_layout = Layout::row_major;
  Layout b_layout = Layout::col_major;  // col-major K x N: the PyTorch weight layout (N x K row-major)
  std::int64_t ld_pad = 0;              // extra elements in every leading dimension
  std::int64_t ld_multiple = 1;         // leading dimensions rounded up to a multiple of this (8: TMA rows)
  bool with_c = false;
  bool with_bias = false;
  int scale_a = 0;                      // 0: none, 1: per tensor, 2: per row
  int scale_b = 0;                      // 0: none, 1: per tensor, 2: per column
  float alpha = 1.0f, beta = 0.0f;
  [[nodiscard]] std::string to_string() const;
};

class GemmOperands {
 public:
  GemmOperands(const GemmSpec& spec, std::uint64_t seed);
  [[nodiscard]] const GemmArgs& args() const noexcept { return args_; }
  [[nodiscard]] GemmArgs& args() noexcept { return args_; }
  // Poisons all of D's allocation: the M x N elements, the padding of each row and a guard after
  // the last row, so that check() sees unwritten elements and writes outside M x N alike.
  void poison_output(cudaStream_t stream = nullptr);
  // Computes the fp64 reference for the current operands and compares D with it; synchronizes.
  [[nodiscard]] Comparison check();
  // Bound on ‖D − ref‖/‖ref‖: the rounding of the output plus the accumulation error.
  [[nodiscard]] static double tolerance(DType in, DType out);

 private:
  GemmArgs args_;
  DeviceBuffer a_, b_, c_, d_, bias_, scale_a_, scale_b_, ref_;
  std::vector<unsigned char> poison_image_;  // D's allocation as poison_output() leaves it
};

}  // namespace graphgemm::support
