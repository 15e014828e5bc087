#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_support.hpp"

namespace graphgemm::support {

void cuda_check(cudaError_t err, const char* expr, const char* file, int line) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err) + " in `" + expr +
                             "` at " + file + ":" + std::to_string(line));
}

bool has_cuda_device(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why) *why = err != cudaSuccess ? std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err) : "no CUDA device";
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes) SUPPORT_CUDA(cudaMalloc(&ptr_, bytes));
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr_) (void)cudaFree(ptr_);
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) (void)cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

std::size_t matrix_bytes(const MatrixView& v) {
  const std::int64_t outer = v.layout == Layout::row_major ? v.rows : v.cols;
  const std::int64_t inner = v.layout == Layout::row_major ? v.cols : v.rows;
  if (outer == 0 || inner == 0) return 0;
  return static_cast<std::size_t>((outer - 1) * v.leading_dim() + inner) * size_of(v.dtype);
}

namespace {

__device__ double load_as_double(const void* p, DType t, std::int64_t i) {
  switch (t) {
    case DType::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case DType::fp16: return __half2float(static_cast<const __half*>(p)[i]);
    case DType::fp32: return static_cast<const float*>(p)[i];
    case DType::int8: return static_cast<const std::int8_t*>(p)[i];
    case DType::fp8_e4m3: return static_cast<float>(static_cast<const __nv_fp8_e4m3*>(p)[i]);
    case DType::int32: return static_cast<const std::int32_t*>(p)[i];
  }
  return 0;
}

__device__ void store_from_float(void* p, DType t, std::int64_t i, float v) {
  switch (t) {
    case DType::bf16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16(v); break;
    case DType::fp16: static_cast<__half*>(p)[i] = __float2half(v); break;
    case DType::fp32: static_cast<float*>(p)[i] = v; break;
    case DType::int8: static_cast<std::int8_t*>(p)[i] = static_cast<std::int8_t>(fminf(fmaxf(rintf(v), -127.f), 127.f)); break;
    case DType::fp8_e4m3: static_cast<__nv_fp8_e4m3*>(p)[i] = __nv_fp8_e4m3(fminf(fmaxf(v, -448.f), 448.f)); break;
    case DType::int32: static_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(rintf(v)); break;
  }
}

__device__ std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_random_kernel(void* data, DType t, std::int64_t count, std::uint64_t seed, float stddev) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t r = mix(seed ^ mix(static_cast<std::uint64_t>(i)));
    const float u1 = (static_cast<float>(r >> 40) + 1.0f) * (1.0f / 16777217.0f);  // (0, 1]
    const float u2 = static_cast<float>((r >> 16) & 0xffffff) * (1.0f / 16777216.0f);
    const float z = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);  // Box-Muller
    store_from_float(data, t, i, z * stddev);
  }
}

__global__ void fill_poison_kernel(void* data, DType t, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (t == DType::int32) static_cast<std::int32_t*>(data)[i] = 0x7fffffff;
    else if (t == DType::int8) static_cast<std::int8_t*>(data)[i] = -128;
    else store_from_float(data, t, i, __int_as_float(0x7fc00000));
  }
}

struct RefParams {
  const void* a; DType at; std::int64_t lda; bool a_row;
  const void* b; DType bt; std::int64_t ldb; bool b_row;
  const void* c; DType ct; std::int64_t ldc;
  const void* bias; DType biast;
  const float* sa; std::int64_t sa_n;
  const float* sb; std::int64_t sb_n;
  double alpha, beta;
  std::int64_t m, n, k;
};

__global__ void reference_kernel(RefParams p, double* ref) {
  const std::int64_t col = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = blockIdx.y;
  if (col >= p.n || row >= p.m) return;
  double acc = 0;
  for (std::int64_t kk = 0; kk < p.k; ++kk) {
    const double av = load_as_double(p.a, p.at, p.a_row ? row * p.lda + kk : kk * p.lda + row);
    const double bv = load_as_double(p.b, p.bt, p.b_row ? kk * p.ldb + col : col * p.ldb + kk);
    acc += av * bv;
  }
  if (p.sa) acc *= p.sa[p.sa_n == 1 ? 0 : row];
  if (p.sb) acc *= p.sb[p.sb_n == 1 ? 0 : col];
  double v = p.alpha * acc;
  if (p.bias) v += load_as_double(p.bias, p.biast, col);
  if (p.c && p.beta != 0) v += p.beta * load_as_double(p.c, p.ct, row * p.ldc + col);
  ref[row * p.n + col] = v;
}

int grid_for(std::int64_t count) { return static_cast<int>(std::min<std::int64_t>((count + 255) / 256, 65536)); }

}  // namespace

void fill_random(void* data, DType dtype, std::int64_t count, std::uint64_t seed, float stddev, cudaStream_t stream) {
  if (count == 0) return;
  fill_random_kernel<<<grid_for(count), 256, 0, stream>>>(data, dtype, count, seed, stddev);
  SUPPORT_CUDA(cudaGetLastError());
}

