#include "gemm/validate.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "common/cuda_check.hpp"

namespace graphgemm::detail {
namespace {

Status invalid(std::string msg) { return {StatusCode::invalid_argument, std::move(msg)}; }
Status unsupported(std::string msg) { return {StatusCode::not_supported, std::move(msg)}; }

std::string str(std::int64_t v) { return std::to_string(v); }

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  return buf;
}

std::string shape(const MatrixView& v) { return str(v.rows) + " x " + str(v.cols); }

bool one_of(DType t, std::initializer_list<DType> set) {
  for (DType s : set)
    if (s == t) return true;
  return false;
}

// The element types graphgemm knows how to multiply; backends support subsets of these.
bool supported_types(DType in, DType out) {
  switch (in) {
    case DType::bf16: return one_of(out, {DType::bf16, DType::fp32});
    case DType::fp16: return one_of(out, {DType::fp16, DType::fp32});
    case DType::int8: return one_of(out, {DType::int32, DType::bf16, DType::fp16});
    case DType::fp8_e4m3: return one_of(out, {DType::bf16, DType::fp16, DType::fp32});
    default: return false;
  }
}

Status check_matrix(const char* name, const MatrixView& v) {
  if (v.rows < 0 || v.cols < 0)
    return invalid(std::string(name) + " has a negative dimension (" + shape(v) + ")");
  const std::int64_t inner = v.layout == Layout::row_major ? v.cols : v.rows;
  const char* inner_name = v.layout == Layout::row_major ? "columns" : "rows";
  if (v.ld < 0) return invalid(std::string(name) + " has a negative leading dimension (" + str(v.ld) + ")");
  if (v.ld != 0 && v.ld < inner)
    return invalid(std::string(name) + "'s leading dimension " + str(v.ld) + " is smaller than its " +
                   str(inner) + " " + inner_name + "; a " + to_string(v.layout) + " " + shape(v) +
                   " matrix needs ld >= " + str(inner) + " (or ld = 0 for packed)");
  return {};
}

Status check_vector(const char* name, const std::optional<VectorView>& v, DType want, DType alt,
                    std::int64_t n1, const char* n1_meaning, std::int64_t n2, const char* n2_meaning) {
  if (!v) return {};
  if (v->dtype != want && v->dtype != alt) {
    std::string types = to_string(want);
    if (alt != want) types += std::string(" or ") + to_string(alt);
    return invalid(std::string(name) + " has dtype " + to_string(v->dtype) + "; it must be " + types);
  }
  if (v->size != n1 && v->size != n2) {
    std::string need = str(n1) + " (" + n1_meaning + ")";
    if (n2 != n1) need += " or " + str(n2) + " (" + n2_meaning + ")";
    return invalid(std::string(name) + " has " + str(v->size) + " entries; it needs " + need);
  }
  return {};
}

Status check_pointer(const char* name, const void* p, bool has_elements) {
  if (has_elements && p == nullptr)
    return invalid(std::string(name) + " is a null pointer; pass device memory holding the operand");
  return {};
}

Status check_aligned(const char* name, const void* p, std::size_t align, const char* why) {
  if (align > 1 && reinterpret_cast<std::uintptr_t>(p) % align != 0)
    return invalid(std::string(name) + " must be " + std::to_string(align) + "-byte aligned (got address " +
                   hex(p) + ")" + (why[0] ? std::string("; ") + why : std::string()));
  return {};
}

Status check_ld_aligned(const char* name, const MatrixView& v, std::size_t align, const char* why) {
  if (align == 0) return {};
  const std::size_t bytes = static_cast<std::size_t>(v.leading_dim()) * size_of(v.dtype);
  if (bytes % align != 0)
    return invalid(std::string(name) + "'s leading dimension " + str(v.leading_dim()) + " (" + std::to_string(bytes) +
                   " bytes) must be a multiple of " + std::to_string(align) + " bytes, i.e. of " +
                   std::to_string(align / size_of(v.dtype)) + " " + to_string(v.dtype) + " elements" +
                   (why[0] ? std::string("; ") + why : std::string()) +
                   ". Pad the leading dimension (allocate with a padded stride) to fix this");
  return {};
}

// The optional vectors of a planned problem and of new arguments, side by side, with their names.
using VectorPair = std::pair<const char*, std::pair<const std::optional<VectorView>*, const std::optional<VectorView>*>>;
std::array<VectorPair, 3> optional_vectors(const GemmArgs& planned, const GemmArgs& args) {
  return {{{"bias", {&planned.bias, &args.bias}},
           {"scale_a", {&planned.scale_a, &args.scale_a}},
           {"scale_b", {&planned.scale_b, &args.scale_b}}}};
}

// What both problem comparisons check alike: which of C, bias, scale_a and scale_b are given, and
// the vectors' dtypes. `differs(what, got, want)` makes the caller's message.
template <class Differs>
Status same_optional_operands(const GemmArgs& planned, const GemmArgs& args, Differs differs) {
  if (args.c.has_value() != planned.c.has_value())
    return differs("C", args.c ? "given" : "absent", planned.c ? "given" : "absent");
  const auto vecs = optional_vectors(planned, args);
  for (auto [name, pv] : vecs) {
    const auto& p = *pv.first;
    const auto& a = *pv.second;
    const std::string n = name;
    if (a.has_value() != p.has_value()) return differs(n, a ? "given" : "absent", p ? "given" : "absent");
    if (a && a->dtype != p->dtype) return differs(n + "'s dtype", to_string(a->dtype), to_string(p->dtype));
  }
  return {};
}

}  // namespace

