// graphgemm's own Hopper kernels behind the GemmPlan contract. initialize() picks a kernel
// instance and does its one-time setup; run() encodes the tensor maps for this call's pointers, or
// reuses those of one of the last few identical calls (host-only work, legal under capture), and
// launches. With split-K through a workspace the launch is a 1-CTA kernel zeroing the workspace's
// counters and the GEMM kernel launched programmatically after it, both on the run's stream (two
// kernel nodes and a programmatic edge under capture).

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <mutex>
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

bool same_launch(const k::GemmParams& x, const k::GemmParams& y) {
  return x.m == y.m && x.n == y.n && x.k == y.k && x.a == y.a && x.lda == y.lda && x.b == y.b && x.ldb == y.ldb &&
         x.c == y.c && x.ldc == y.ldc && x.d == y.d && x.ldd == y.ldd && x.bias == y.bias &&
         x.bias_type == y.bias_type && x.scale_a == y.scale_a && x.scale_b == y.scale_b && x.alpha == y.alpha &&
         x.beta == y.beta && x.raster_group == y.raster_group && x.raster_along_n == y.raster_along_n &&
         x.split_mode == y.split_mode && x.splits == y.splits && x.split_cluster == y.split_cluster &&
         x.workspace == y.workspace &&
         x.workspace_bytes == y.workspace_bytes && x.programmatic == y.programmatic;
}

// The launch arguments of the last few distinct calls. Encoding the three tensor maps is most of
// run()'s host cost, and a layer of a model runs with the same few buffers again and again, so a
// repeated call copies 1 KB instead. Fixed size: nothing is allocated on the run path. Guarded by
// a mutex, since a plan may be run from several threads.
class LaunchArgsCache {
 public:
  // Fills `out` for `p`; false on a miss.
  bool find(const k::GemmParams& p, sm90::LaunchArgsStorage& out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Entry& e : entries_) {
      if (e.valid && same_launch(e.params, p)) {
        out = e.args;
        return true;
      }
    }
    return false;
  }
  void insert(const k::GemmParams& p, const sm90::LaunchArgsStorage& args) {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    e.params = p;
    e.args = args;
    e.valid = true;
  }

 private:
  static constexpr int kEntries = 8;
  struct Entry {
    k::GemmParams params;
    bool valid = false;
    sm90::LaunchArgsStorage args;
  };
  mutable std::mutex mutex_;
  std::array<Entry, kEntries> entries_{};
  int next_ = 0;
};

class Sm90Backend final : public GemmBackend {
 public:
  Status initialize(const GemmArgs& problem, const GemmOptions& options, int device);
  Backend kind() const noexcept override { return Backend::sm90; }
  Status can_implement(const GemmArgs& args) const override;
  std::size_t workspace_size(const GemmArgs&) const override { return workspace_bytes_; }
  Status run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const override;
  std::string describe() const override { return description_; }
  Status make_kernel_launch(const GemmArgs& args, KernelLaunch& out) const override;

 private:
  cudaError_t launch_args(const k::GemmParams& p, sm90::LaunchArgsStorage& out) const;
  // The kernel's parameters for `args` with this plan's resolved tile order and programmatic launch.
  k::GemmParams kernel_params(const GemmArgs& args) const;

