#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "common/cuda_check.hpp"
#include "kernels/k_zero_epilogue.hpp"

namespace graphgemm::detail {
namespace {

template <class T> __device__ float to_float(T v) { return static_cast<float>(v); }
template <> __device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <> __device__ float to_float(__half v) { return __half2float(v); }
template <class T> __device__ T from_float(float v) { return static_cast<T>(v); }
template <> __device__ __nv_bfloat16 from_float(float v) { return __float2bfloat16(v); }
template <> __device__ __half from_float(float v) { return __float2half(v); }
template <> __device__ std::int32_t from_float(float v) { return __float2int_rn(v); }

template <class TD, class TBias>
__global__ void k_zero_epilogue_kernel(TD* d, std::int64_t ldd, const TD* c, std::int64_t ldc, const TBias* bias,
                                       float beta, std::int64_t m, std::int64_t n) {
  const std::int64_t total = m * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t row = i / n, col = i % n;
    float v = bias != nullptr ? to_float(bias[col]) : 0.0f;
    if (c != nullptr) v += beta * to_float(c[row * ldc + col]);
    d[row * ldd + col] = from_float<TD>(v);
  }
}

template <class TD, class TBias>
Status launch_typed(const GemmArgs& args, cudaStream_t stream) {
  const std::int64_t m = args.m(), n = args.n();
  const int threads = 256;
  const std::int64_t blocks = (m * n + threads - 1) / threads;
  const int grid = static_cast<int>(blocks < 4096 ? blocks : 4096);
  const TD* c = args.c && args.beta != 0.0f ? static_cast<const TD*>(args.c->data) : nullptr;
  const TBias* bias = args.bias ? static_cast<const TBias*>(args.bias->data) : nullptr;
  k_zero_epilogue_kernel<TD, TBias><<<grid, threads, 0, stream>>>(
      static_cast<TD*>(const_cast<void*>(args.d.data)), args.d.leading_dim(), c,
      args.c ? args.c->leading_dim() : 0, bias, args.beta, m, n);
  GRAPHGEMM_CUDA_TRY(cudaGetLastError());
  return {};
}

template <class TD>
Status launch_for_output(const GemmArgs& args, cudaStream_t stream) {
  if (args.bias && args.bias->dtype == DType::fp32) return launch_typed<TD, float>(args, stream);
  return launch_typed<TD, TD>(args, stream);
}

}  // namespace

Status launch_k_zero_epilogue(const GemmArgs& args, cudaStream_t stream) {
  switch (args.d.dtype) {
    case DType::bf16: return launch_for_output<__nv_bfloat16>(args, stream);
    case DType::fp16: return launch_for_output<__half>(args, stream);
    case DType::fp32: return launch_for_output<float>(args, stream);
    case DType::int32: return launch_for_output<std::int32_t>(args, stream);
    default: return {StatusCode::internal, "K = 0 epilogue reached with output dtype " + std::string(to_string(args.d.dtype))};
  }
}

}  // namespace graphgemm::detail