Status validate_problem(const GemmArgs& args, bool check_pointers) {
  for (auto [name, v] : {std::pair<const char*, const MatrixView*>{"A", &args.a}, {"B", &args.b}, {"D", &args.d}}) {
    if (Status s = check_matrix(name, *v); !s.ok()) return s;
  }
  if (args.c) {
    if (Status s = check_matrix("C", *args.c); !s.ok()) return s;
  }

  const std::int64_t m = args.m(), n = args.n(), k = args.k();
  if (args.b.rows != k)
    return invalid("A is " + shape(args.a) + " and B is " + shape(args.b) + ": A's columns (K = " + str(k) +
                   ") must equal B's rows. For a PyTorch weight W (N x K) pass "
                   "MatrixView::transposed_weight(W, dtype, N, K)");
  if (args.d.rows != m || args.d.cols != n)
    return invalid("D is " + shape(args.d) + " but A · B is " + str(m) + " x " + str(n) + " (M x N)");
  if (args.d.layout != Layout::row_major) return unsupported("D must be row-major");
  if (args.c) {
    if (args.c->rows != m || args.c->cols != n)
      return invalid("C is " + shape(*args.c) + " but D is " + str(m) + " x " + str(n) + "; C must have D's shape");
    if (args.c->layout != Layout::row_major) return unsupported("C must be row-major");
    if (args.c->dtype != args.d.dtype)
      return invalid(std::string("C has dtype ") + to_string(args.c->dtype) + " but D has " +
                     to_string(args.d.dtype) + "; C must have D's dtype");
  }

  if (args.a.dtype != args.b.dtype)
    return unsupported(std::string("A is ") + to_string(args.a.dtype) + " but B is " + to_string(args.b.dtype) +
                       "; A and B must have the same dtype");
  if (!supported_types(args.a.dtype, args.d.dtype))
    return unsupported("unsupported dtype combination " + describe_types(args) +
                       "; supported: bf16 -> bf16|fp32, fp16 -> fp16|fp32, int8 -> int32|bf16|fp16, "
                       "fp8_e4m3 -> bf16|fp16|fp32");

  if (args.beta != 0.0f && !args.c)
    return invalid("beta is " + std::to_string(args.beta) + " but no C was given: pass C (M x N) or set beta = 0");

  const DType bias_alt = args.d.dtype == DType::int32 ? DType::int32 : DType::fp32;
  if (Status s = check_vector("bias", args.bias, args.d.dtype, bias_alt, n, "one per column of D", n, "");
      !s.ok())
    return s;
  if (Status s = check_vector("scale_a", args.scale_a, DType::fp32, DType::fp32, m, "one per row of A", 1,
                              "one for the whole tensor");
      !s.ok())
    return s;
  if (Status s = check_vector("scale_b", args.scale_b, DType::fp32, DType::fp32, n, "one per column of B", 1,
                              "one for the whole tensor");
      !s.ok())
    return s;

  if (check_pointers) {
    if (Status s = check_pointer("A", args.a.data, m * k > 0); !s.ok()) return s;
    if (Status s = check_pointer("B", args.b.data, k * n > 0); !s.ok()) return s;
    if (Status s = check_pointer("D", args.d.data, m * n > 0); !s.ok()) return s;
    if (args.c)
      if (Status s = check_pointer("C", args.c->data, m * n > 0); !s.ok()) return s;
    if (args.bias)
      if (Status s = check_pointer("bias", args.bias->data, args.bias->size > 0); !s.ok()) return s;
    if (args.scale_a)
      if (Status s = check_pointer("scale_a", args.scale_a->data, args.scale_a->size > 0); !s.ok()) return s;
    if (args.scale_b)
      if (Status s = check_pointer("scale_b", args.scale_b->data, args.scale_b->size > 0); !s.ok()) return s;
  }
  return {};
}

