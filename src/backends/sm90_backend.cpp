// graphgemm's own Hopper kernels behind the GemmPlan contract. initialize() picks a kernel
// instance and does its one-time setup; run() encodes the tensor maps for this call's pointers
// (host-only work, legal under capture) and launches.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>

#include "backends/backend.hpp"
#include "backends/sm90_heuristic.hpp"
#include "common/cuda_check.hpp"
#include "gemm/validate.hpp"
#include "kernels/sm90_gemm_instances.hpp"

namespace graphgemm::detail {
namespace {

namespace k = graphgemm::kernels::sm90;

Status unsupported(std::string msg) { return {StatusCode::not_supported, "sm90 backend: " + std::move(msg)}; }

constexpr AlignmentRequirements kTmaAlignment{16, 16, "TMA needs 16-byte aligned rows", /*include_c=*/false};

class Sm90Backend final : public GemmBackend {
 public:
  Status initialize(const GemmArgs& problem, const GemmOptions& options, int device);
  Backend kind() const noexcept override { return Backend::sm90; }
  Status can_implement(const GemmArgs& args) const override;
  std::size_t workspace_size(const GemmArgs&) const override { return 0; }
  Status run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const override;
  std::string describe() const override { return description_; }

 private:
  GemmArgs problem_;
  int kernel_ = -1;
  int num_sms_ = 0;
  bool empty_ = false;
  std::string description_;
};

Status Sm90Backend::initialize(const GemmArgs& p, const GemmOptions& options, int device) {
  problem_ = p;
  int major = 0, minor = 0;
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major != 9 || minor != 0)
    return unsupported("needs a Hopper GPU (compute capability 9.0); this device is sm_" + std::to_string(major * 10 + minor));
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&num_sms_, cudaDevAttrMultiProcessorCount, device));

  if (p.a.dtype != DType::bf16 && p.a.dtype != DType::fp16)
    return unsupported(std::string("runs bf16 and fp16 inputs (got ") + to_string(p.a.dtype) + ")");
  if (p.a.layout != Layout::row_major) return unsupported("A must be row-major (M x K, K contiguous)");
  if (p.scale_a && p.scale_a->size != p.m())
    return unsupported("scale_a must have one entry per row of A; fold a per-tensor scale into alpha");
  if (p.scale_b && p.scale_b->size != p.n())
    return unsupported("scale_b must have one entry per column of B; fold a per-tensor scale into alpha");
  if (p.m() > INT32_MAX || p.n() > INT32_MAX || p.k() > INT32_MAX)
    return unsupported("M, N and K must each be below 2^31");
  if (p.m() == 0 || p.n() == 0 || p.k() == 0) {  // GemmPlan handles these without a GEMM kernel
    empty_ = true;
    description_ = "sm90: empty product (M, N or K is 0), no GEMM kernel";
    return {};
  }
  for (auto [name, v] : {std::pair<const char*, const MatrixView*>{"A", &p.a}, {"B", &p.b}, {"D", &p.d}}) {
    const std::size_t bytes = static_cast<std::size_t>(v->leading_dim()) * size_of(v->dtype);
    if (bytes % 16 != 0)
      return {StatusCode::not_supported,
              std::string(name) + "'s leading dimension " + std::to_string(v->leading_dim()) + " (" + std::to_string(bytes) +
                  " bytes) must be a multiple of 16 bytes for the sm90 kernels (TMA needs 16-byte aligned rows); pad it "
                  "to a multiple of " + std::to_string(16 / size_of(v->dtype)) + " elements, or use Backend::cublaslt"};
  }

  const auto in = p.a.dtype == DType::bf16 ? sm90::DTypeIn::bf16 : sm90::DTypeIn::fp16;
  const auto out = p.d.dtype == DType::fp32 ? sm90::DTypeOut::fp32
                   : p.d.dtype == DType::fp16 ? sm90::DTypeOut::fp16 : sm90::DTypeOut::bf16;
  const bool b_k_major = p.b.layout == Layout::col_major;
  std::string why;
  if (!options.sm90_kernel.empty()) {
    kernel_ = sm90::find_kernel(options.sm90_kernel.c_str());
    if (kernel_ < 0) return {StatusCode::invalid_argument, "no sm90 kernel is named \"" + options.sm90_kernel + "\""};
    const sm90::KernelInfo& ki = sm90::kernel_info(kernel_);
    if (ki.dtype_in != in || ki.dtype_out != out || ki.b_k_major != b_k_major)
      return {StatusCode::invalid_argument, "sm90 kernel \"" + options.sm90_kernel + "\" is for other dtypes or another B layout than " +
                                                describe_types(p) + ", B " + to_string(p.b.layout)};
    why = "chosen by name";
  } else {
    const sm90::KernelChoice choice = sm90::choose_kernel(in, out, b_k_major, p.m(), p.n(), num_sms_);
    if (choice.index < 0) return unsupported("no kernel instance for " + describe_types(p));
    kernel_ = choice.index;
    why = choice.explanation;
  }

  // NOTES: a library built without sm_90a has kernels whose bodies trap; refuse them here.
  cudaFuncAttributes attr{};
  GRAPHGEMM_CUDA_TRY(cudaFuncGetAttributes(&attr, sm90::kernel_function(kernel_)));
  if (attr.ptxVersion != 90)
    return unsupported("this graphgemm was built without the sm_90a target (kernel PTX version " + std::to_string(attr.ptxVersion) +
                       "); rebuild with CMAKE_CUDA_ARCHITECTURES=90a");
  GRAPHGEMM_CUDA_TRY(sm90::kernel_initialize(kernel_, device));
  description_ = std::string("sm90: ") + sm90::kernel_info(kernel_).name + " (" + why + ")";
  return {};
}

