// cuBLASLt behind the GemmPlan contract: the peer in every benchmark and the fallback on GPUs that
// are not Hopper. All descriptors and the algorithm are chosen in initialize(); run() only sets the
// pointers of this call and enqueues cublasLtMatmul, which is legal under stream capture.
//
// NOTES: cuBLASLt is column-major. A row-major D (M x N) is the column-major Dᵀ (N x M), and
// Dᵀ = Bᵀ · Aᵀ, so cuBLASLt's "A" is our B and its "B" is our A, with no data moved. Per-row
// scales of our A therefore become cuBLASLt's B scales, and our per-column bias is cuBLASLt's
// per-row bias of Dᵀ, which is exactly what its BIAS epilogue applies.

#include <cublasLt.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "backends/backend.hpp"
#include "common/cuda_check.hpp"
#include "gemm/validate.hpp"

namespace graphgemm::detail {
namespace {

cudaDataType_t cuda_type(DType t) {
  switch (t) {
    case DType::bf16: return CUDA_R_16BF;
    case DType::fp16: return CUDA_R_16F;
    case DType::fp32: return CUDA_R_32F;
    case DType::int8: return CUDA_R_8I;
    case DType::fp8_e4m3: return CUDA_R_8F_E4M3;
    case DType::int32: return CUDA_R_32I;
  }
  return CUDA_R_32F;
}

Status unsupported(std::string msg) { return {StatusCode::not_supported, "cuBLASLt backend: " + std::move(msg)}; }

bool integral(float v) { return std::isfinite(v) && std::nearbyint(v) == v && std::fabs(v) < 2147483648.0f; }

class CublasLtBackend final : public GemmBackend {
 public:
  ~CublasLtBackend() override {
    // Destruction cannot report errors; these calls only free host memory.
    for (cublasLtMatrixLayout_t l : {lt_a_, lt_b_, lt_c_, lt_d_})
      if (l) (void)cublasLtMatrixLayoutDestroy(l);
    if (desc_) (void)cublasLtMatmulDescDestroy(desc_);
    if (handle_) (void)cublasLtDestroy(handle_);
  }

  Status initialize(const GemmArgs& problem, const GemmOptions& options, int device);

  Backend kind() const noexcept override { return Backend::cublaslt; }
  Status can_implement(const GemmArgs& args) const override;
  std::size_t workspace_size(const GemmArgs&) const override { return workspace_; }
  Status run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const override;
  std::string describe() const override { return description_; }

 private:
  Status check_types(const GemmArgs& p) const;
  Status describe_algo();

  GemmArgs problem_;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t lt_a_ = nullptr, lt_b_ = nullptr, lt_c_ = nullptr, lt_d_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  std::size_t workspace_ = 0;
  bool integer_scalars_ = false;  // int32 output: cuBLASLt takes int32 alpha and beta
  bool empty_ = false;            // M, N or K is 0: GemmPlan handles it, no algorithm needed
  std::string description_;
};

Status CublasLtBackend::check_types(const GemmArgs& p) const {
  const DType in = p.a.dtype;
  if (in == DType::int8 && p.d.dtype != DType::int32)
    return unsupported("int8 GEMMs run with int32 output only (got " + describe_types(p) +
                       "); W8A8 with scales and bf16/fp16 output needs graphgemm's sm90 backend");
  if (in == DType::int8 && p.bias) return unsupported("int8 GEMMs with int32 output take no bias");
  if ((p.scale_a || p.scale_b) && in != DType::fp8_e4m3)
    return unsupported(std::string("scale_a / scale_b apply to fp8_e4m3 inputs only (got ") + to_string(in) +
                       "); fold a per-tensor scale into alpha, or use graphgemm's sm90 backend");
  if (p.bias && p.bias->dtype != p.d.dtype)
    return unsupported(std::string("bias must have D's dtype (") + to_string(p.d.dtype) + "), got " +
                       to_string(p.bias->dtype));
  return {};
}

Status CublasLtBackend::initialize(const GemmArgs& problem, const GemmOptions& options, int device) {
  problem_ = problem;
  // NOTES: cuBLASLt chooses its own split-K (part of the algorithm its heuristic returns); an
  // explicit mode or slice count is not something we can honour exactly, so we say so.
  if (options.split_k_mode == SplitKMode::serial || options.split_k_mode == SplitKMode::parallel ||
      options.split_k_mode == SplitKMode::stream_k || options.split_k_slices > 1)
    return unsupported(std::string("split_k_mode ") + to_string(options.split_k_mode) + " with split_k_slices " +
                       std::to_string(options.split_k_slices) +
                       " cannot be honoured exactly (cuBLASLt picks its own split-K); use split_k_mode automatic "
                       "with slices 0, or graphgemm's sm90 backend");
  if (options.split_k_cluster > 1)
    return unsupported("split_k_cluster = " + std::to_string(options.split_k_cluster) +
                       " (slices summed within thread-block clusters) is graphgemm's sm90 split-K; cuBLASLt picks its own "
                       "split-K: leave split_k_cluster at 0, or use the sm90 backend");
  GRAPHGEMM_TRY(check_types(problem));
  integer_scalars_ = problem.d.dtype == DType::int32;
  if (integer_scalars_ && (!integral(problem.alpha) || !integral(problem.beta)))
    return unsupported("int8 GEMMs with int32 output take integral alpha and beta (got alpha " +
                       std::to_string(problem.alpha) + ", beta " + std::to_string(problem.beta) + ")");
  const std::int64_t m = problem.m(), n = problem.n(), k = problem.k();
  if (m == 0 || n == 0 || k == 0) {
    empty_ = true;
    description_ = "cublaslt: empty product (M, N or K is 0), no cuBLASLt call";
    return {};
  }

  GRAPHGEMM_CUBLAS_TRY(cublasLtCreate(&handle_));
  const cublasComputeType_t compute = integer_scalars_ ? CUBLAS_COMPUTE_32I : CUBLAS_COMPUTE_32F;
  const cudaDataType_t scalar_type = integer_scalars_ ? CUDA_R_32I : CUDA_R_32F;
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescCreate(&desc_, compute, scalar_type));