Status check_alignment(const GemmArgs& args, const AlignmentRequirements& req) {
  const std::pair<const char*, const MatrixView*> mats[] = {
      {"A", &args.a}, {"B", &args.b}, {"D", &args.d}, {"C", args.c ? &*args.c : nullptr}};
  for (auto [name, v] : mats) {
    if (v == nullptr) continue;
    if (v == &*args.c && !req.include_c) {
      if (Status s = check_aligned(name, v->data, size_of(v->dtype), "C must be aligned to its element size"); !s.ok())
        return s;
      continue;
    }
    if (Status s = check_aligned(name, v->data, req.operand_bytes, req.why); !s.ok()) return s;
    if (Status s = check_ld_aligned(name, *v, req.ld_bytes, req.why); !s.ok()) return s;
  }
  const std::pair<const char*, const std::optional<VectorView>*> vecs[] = {
      {"bias", &args.bias}, {"scale_a", &args.scale_a}, {"scale_b", &args.scale_b}};
  for (auto [name, v] : vecs) {
    if (!*v) continue;
    if (Status s = check_aligned(name, (*v)->data, size_of((*v)->dtype), "vectors must be aligned to their element size");
        !s.ok())
      return s;
  }
  return {};
}

Status check_same_problem(const GemmArgs& planned, const GemmArgs& args) {
  auto differs = [](const std::string& what, const std::string& got, const std::string& want) {
    return invalid("these arguments differ from the problem the plan was built for: " + what + " is " + got +
                   " here but " + want + " in the plan. Build a plan for this problem (plans are cheap to keep, "
                   "one per problem)");
  };
  const std::pair<const char*, std::pair<const MatrixView*, const MatrixView*>> mats[] = {
      {"A", {&planned.a, &args.a}}, {"B", {&planned.b, &args.b}}, {"D", {&planned.d, &args.d}}};
  for (auto [name, pv] : mats) {
    const MatrixView& p = *pv.first;
    const MatrixView& a = *pv.second;
    const std::string n = name;
    if (a.rows != p.rows || a.cols != p.cols) return differs(n + "'s shape", shape(a), shape(p));
    if (a.dtype != p.dtype) return differs(n + "'s dtype", to_string(a.dtype), to_string(p.dtype));
    if (a.layout != p.layout) return differs(n + "'s layout", to_string(a.layout), to_string(p.layout));
    if (a.leading_dim() != p.leading_dim())
      return differs(n + "'s leading dimension", str(a.leading_dim()), str(p.leading_dim()));
  }
  if (Status s = same_optional_operands(planned, args, differs); !s.ok()) return s;
  if (args.c && args.c->leading_dim() != planned.c->leading_dim())
    return differs("C's leading dimension", str(args.c->leading_dim()), str(planned.c->leading_dim()));
  const auto vecs = optional_vectors(planned, args);
  for (auto [name, pv] : vecs) {
    if (*pv.second && (*pv.second)->size != (*pv.first)->size)
      return differs(std::string(name) + "'s length", str((*pv.second)->size), str((*pv.first)->size));
  }
  return {};
}