void fill_poison(void* data, DType dtype, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return;
  fill_poison_kernel<<<grid_for(count), 256, 0, stream>>>(data, dtype, count);
  SUPPORT_CUDA(cudaGetLastError());
}

void reference_gemm(const GemmArgs& args, double* ref, cudaStream_t stream) {
  RefParams p{};
  p.a = args.a.data; p.at = args.a.dtype; p.lda = args.a.leading_dim(); p.a_row = args.a.layout == Layout::row_major;
  p.b = args.b.data; p.bt = args.b.dtype; p.ldb = args.b.leading_dim(); p.b_row = args.b.layout == Layout::row_major;
  if (args.c) { p.c = args.c->data; p.ct = args.c->dtype; p.ldc = args.c->leading_dim(); }
  if (args.bias) { p.bias = args.bias->data; p.biast = args.bias->dtype; }
  if (args.scale_a) { p.sa = static_cast<const float*>(args.scale_a->data); p.sa_n = args.scale_a->size; }
  if (args.scale_b) { p.sb = static_cast<const float*>(args.scale_b->data); p.sb_n = args.scale_b->size; }
  p.alpha = args.alpha; p.beta = args.beta;
  p.m = args.m(); p.n = args.n(); p.k = args.k();
  if (p.m == 0 || p.n == 0) return;
  const dim3 grid(static_cast<unsigned>((p.n + 127) / 128), static_cast<unsigned>(p.m));
  reference_kernel<<<grid, 128, 0, stream>>>(p, ref);
  SUPPORT_CUDA(cudaGetLastError());
}

std::vector<unsigned char> download(const MatrixView& v) {
  const std::size_t es = size_of(v.dtype);
  const std::int64_t outer = v.layout == Layout::row_major ? v.rows : v.cols;
  const std::int64_t inner = v.layout == Layout::row_major ? v.cols : v.rows;
  std::vector<unsigned char> host(static_cast<std::size_t>(outer * inner) * es);
  if (!host.empty())
    SUPPORT_CUDA(cudaMemcpy2D(host.data(), inner * es, v.data, v.leading_dim() * es, inner * es, outer,
                              cudaMemcpyDeviceToHost));
  return host;
}

namespace {
double host_value(const unsigned char* p, DType t) {
  switch (t) {
    case DType::bf16: { __nv_bfloat16 x; std::memcpy(&x, p, 2); return static_cast<float>(x); }
    case DType::fp16: { __half x; std::memcpy(&x, p, 2); return static_cast<float>(x); }
    case DType::fp32: { float x; std::memcpy(&x, p, 4); return x; }
    case DType::int32: { std::int32_t x; std::memcpy(&x, p, 4); return x; }
    case DType::int8: return static_cast<std::int8_t>(*p);
    case DType::fp8_e4m3: { __nv_fp8_e4m3 x; std::memcpy(&x, p, 1); return static_cast<float>(x); }
  }
  return 0;
}
}  // namespace