  GemmArgs problem_;
  int kernel_ = -1;
  int num_sms_ = 0;
  bool empty_ = false;
  k::SplitMode split_mode_ = k::SplitMode::none;  // split-K, as chosen at initialize
  int slices_ = 1;
  int split_cluster_ = 1;      // parallel split-K: CTAs of a cluster that sum their slices
  bool programmatic_ = false;  // GemmOptions::programmatic_launch resolved
  int raster_group_ = k::kDefaultRasterGroup;  // GemmOptions::sm90_raster_group / _order resolved
  bool raster_along_n_ = false;
  std::size_t workspace_bytes_ = 0;
  std::string description_;
  mutable LaunchArgsCache cache_;
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
  int forced = -1;
  if (!options.sm90_kernel.empty()) {
    forced = sm90::find_kernel(options.sm90_kernel.c_str());
    if (forced < 0) return {StatusCode::invalid_argument, "no sm90 kernel is named \"" + options.sm90_kernel + "\""};
    const sm90::KernelInfo& ki = sm90::kernel_info(forced);
    if (ki.dtype_in != in || ki.dtype_out != out || ki.b_k_major != b_k_major)
      return {StatusCode::invalid_argument, "sm90 kernel \"" + options.sm90_kernel + "\" is for other dtypes or another B layout than " +
                                                describe_types(p) + ", B " + to_string(p.b.layout)};
  }
  // Kernel, split-K mode and slices: explicit requests honoured exactly (or an error saying why).
  sm90::SplitRequest request{in, out, b_k_major, p.m(), p.n(), p.k(), num_sms_};
  request.mode = options.split_k_mode;
  request.slices = options.split_k_slices;
  request.max_workspace_bytes = options.max_workspace_bytes;
  request.forced_kernel = forced;
  request.cluster = options.split_k_cluster;
  request.programmatic = options.programmatic_launch;
  // Co-resident clusters of 2, 4 and 8 CTAs, for sums of split-K slices within clusters: the same
  // for every kernel that can do it (one CTA per SM), measured on one of them.
  for (int i = 0; i < sm90::kernel_count(); ++i) {
    const sm90::KernelInfo& ki = sm90::kernel_info(i);
    if (!ki.split_cluster || ki.dtype_in != in || ki.dtype_out != out || ki.b_k_major != b_k_major) continue;
    GRAPHGEMM_CUDA_TRY(sm90::kernel_initialize(i, device));
    for (int lg = 1; lg <= 3; ++lg) request.cluster_capacity[lg] = sm90::kernel_split_cluster_capacity(i, 1 << lg, num_sms_);
    break;
  }
  const sm90::SplitChoice choice = sm90::choose_split(request);
  if (!choice.error.ok()) return choice.error;
  if (choice.index < 0) return unsupported("no kernel instance for " + describe_types(p));
  kernel_ = choice.index;
  split_mode_ = choice.mode;
  slices_ = choice.slices;
  split_cluster_ = choice.cluster;
  workspace_bytes_ = choice.workspace_bytes;
  const std::string why = choice.explanation;

  // NOTES: a library built without sm_90a has kernels whose bodies trap; refuse them here.
  cudaFuncAttributes attr{};
  GRAPHGEMM_CUDA_TRY(cudaFuncGetAttributes(&attr, sm90::kernel_function(kernel_)));
  if (attr.ptxVersion != 90)
    return unsupported("this graphgemm was built without the sm_90a target (kernel PTX version " + std::to_string(attr.ptxVersion) +
                       "); rebuild with CMAKE_CUDA_ARCHITECTURES=90a");
  GRAPHGEMM_CUDA_TRY(sm90::kernel_initialize(kernel_, device));
  // PDL with the previous kernel (for a split through the workspace: of its zeroing kernel, which
  // waits for that kernel before it writes; the GEMM kernel follows the zeroing kernel
  // programmatically either way); automatic: where the grid leaves SMs idle.
  programmatic_ = sm90::programmatic_launch(options.programmatic_launch, sm90::kernel_info(kernel_), p.m(), p.n(),
                                            slices_, split_cluster_, num_sms_);
  raster_along_n_ = options.sm90_raster_order == RasterOrder::along_n;
  raster_group_ = options.sm90_raster_group > 0 ? options.sm90_raster_group : k::kDefaultRasterGroup;
  description_ = std::string("sm90: ") + sm90::kernel_info(kernel_).name + ", split-K " +
                 k::split_mode_name(split_mode_) +
                 " x" + std::to_string(slices_) +
                 (split_cluster_ > 1 ? " summed in clusters of " + std::to_string(split_cluster_) : std::string()) +
                 (workspace_bytes_ > 0 ? ", workspace " + std::to_string(workspace_bytes_) + " B" : std::string()) +
                 (programmatic_ ? ", programmatic launch" : "") + ", tiles in groups of " + std::to_string(raster_group_) +
                 (raster_along_n_ ? " along N" : " along M") + " (" + why + ")";
  return {};
}

Status Sm90Backend::can_implement(const GemmArgs& args) const {
  GRAPHGEMM_TRY(check_same_problem(problem_, args));
  return empty_ ? Status{} : check_alignment(args, kTmaAlignment);
}

// The kernel's parameters for `args` (shared by run() and make_kernel_launch()).
k::GemmParams gemm_params(const GemmArgs& args) {
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
  return p;
}

