// graphgemm's PyTorch operators, registered from C++ (torch.ops.graphgemm.*): the hot path costs
// no Python. They run on PyTorch's current CUDA stream, take their workspace from PyTorch's
// caching allocator (legal under torch.cuda.graph capture) and keep one plan per problem in a
// per-thread cache, built on first use (plans are cheap; building one never touches the stream).
//
//   gemm(a, b, bias=None, c=None, alpha=1, beta=0, out_dtype=None) -> Tensor      D = alpha·a@b + bias + beta·c
//   gemm.out(..., *, out) -> ()                                                   writes out
//   linear(x, w, bias=None) -> Tensor                                            x @ wᵀ + bias, x of any rank
//   scaled_mm(x_q, w_q, scale_x, scale_w, bias=None, out_dtype=None (bf16)) -> Tensor  W8A8: (x_q @ w_qᵀ)·sx·sw + bias

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "graphgemm/graphgemm.hpp"

namespace graphgemm::torch_ops {
namespace {

// NOTES: errors are built with std::to_string and thrown as c10 errors directly: formatting
// through c10::str (an ostream in this library) crashed on the H100 machine (torch 2.11, seen
// under cuda-gdb), and a message needs nothing more.
[[noreturn]] void value_error(const std::string& msg) {
  throw c10::ValueError({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, msg);
}
[[noreturn]] void type_error(const std::string& msg) {
  throw c10::TypeError({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, msg);
}
std::string str(int64_t v) { return std::to_string(v); }
std::string str(at::ScalarType t) { return c10::toString(t); }
std::string str(const at::Device& d) { return d.is_cuda() ? "cuda:" + std::to_string(d.index()) : "cpu"; }

DType dtype_of(at::ScalarType t, const char* name) {
  switch (t) {
    case at::kBFloat16: return DType::bf16;
    case at::kHalf: return DType::fp16;
    case at::kFloat: return DType::fp32;
    case at::kChar: return DType::int8;
    case at::kInt: return DType::int32;
    case at::kFloat8_e4m3fn: return DType::fp8_e4m3;
    default: break;
  }
  type_error(std::string(name) + " has dtype " + str(t) + "; graphgemm takes bfloat16, float16, float32, int8, int32 and float8_e4m3fn");
}

MatrixView view_of(const at::Tensor& t, const char* name) {
  if (t.dim() != 2) value_error(std::string(name) + " must be 2-D (got " + str(t.dim()) + " dimensions)");
  if (!t.is_cuda()) value_error(std::string(name) + " must be a CUDA tensor (got " + str(t.device()) + ")");
  const DType dtype = dtype_of(t.scalar_type(), name);
  const std::optional<MatrixView> v =
      MatrixView::from_strides(t.data_ptr(), dtype, t.size(0), t.size(1), t.stride(0), t.stride(1));
  if (!v)
    value_error(std::string(name) + " has strides (" + str(t.stride(0)) + ", " + str(t.stride(1)) +
                "); one dimension must be contiguous: call .contiguous()");
  return *v;
}

std::optional<VectorView> vector_of(const std::optional<at::Tensor>& t, const char* name) {
  if (!t) return std::nullopt;
  if (t->dim() != 1) value_error(std::string(name) + " must be 1-D (got " + str(t->dim()) + " dimensions)");
  if (!t->is_cuda()) value_error(std::string(name) + " must be a CUDA tensor (got " + str(t->device()) + ")");
  if (t->numel() > 1 && t->stride(0) != 1) value_error(std::string(name) + " must be contiguous");
  return VectorView{t->data_ptr(), dtype_of(t->scalar_type(), name), t->numel()};
}

[[noreturn]] void raise(const Status& s) {
  if (s.code() == StatusCode::invalid_argument) value_error(s.message());
  if (s.code() == StatusCode::not_supported) type_error(s.message());
  throw c10::Error({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, s.to_string());
}

// Everything a plan depends on, without pointers: its bytes are the cache key.
struct Key {
  int64_t m, n, k, lda, ldb, ldc, ldd;
  int32_t device;
  uint8_t a_type, d_type, a_layout, b_layout, has_c, bias_type, scale_a, scale_b;
  bool operator==(const Key& o) const { return std::memcmp(this, &o, sizeof(Key)) == 0; }
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    const auto* p = reinterpret_cast<const unsigned char*>(&k);
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof(Key); ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
  }
};

Key key_of(const GemmArgs& g, int device) {
  Key k;
  std::memset(&k, 0, sizeof k);  // padding bytes take part in the hash
  k.m = g.m(); k.n = g.n(); k.k = g.k();
  k.lda = g.a.leading_dim(); k.ldb = g.b.leading_dim(); k.ldd = g.d.leading_dim();
  k.ldc = g.c ? g.c->leading_dim() : -1;
  k.device = device;
  k.a_type = static_cast<uint8_t>(g.a.dtype); k.d_type = static_cast<uint8_t>(g.d.dtype);
  k.a_layout = static_cast<uint8_t>(g.a.layout); k.b_layout = static_cast<uint8_t>(g.b.layout);
  k.has_c = g.c.has_value();
  k.bias_type = g.bias ? 1 + static_cast<uint8_t>(g.bias->dtype) : 0;
  k.scale_a = g.scale_a ? (g.scale_a->size == 1 ? 1 : 2) : 0;
  k.scale_b = g.scale_b ? (g.scale_b->size == 1 ? 1 : 2) : 0;
  return k;
}

const GemmPlan& plan_for(const GemmArgs& g, int device) {
  thread_local std::unordered_map<Key, std::unique_ptr<GemmPlan>, KeyHash> cache;
  const Key key = key_of(g, device);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  auto plan = std::make_unique<GemmPlan>();
  if (Status s = plan->initialize(g); !s.ok()) raise(s);
  return *cache.emplace(key, std::move(plan)).first->second;
}

void run(const GemmArgs& g, const at::Tensor& like) {
  const c10::cuda::CUDAGuard guard(like.device());
  const GemmPlan& plan = plan_for(g, like.get_device());
  const size_t bytes = plan.workspace_size(g);
  at::Tensor ws;
  if (bytes > 0) ws = at::empty({static_cast<int64_t>(bytes)}, like.options().dtype(at::kByte));
  const Status s = plan.run(g, {bytes ? ws.data_ptr() : nullptr, bytes}, at::cuda::getCurrentCUDAStream().stream());
  if (!s.ok()) raise(s);
}

at::ScalarType default_out(at::ScalarType in) {
  return in == at::kChar ? at::kInt : in == at::kFloat8_e4m3fn ? at::kBFloat16 : in;
}

void gemm_out(const at::Tensor& a, const at::Tensor& b, const std::optional<at::Tensor>& bias,
              const std::optional<at::Tensor>& c, double alpha, double beta, at::Tensor& out) {
  GemmArgs g;
  g.a = view_of(a, "a");
  g.b = view_of(b, "b");
  g.d = view_of(out, "out");
  if (c) g.c = view_of(*c, "c");
  g.bias = vector_of(bias, "bias");
  g.alpha = static_cast<float>(alpha);
  g.beta = static_cast<float>(beta);
  run(g, out);
}

at::Tensor gemm(const at::Tensor& a, const at::Tensor& b, const std::optional<at::Tensor>& bias,
                const std::optional<at::Tensor>& c, double alpha, double beta, std::optional<at::ScalarType> out_dtype) {
  if (a.dim() != 2 || b.dim() != 2) value_error("a and b must be 2-D");
  at::Tensor out = at::empty({a.size(0), b.size(1)}, a.options().dtype(out_dtype.value_or(default_out(a.scalar_type()))));
  gemm_out(a, b, bias, c, alpha, beta, out);
  return out;
}

at::Tensor linear(const at::Tensor& x, const at::Tensor& w, const std::optional<at::Tensor>& bias) {
  if (x.dim() < 1 || w.dim() != 2) value_error("linear takes x (..., K) and w (N, K)");
  if (x.size(-1) != w.size(1)) value_error("x has " + str(x.size(-1)) + " features but w expects " + str(w.size(1)));
  const at::Tensor x2 = x.reshape({-1, x.size(-1)});
  at::Tensor y = gemm(x2, w.t(), bias, std::nullopt, 1.0, 0.0, std::nullopt);
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
  shape.back() = w.size(0);
  return y.view(shape);
}

at::Tensor scaled_mm(const at::Tensor& x_q, const at::Tensor& w_q, const at::Tensor& scale_x, const at::Tensor& scale_w,
                     const std::optional<at::Tensor>& bias, std::optional<at::ScalarType> out_dtype) {
  if (x_q.dim() != 2 || w_q.dim() != 2) value_error("scaled_mm takes x_q (M, K) and w_q (N, K)");
  if (x_q.scalar_type() != at::kChar && x_q.scalar_type() != at::kFloat8_e4m3fn)
    type_error("scaled_mm takes int8 or float8_e4m3fn inputs (got " + str(x_q.scalar_type()) + ")");
  const at::Tensor sx = scale_x.reshape({-1}).to(at::kFloat), sw = scale_w.reshape({-1}).to(at::kFloat);
  if (sx.numel() != 1 && sx.numel() != x_q.size(0))
    value_error("scale_x needs 1 or M = " + str(x_q.size(0)) + " entries (got " + str(sx.numel()) + ")");
  if (sw.numel() != 1 && sw.numel() != w_q.size(0))
    value_error("scale_w needs 1 or N = " + str(w_q.size(0)) + " entries (got " + str(sw.numel()) + ")");
  // NOTES: until graphgemm's W8A8 kernels land, this runs the integer (or fp8) product through
  // cuBLASLt into int32 / fp32 and applies scales and bias with one fused elementwise pass.
  const at::ScalarType acc_type = x_q.scalar_type() == at::kChar ? at::kInt : at::kFloat;
  at::Tensor acc = at::empty({x_q.size(0), w_q.size(0)}, x_q.options().dtype(acc_type));
  gemm_out(x_q, w_q.t(), std::nullopt, std::nullopt, 1.0, 0.0, acc);
  at::Tensor y = acc.to(at::kFloat).mul_(sx.view({-1, 1})).mul_(sw.view({1, -1}));
  if (bias) y.add_(bias->to(at::kFloat));
  return y.to(out_dtype.value_or(at::kBFloat16));
}

}  // namespace

TORCH_LIBRARY(graphgemm, m) {
  m.def("gemm(Tensor a, Tensor b, Tensor? bias=None, Tensor? c=None, float alpha=1., float beta=0., ScalarType? out_dtype=None) -> Tensor");
  // NOTES: a mutating custom op returns nothing: torch cannot functionalize custom ops whose
  // outputs carry alias annotations ("-> Tensor(a!)" failed opcheck's aot_dispatch_dynamic test).
  m.def("gemm.out(Tensor a, Tensor b, Tensor? bias=None, Tensor? c=None, float alpha=1., float beta=0., *, Tensor(a!) out) -> ()");
  m.def("linear(Tensor x, Tensor w, Tensor? bias=None) -> Tensor");
  m.def("scaled_mm(Tensor x_q, Tensor w_q, Tensor scale_x, Tensor scale_w, Tensor? bias=None, ScalarType? out_dtype=None) -> Tensor");
}

TORCH_LIBRARY_IMPL(graphgemm, CUDA, m) {
  m.impl("gemm", &gemm);
  m.impl("gemm.out", &gemm_out);
  m.impl("linear", &linear);
  m.impl("scaled_mm", &scaled_mm);
}

}  // namespace graphgemm::torch_ops