  // cuBLASLt's A is our B, its B is our A (see the note at the top).
  const cublasOperation_t op_a = problem.b.layout == Layout::col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = problem.a.layout == Layout::row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &op_a, sizeof op_a));
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &op_b, sizeof op_b));
  const auto ab_type = cuda_type(problem.a.dtype);
  const auto d_type = cuda_type(problem.d.dtype);
  const std::uint64_t lda_rows = op_a == CUBLAS_OP_T ? k : n, lda_cols = op_a == CUBLAS_OP_T ? n : k;
  const std::uint64_t ldb_rows = op_b == CUBLAS_OP_N ? k : m, ldb_cols = op_b == CUBLAS_OP_N ? m : k;
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatrixLayoutCreate(&lt_a_, ab_type, lda_rows, lda_cols, problem.b.leading_dim()));
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatrixLayoutCreate(&lt_b_, ab_type, ldb_rows, ldb_cols, problem.a.leading_dim()));
  const std::int64_t ldc = problem.c ? problem.c->leading_dim() : problem.d.leading_dim();
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatrixLayoutCreate(&lt_c_, d_type, n, m, ldc));
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatrixLayoutCreate(&lt_d_, d_type, n, m, problem.d.leading_dim()));

  if (problem.bias) {
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    const cudaDataType_t bias_type = cuda_type(problem.bias->dtype);
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
    GRAPHGEMM_CUBLAS_TRY(
        cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type));
  }
  // Per-row scales of our A are per-column scales of cuBLASLt's B (length M), and vice versa.
  const cublasLtMatmulMatrixScale_t outer = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
  if (problem.scale_b && problem.scale_b->size != 1)
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &outer, sizeof outer));
  if (problem.scale_a && problem.scale_a->size != 1)
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &outer, sizeof outer));

  cublasLtMatmulPreference_t pref = nullptr;
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulPreferenceCreate(&pref));
  const std::uint64_t max_ws = options.max_workspace_bytes;
  const std::uint32_t align = 16;
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws, sizeof max_ws);
  for (auto attr : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    if (st == CUBLAS_STATUS_SUCCESS) st = cublasLtMatmulPreferenceSetAttribute(pref, attr, &align, sizeof align);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulAlgoGetHeuristic(handle_, desc_, lt_a_, lt_b_, lt_c_, lt_d_, pref, 1, &result, &found);
  (void)cublasLtMatmulPreferenceDestroy(pref);
  const bool outer_vector_scales = (problem.scale_a && problem.scale_a->size != 1) || (problem.scale_b && problem.scale_b->size != 1);
  if (outer_vector_scales && st != CUBLAS_STATUS_SUCCESS) {
    // NOTES: on H100 with CUDA 13.0 the heuristic answers INVALID_VALUE for OUTER_VEC_32F scales.
    return unsupported("per-row / per-column fp8 scales (OUTER_VEC_32F) are not available from cuBLASLt on this GPU (" +
                       std::string(st == CUBLAS_STATUS_INVALID_VALUE ? "CUBLAS_STATUS_INVALID_VALUE" : "no algorithm") +
                       "); use per-tensor scales (length 1) or graphgemm's sm90 backend");
  }
  if (st == CUBLAS_STATUS_NOT_SUPPORTED || (st == CUBLAS_STATUS_SUCCESS && found == 0)) {
    cudaDeviceProp prop{};
    GRAPHGEMM_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    return unsupported("no cuBLASLt algorithm for " + describe_problem(problem) + " on " + prop.name +
                       " (sm_" + std::to_string(prop.major * 10 + prop.minor) + ")");
  }
  GRAPHGEMM_CUBLAS_TRY(st);
  algo_ = result.algo;
  workspace_ = result.workspaceSize;
  return describe_algo();
}