k::GemmParams Sm90Backend::kernel_params(const GemmArgs& args) const {
  k::GemmParams p = gemm_params(args);
  p.raster_group = raster_group_;
  p.raster_along_n = raster_along_n_;
  p.programmatic = programmatic_;
  return p;
}

Status Sm90Backend::run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const {
  if (empty_) return {StatusCode::internal, "sm90 backend called for an empty product"};
  k::GemmParams p = kernel_params(args);
  if (split_mode_ != k::SplitMode::none) {  // split-K / stream-K: kernel_launch zeroes the counters on `stream`, then launches
    if (workspace_bytes_ > 0 && (workspace.data == nullptr || workspace.size < workspace_bytes_))
      return {StatusCode::invalid_argument, "sm90 backend: split-K needs " + std::to_string(workspace_bytes_) +
                                                " bytes of workspace, got " + std::to_string(workspace.size)};
    p.split_mode = split_mode_;
    p.splits = slices_;
    p.split_cluster = split_cluster_;
    p.workspace = workspace.data;
    p.workspace_bytes = workspace.size;
  }
  sm90::LaunchArgsStorage launch;
  GRAPHGEMM_CUDA_TRY(launch_args(p, launch));
  GRAPHGEMM_CUDA_TRY(sm90::kernel_launch(kernel_, launch, stream));
  return {};
}

cudaError_t Sm90Backend::launch_args(const k::GemmParams& p, sm90::LaunchArgsStorage& out) const {
  if (cache_.find(p, out)) return cudaSuccess;
  const cudaError_t err = sm90::kernel_make_launch_args(kernel_, p, num_sms_, out);
  if (err == cudaSuccess) cache_.insert(p, out);
  return err;
}

Status Sm90Backend::make_kernel_launch(const GemmArgs& args, KernelLaunch& out) const {
  if (empty_) return unsupported("the plan is for an empty product (M, N or K is 0): there is no kernel to put in a graph node");
  if (split_mode_ != k::SplitMode::none)  // NOTES: split-K is a zeroing kernel + the GEMM kernel, and its workspace size depends on M
    return unsupported("this plan uses split-K (" + std::to_string(slices_) +
                       " slices): its launch is a kernel zeroing the workspace and the GEMM kernel, not one updatable kernel node; "
                       "build the plan with split_k_mode = SplitKMode::none for graph node updates");
  GRAPHGEMM_TRY(validate_problem(args, /*check_pointers=*/true));
  GRAPHGEMM_TRY(check_updatable_problem(problem_, args));
  GRAPHGEMM_TRY(check_alignment(args, kTmaAlignment));
  if (args.m() < 1 || args.m() > INT32_MAX)
    return {StatusCode::invalid_argument, "M must be between 1 and 2^31 - 1 for an sm90 kernel launch (got " +
                                              std::to_string(args.m()) + ")"};
  static_assert(sizeof(sm90::LaunchArgsStorage) <= sizeof(KernelLaunch::storage));
  static_assert(alignof(sm90::LaunchArgsStorage) <= 128);
  auto* storage = reinterpret_cast<sm90::LaunchArgsStorage*>(out.storage);
  const k::GemmParams p = kernel_params(args);
  const cudaError_t err = launch_args(p, *storage);
  if (err == cudaErrorInvalidValue)
    return {StatusCode::invalid_argument, "the sm90 kernel cannot take these arguments (" + describe_problem(args) +
                                              "): TMA needs 16-byte aligned A, B, D and leading dimensions"};
  GRAPHGEMM_CUDA_TRY(err);
  void* ptrs[4];
  out.num_args = sm90::kernel_args(kernel_, *storage, ptrs);
  for (int i = 0; i < out.num_args; ++i) out.arg_offset[i] = static_cast<std::size_t>(static_cast<unsigned char*>(ptrs[i]) - out.storage);
  const sm90::LaunchGeometry g = sm90::kernel_geometry(kernel_, *storage);
  out.function = sm90::kernel_launch_function(kernel_, *storage);
  out.grid = dim3(g.grid[0], g.grid[1], g.grid[2]);
  out.block = dim3(g.block[0], g.block[1], g.block[2]);
  out.cluster = dim3(g.cluster[0], g.cluster[1], g.cluster[2]);
  out.smem = g.smem;
  out.programmatic = g.programmatic;
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