Status Sm90Backend::can_implement(const GemmArgs& args) const {
  GRAPHGEMM_TRY(check_same_problem(problem_, args));
  return empty_ ? Status{} : check_alignment(args, kTmaAlignment);
}

Status Sm90Backend::run(const GemmArgs& args, Workspace, cudaStream_t stream) const {
  if (empty_) return {StatusCode::internal, "sm90 backend called for an empty product"};
  k::GemmParams p;
  p.m = static_cast<int>(args.m());
  p.n = static_cast<int>(args.n());
  p.k = static_cast<int>(args.k());
  p.a = args.a.data;
  p.lda = args.a.leading_dim();
  p.b = args.b.data;
  p.ldb = args.b.leading_dim();
  if (args.c && args.beta != 0.0f) {
    p.c = args.c->data;
    p.ldc = args.c->leading_dim();
  }
  p.d = const_cast<void*>(args.d.data);
  p.ldd = args.d.leading_dim();
  if (args.bias) {
    p.bias = args.bias->data;
    p.bias_type = args.bias->dtype == DType::fp32   ? k::BiasType::fp32
                  : args.bias->dtype == DType::fp16 ? k::BiasType::fp16 : k::BiasType::bf16;
  }
  p.scale_a = args.scale_a ? static_cast<const float*>(args.scale_a->data) : nullptr;
  p.scale_b = args.scale_b ? static_cast<const float*>(args.scale_b->data) : nullptr;
  p.alpha = args.alpha;
  p.beta = args.beta;
  sm90::LaunchArgsStorage launch;
  GRAPHGEMM_CUDA_TRY(sm90::kernel_make_launch_args(kernel_, p, num_sms_, launch));
  GRAPHGEMM_CUDA_TRY(sm90::kernel_launch(kernel_, launch, stream));
  return {};
}

}  // namespace

Status make_sm90_backend(const GemmArgs& problem, const GemmOptions& options, int device, std::unique_ptr<GemmBackend>& out) {
  auto backend = std::make_unique<Sm90Backend>();
  GRAPHGEMM_TRY(backend->initialize(problem, options, device));
  out = std::move(backend);
  return {};
}

}  // namespace graphgemm::detail