Comparison compare_with_reference(const MatrixView& d, const double* ref_device) {
  Comparison out;
  const std::int64_t m = d.rows, n = d.cols;
  if (m == 0 || n == 0) return out;
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  SUPPORT_CUDA(cudaMemcpy(ref.data(), ref_device, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  const std::vector<unsigned char> host = download(d);
  const std::size_t es = size_of(d.dtype);
  double err2 = 0, ref2 = 0;
  for (std::int64_t i = 0; i < m * n; ++i) {
    const double v = host_value(host.data() + i * es, d.dtype);
    if (d.dtype == DType::int32 && static_cast<std::int32_t>(v) == 0x7fffffff) ++out.non_finite;
    if (!std::isfinite(v)) { ++out.non_finite; continue; }
    const double e = v - ref[i];
    if (e != 0) ++out.mismatches;
    err2 += e * e;
    ref2 += ref[i] * ref[i];
    out.max_abs_error = std::max(out.max_abs_error, std::fabs(e));
  }
  out.rel_error = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  return out;
}

std::string GemmSpec::to_string() const {
  std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
                  graphgemm::to_string(in) + "->" + graphgemm::to_string(out) + " A " +
                  graphgemm::to_string(a_layout) + " B " + graphgemm::to_string(b_layout);
  if (ld_pad) s += " ld+" + std::to_string(ld_pad);
  if (ld_multiple > 1) s += " ld%" + std::to_string(ld_multiple);
  if (with_c) s += " beta=" + std::to_string(beta) + "·C";
  if (alpha != 1.0f) s += " alpha=" + std::to_string(alpha);
  if (with_bias) s += " bias";
  if (scale_a) s += scale_a == 1 ? " scale_a/tensor" : " scale_a/row";
  if (scale_b) s += scale_b == 1 ? " scale_b/tensor" : " scale_b/col";
  return s;
}

GemmOperands::GemmOperands(const GemmSpec& spec, std::uint64_t seed) {
  auto make = [&](DeviceBuffer& buf, DType t, std::int64_t rows, std::int64_t cols, Layout layout, float stddev,
                  std::uint64_t salt) {
    MatrixView v{nullptr, t, rows, cols, 0, layout};
    v.ld = v.leading_dim() + spec.ld_pad;
    v.ld = (v.ld + spec.ld_multiple - 1) / spec.ld_multiple * spec.ld_multiple;
    if (v.ld == 0) v.ld = spec.ld_multiple;
    const std::size_t bytes = matrix_bytes(v);
    buf = DeviceBuffer(bytes + 256);  // never a zero-sized allocation
    v.data = buf.get();
    fill_random(buf.get(), t, static_cast<std::int64_t>(bytes / size_of(t)), seed * 7919 + salt, stddev);
    return v;
  };
  // int8 inputs: N(0, 24) rounded; products stay far from int32 overflow for the K we test.
  const float in_std = spec.in == DType::int8 ? 24.0f : 1.0f;
  args_.a = make(a_, spec.in, spec.m, spec.k, spec.a_layout, in_std, 1);
  args_.b = make(b_, spec.in, spec.k, spec.n, spec.b_layout, in_std, 2);
  args_.d = make(d_, spec.out, spec.m, spec.n, Layout::row_major, 1.0f, 3);
  if (spec.with_c) args_.c = make(c_, spec.out, spec.m, spec.n, Layout::row_major, spec.out == DType::int32 ? 1000.f : 1.f, 4);
  auto vec = [&](DeviceBuffer& buf, DType t, std::int64_t size, float stddev, std::uint64_t salt, bool positive) {
    buf = DeviceBuffer(static_cast<std::size_t>(size) * size_of(t) + 256);
    fill_random(buf.get(), t, size, seed * 7919 + salt, stddev);
    if (positive) {  // scales: 0.5 .. 1.5, as a quantizer's would be
      std::vector<float> h(static_cast<std::size_t>(size));
      SUPPORT_CUDA(cudaMemcpy(h.data(), buf.get(), h.size() * 4, cudaMemcpyDeviceToHost));
      for (float& x : h) x = 1.0f + 0.25f * std::tanh(x);
      SUPPORT_CUDA(cudaMemcpy(buf.get(), h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    }
    return VectorView{buf.get(), t, size};
  };
  if (spec.with_bias) args_.bias = vec(bias_, spec.out, spec.n, spec.out == DType::int32 ? 100.f : 1.f, 5, false);
  if (spec.scale_a) args_.scale_a = vec(scale_a_, DType::fp32, spec.scale_a == 1 ? 1 : spec.m, 1.f, 6, true);
  if (spec.scale_b) args_.scale_b = vec(scale_b_, DType::fp32, spec.scale_b == 1 ? 1 : spec.n, 1.f, 7, true);
  args_.alpha = spec.alpha;
  args_.beta = spec.beta;
  SUPPORT_CUDA(cudaDeviceSynchronize());
}

void GemmOperands::poison_output(cudaStream_t stream) {
  fill_poison(d_.get(), args_.d.dtype, static_cast<std::int64_t>(d_.bytes() / size_of(args_.d.dtype)), stream);
  if (poison_image_.empty()) {
    poison_image_.resize(d_.bytes());
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    SUPPORT_CUDA(cudaMemcpy(poison_image_.data(), d_.get(), d_.bytes(), cudaMemcpyDeviceToHost));
  }
}

Comparison GemmOperands::check() {
  if (ref_.get() == nullptr) ref_ = DeviceBuffer(static_cast<std::size_t>(args_.m() * args_.n()) * sizeof(double) + 256);
  reference_gemm(args_, ref_.as<double>());
  SUPPORT_CUDA(cudaDeviceSynchronize());
  Comparison cmp = compare_with_reference(args_.d, ref_.as<double>());
  if (!poison_image_.empty()) {
    std::vector<unsigned char> now(d_.bytes());
    SUPPORT_CUDA(cudaMemcpy(now.data(), d_.get(), now.size(), cudaMemcpyDeviceToHost));
    const std::size_t es = size_of(args_.d.dtype), row_bytes = static_cast<std::size_t>(args_.d.leading_dim()) * es;
    const std::size_t inside_rows = static_cast<std::size_t>(args_.m()), inside_bytes = static_cast<std::size_t>(args_.n()) * es;
    for (std::size_t i = 0; i < now.size(); ++i) {
      const bool inside = row_bytes > 0 && i / row_bytes < inside_rows && i % row_bytes < inside_bytes;
      if (!inside && now[i] != poison_image_[i]) ++cmp.outside_writes;
    }
  }
  return cmp;
}

double GemmOperands::tolerance(DType in, DType out) {
  switch (out) {
    case DType::bf16: return 8e-3;  // bf16 rounding: relative 2^-9 per element at most
    case DType::fp16: return 2e-3;  // fp16 rounding: 2^-12
    // NOTES: Hopper's fp8 MMA accumulates with fewer mantissa bits than fp32 (measured 1.25e-4 on
    // H100 through cuBLASLt, K = 4096); bf16/fp16 inputs accumulate in full fp32.
    case DType::fp32: return in == DType::fp8_e4m3 ? 1e-3 : 1e-4;
    default: return 0.0;  // int32: exact
  }
}

}  // namespace graphgemm::support