Status CublasLtBackend::describe_algo() {
  // Attributes have different widths; ask each one's size first.
  auto read = [this](cublasLtMatmulAlgoConfigAttributes_t attr) -> long long {
    std::size_t size = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo_, attr, nullptr, 0, &size) != CUBLAS_STATUS_SUCCESS || size > 8) return -1;
    std::uint64_t v = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo_, attr, &v, size, &size) != CUBLAS_STATUS_SUCCESS) return -1;
    return static_cast<long long>(v);
  };
  description_ = "cublaslt: algo " + std::to_string(read(CUBLASLT_ALGO_CONFIG_ID)) + ", tile id " +
                 std::to_string(read(CUBLASLT_ALGO_CONFIG_TILE_ID)) + ", stages id " +
                 std::to_string(read(CUBLASLT_ALGO_CONFIG_STAGES_ID)) + ", split-k " +
                 std::to_string(read(CUBLASLT_ALGO_CONFIG_SPLITK_NUM)) + ", workspace " +
                 std::to_string(workspace_) + " B";
  return {};
}

Status CublasLtBackend::can_implement(const GemmArgs& args) const {
  GRAPHGEMM_TRY(check_same_problem(problem_, args));
  GRAPHGEMM_TRY(check_alignment(args, {16, 0, "the cuBLASLt algorithm was chosen for 16-byte aligned operands"}));
  if (integer_scalars_ && (!integral(args.alpha) || !integral(args.beta)))
    return unsupported("int8 GEMMs with int32 output take integral alpha and beta (got alpha " +
                       std::to_string(args.alpha) + ", beta " + std::to_string(args.beta) + ")");
  return {};
}

Status CublasLtBackend::run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const {
  if (empty_) return {StatusCode::internal, "cuBLASLt backend called for an empty product"};
  // NOTES: the descriptor holds this call's vector pointers; that is host memory only, so a plan
  // is not to be run from two host threads at once (as with a cuBLAS handle).
  if (args.bias) {
    const void* p = args.bias->data;
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &p, sizeof p));
  }
  if (args.scale_b) {
    const void* p = args.scale_b->data;
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &p, sizeof p));
  }
  if (args.scale_a) {
    const void* p = args.scale_a->data;
    GRAPHGEMM_CUBLAS_TRY(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &p, sizeof p));
  }
  const float beta = args.c ? args.beta : 0.0f;
  const std::int32_t alpha_i = static_cast<std::int32_t>(args.alpha), beta_i = static_cast<std::int32_t>(beta);
  const void* alpha_p = integer_scalars_ ? static_cast<const void*>(&alpha_i) : &args.alpha;
  const void* beta_p = integer_scalars_ ? static_cast<const void*>(&beta_i) : &beta;
  void* d = const_cast<void*>(args.d.data);
  const void* c = args.c ? args.c->data : d;
  GRAPHGEMM_CUBLAS_TRY(cublasLtMatmul(handle_, desc_, alpha_p, args.b.data, lt_a_, args.a.data, lt_b_, beta_p, c, lt_c_,
                                      d, lt_d_, &algo_, workspace.data, workspace_, stream));
  return {};
}

}  // namespace

Status make_cublaslt_backend(const GemmArgs& problem, const GemmOptions& options, int device,
                             std::unique_ptr<GemmBackend>& out) {
  auto backend = std::make_unique<CublasLtBackend>();
  GRAPHGEMM_TRY(backend->initialize(problem, options, device));
  out = std::move(backend);
  return {};
}

}  // namespace graphgemm::detail
