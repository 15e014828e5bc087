#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "backends/backend.hpp"
#include "common/cuda_check.hpp"
#include "gemm/validate.hpp"
#include "graphgemm/gemm.hpp"
#include "graphgemm/kernels/sm90/sm90_gemm_types.hpp"
#include "kernels/k_zero_epilogue.hpp"

namespace graphgemm {

namespace {
using kernels::sm90::kMaxRasterGroup;             // the sm90 launcher's bound

// Split-K options every backend shares (backends add their own limits, e.g. sm90's 64-wide k-blocks).
Status validate_split_k(const GemmArgs& problem, const GemmOptions& options) {
  const int slices = options.split_k_slices;
  switch (options.split_k_mode) {
    case SplitKMode::none: case SplitKMode::serial: case SplitKMode::parallel: case SplitKMode::automatic:
    case SplitKMode::stream_k: break;
    default:
      return {StatusCode::invalid_argument, "split_k_mode has an unknown value " +
                                                std::to_string(static_cast<int>(options.split_k_mode)) +
                                                " (none, serial, parallel, automatic or stream_k)"};
  }
  if (options.split_k_mode == SplitKMode::stream_k && slices != 0)
    return {StatusCode::invalid_argument, "split_k_slices = " + std::to_string(slices) +
                                              " with split_k_mode stream_k: stream-K shares the k-blocks among all SMs, "
                                              "so the slice count is not a choice; leave split_k_slices at 0"};
  if (slices < 0)
    return {StatusCode::invalid_argument, "split_k_slices must be >= 1, or 0 to let the heuristic choose (got " +
                                              std::to_string(slices) + ")"};
  if (options.split_k_mode == SplitKMode::none && slices > 1)
    return {StatusCode::invalid_argument, "split_k_slices = " + std::to_string(slices) +
                                              " needs split_k_mode serial, parallel or automatic (it is none, "
                                              "which runs one slice); set the mode or leave slices at 0"};
  const int cluster = options.split_k_cluster;
  if (cluster != 0 && cluster != 1 && cluster != 2 && cluster != 4 && cluster != 8)
    return {StatusCode::invalid_argument, "split_k_cluster must be 0 (the backend decides), 1 (no cluster sums), 2, 4 or 8 (got " +
                                              std::to_string(cluster) + ")"};
  if (cluster > 1 && options.split_k_mode != SplitKMode::parallel && options.split_k_mode != SplitKMode::automatic)
    return {StatusCode::invalid_argument, "split_k_cluster = " + std::to_string(cluster) + " sums parallel split-K slices; split_k_mode is " +
                                              to_string(options.split_k_mode) + ": use parallel (or automatic), or leave split_k_cluster at 0"};
  if (cluster > 1 && slices > 1 && slices % cluster != 0)
    return {StatusCode::invalid_argument, "split_k_slices = " + std::to_string(slices) + " is not a multiple of split_k_cluster = " +
                                              std::to_string(cluster) + ": every cluster sums that many consecutive slices"};
  if (slices > 1 && problem.k() > 0 && slices > problem.k())
    return {StatusCode::invalid_argument, "split_k_slices = " + std::to_string(slices) + " exceeds K = " +
                                              std::to_string(problem.k()) +
                                              ": every slice needs at least one element of K"};
  return {};
}

Status validate_raster(const GemmOptions& options) {
  switch (options.sm90_raster_order) {
    case RasterOrder::automatic: case RasterOrder::along_m: case RasterOrder::along_n: break;
    default:
      return {StatusCode::invalid_argument, "sm90_raster_order has an unknown value " +
                                                std::to_string(static_cast<int>(options.sm90_raster_order)) +
                                                " (automatic, along_m or along_n)"};
  }
  if (options.sm90_raster_group < 0 || options.sm90_raster_group > kMaxRasterGroup)
    return {StatusCode::invalid_argument, "sm90_raster_group must be 0 (the backend decides) or 1 .. " +
                                              std::to_string(kMaxRasterGroup) + " tiles (got " +
                                              std::to_string(options.sm90_raster_group) + ")"};
  return {};
}
}

GemmPlan::GemmPlan() noexcept = default;
GemmPlan::~GemmPlan() = default;
GemmPlan::GemmPlan(GemmPlan&&) noexcept = default;
GemmPlan& GemmPlan::operator=(GemmPlan&&) noexcept = default;

Status GemmPlan::initialize(const GemmArgs& problem, const GemmOptions& options) {
  backend_.reset();
  fallback_reason_.clear();
  GRAPHGEMM_TRY(detail::validate_problem(problem, /*check_pointers=*/false));
  GRAPHGEMM_TRY(validate_split_k(problem, options));
  GRAPHGEMM_TRY(validate_raster(options));
  int device = -1;
  GRAPHGEMM_CUDA_TRY(cudaGetDevice(&device));

  std::unique_ptr<detail::GemmBackend> backend;
  switch (options.backend) {
    case Backend::cublaslt:
      GRAPHGEMM_TRY(detail::make_cublaslt_backend(problem, options, device, backend));
      break;
    case Backend::sm90:
      GRAPHGEMM_TRY(detail::make_sm90_backend(problem, options, device, backend));
      break;
    case Backend::automatic: {
      // Our kernels where they implement the problem on this GPU; cuBLASLt otherwise, saying why.
      const Status ours = detail::make_sm90_backend(problem, options, device, backend);
      if (ours.code() != StatusCode::not_supported && !ours.ok()) return ours;
      if (!ours.ok()) {
        GRAPHGEMM_TRY(detail::make_cublaslt_backend(problem, options, device, backend));
        fallback_reason_ = ours.message();
      }
      break;
    }
  }
  backend_ = std::move(backend);
  device_ = device;
  return {};
}

Status GemmPlan::can_implement(const GemmArgs& args) const {
  if (!backend_) return {StatusCode::invalid_argument, "the plan is not initialized: call initialize(problem) first"};
  GRAPHGEMM_TRY(detail::validate_problem(args, /*check_pointers=*/true));
  return backend_->can_implement(args);
}

std::size_t GemmPlan::workspace_size(const GemmArgs& args) const {
  return backend_ ? backend_->workspace_size(args) : 0;
}

Status GemmPlan::run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const {
  GRAPHGEMM_TRY(can_implement(args));
  GRAPHGEMM_TRY(detail::check_stream_device(stream, device_, "plan"));

  const std::size_t needed = backend_->workspace_size(args);
  if (workspace.size < needed)
    return {StatusCode::invalid_argument, "the workspace has " + std::to_string(workspace.size) +
                                              " bytes but this plan needs " + std::to_string(needed) +
                                              " (plan.workspace_size(args)); allocate it once, before capture"};
  if (needed > 0 && workspace.data == nullptr)
    return {StatusCode::invalid_argument, "the workspace pointer is null but this plan needs " +
                                              std::to_string(needed) + " bytes of device workspace"};
  if (reinterpret_cast<std::uintptr_t>(workspace.data) % detail::kWorkspaceAlignment != 0)
    return {StatusCode::invalid_argument, "the workspace must be " + std::to_string(detail::kWorkspaceAlignment) +
                                              "-byte aligned (cudaMalloc memory is)"};

  if (args.m() == 0 || args.n() == 0) return {};  // D is empty: nothing to do
  if (args.k() == 0) return detail::launch_k_zero_epilogue(args, stream);
  return backend_->run(args, workspace, stream);
}

Backend GemmPlan::backend() const noexcept { return backend_ ? backend_->kind() : Backend::automatic; }

std::string GemmPlan::describe() const {
  if (!backend_) return "uninitialized plan";
  return fallback_reason_.empty() ? backend_->describe() : backend_->describe() + " [fallback: " + fallback_reason_ + "]";
}

}  // namespace graphgemm