Status check_updatable_problem(const GemmArgs& planned, const GemmArgs& args) {
  auto differs = [](const std::string& what, const std::string& got, const std::string& want) {
    return invalid("these arguments do not fit the recorded GEMM: " + what + " is " + got + " here but " + want +
                   " in the plan it was recorded with. Only pointers, alpha, beta, M and the leading dimensions of A, "
                   "C and D can change in place; for another problem record another node (or recapture the graph)");
  };
  if (args.n() != planned.n()) return differs("N", str(args.n()), str(planned.n()));
  if (args.k() != planned.k()) return differs("K", str(args.k()), str(planned.k()));
  const std::pair<const char*, std::pair<const MatrixView*, const MatrixView*>> mats[] = {
      {"A", {&planned.a, &args.a}}, {"B", {&planned.b, &args.b}}, {"D", {&planned.d, &args.d}}};
  for (auto [name, pv] : mats) {
    const MatrixView& p = *pv.first;
    const MatrixView& a = *pv.second;
    const std::string n = name;
    if (a.dtype != p.dtype) return differs(n + "'s dtype", to_string(a.dtype), to_string(p.dtype));
    if (a.layout != p.layout) return differs(n + "'s layout", to_string(a.layout), to_string(p.layout));
  }
  if (args.b.leading_dim() != planned.b.leading_dim())
    return differs("B's leading dimension", str(args.b.leading_dim()), str(planned.b.leading_dim()));
  if (Status s = same_optional_operands(planned, args, differs); !s.ok()) return s;
  const auto vecs = optional_vectors(planned, args);
  for (auto [name, pv] : vecs) {
    const auto& p = *pv.first;
    const auto& a = *pv.second;
    const std::string n = name;
    if (!a) continue;
    // scale_a follows M: per row stays per row, per tensor stays per tensor.
    const bool per_row_planned = n == "scale_a" && !(p->size == 1 && planned.m() != 1);
    if (n == "scale_a" && per_row_planned && a->size != args.m())
      return differs("scale_a's length", str(a->size), "one entry per row of A (M = " + str(args.m()) + ")");
    if (n == "scale_a" && !per_row_planned && a->size != 1)
      return differs("scale_a's length", str(a->size), "1 (one scale for the whole tensor)");
    if (n != "scale_a" && a->size != p->size) return differs(n + "'s length", str(a->size), str(p->size));
  }
  return {};
}

std::string describe_types(const GemmArgs& args) {
  std::string s = to_string(args.a.dtype);
  if (args.b.dtype != args.a.dtype) s += std::string(" x ") + to_string(args.b.dtype);
  return s + " -> " + to_string(args.d.dtype);
}

std::string describe_problem(const GemmArgs& args) {
  std::string s = "M=" + str(args.m()) + " N=" + str(args.n()) + " K=" + str(args.k()) + " " + describe_types(args) +
                  ", A " + to_string(args.a.layout) + " (ld " + str(args.a.leading_dim()) + "), B " +
                  to_string(args.b.layout) + " (ld " + str(args.b.leading_dim()) + "), D ld " +
                  str(args.d.leading_dim());
  if (args.c) s += ", beta·C";
  if (args.bias) s += std::string(", bias ") + to_string(args.bias->dtype);
  if (args.scale_a) s += args.scale_a->size == 1 && args.m() != 1 ? ", scale_a per tensor" : ", scale_a per row";
  if (args.scale_b) s += args.scale_b->size == 1 && args.n() != 1 ? ", scale_b per tensor" : ", scale_b per column";
  return s;
}

Status check_stream_device(cudaStream_t stream, int device, const char* what) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  GRAPHGEMM_CUDA_TRY(cudaStreamIsCapturing(stream, &capture));
  if (capture != cudaStreamCaptureStatusNone) return {};
  int stream_device = device;
  GRAPHGEMM_CUDA_TRY(cudaStreamGetDevice(stream, &stream_device));
  if (stream_device == device) return {};
  return {StatusCode::invalid_argument,
          "the stream belongs to device " + std::to_string(stream_device) + " but the " + what + " was built on device " +
              std::to_string(device) + "; run on a stream of device " + std::to_string(device) + " or build a " + what +
              " there (cudaSetDevice before initialize)"};
}

}  // namespace graphgemm::detail
