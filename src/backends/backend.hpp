#pragma once
// The interface every GEMM backend implements behind GemmPlan. GemmPlan has already checked the
// generic validity of the arguments, the stream and the workspace before calling in.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "graphgemm/gemm.hpp"

namespace graphgemm::detail {

// One kernel launch, fully described: what a graph kernel node needs. The kernel arguments live
// in `storage`; kernel_params() points into it (copying a KernelLaunch keeps it valid).
struct KernelLaunch {
  const void* function = nullptr;
  dim3 grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  std::size_t smem = 0;
  // The kernel may start while the kernel before it finishes (programmatic dependent launch: it
  // executes griddepcontrol.wait before touching anything that kernel writes), so a graph node
  // of it takes programmatic edges from the kernel nodes it follows.
  bool programmatic = false;
  int num_args = 0;
  std::size_t arg_offset[4] = {};
  alignas(128) unsigned char storage[1024];
  void kernel_params(void* out[4]) const {
    for (int i = 0; i < num_args; ++i) out[i] = const_cast<unsigned char*>(storage) + arg_offset[i];
  }
};

class GemmBackend {
 public:
  virtual ~GemmBackend() = default;
  [[nodiscard]] virtual Backend kind() const noexcept = 0;
  // Backend-specific checks of well-formed arguments: same problem as planned, alignment, ...
  [[nodiscard]] virtual Status can_implement(const GemmArgs& args) const = 0;
  [[nodiscard]] virtual std::size_t workspace_size(const GemmArgs& args) const = 0;
  // Enqueues the GEMM (K >= 1, M, N >= 1). Must be legal under stream capture.
  [[nodiscard]] virtual Status run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const = 0;
  [[nodiscard]] virtual std::string describe() const = 0;
  // The GEMM as one kernel launch, for graph kernel nodes whose parameters are updated later.
  // `args` may differ from the planned problem in M and in the leading dimensions of A, C and D
  // (check_updatable_problem); the grid is the one for this M (a GEMM node keeps the grid of its
  // max_m unless recorded with NodeGrid::follows_m; the kernel spreads fewer tiles over a larger
  // grid). Backends that cannot describe their work as one kernel return not_supported.
  [[nodiscard]] virtual Status make_kernel_launch(const GemmArgs& args, KernelLaunch& out) const {
    (void)args, (void)out;
    return {StatusCode::not_supported, "this backend (" + describe() + ") cannot run as an updatable graph node"};
  }
};

// Each factory checks that it can implement `problem` on `device` and does all one-time work.
[[nodiscard]] Status make_cublaslt_backend(const GemmArgs& problem, const GemmOptions& options, int device,
                                           std::unique_ptr<GemmBackend>& out);
[[nodiscard]] Status make_sm90_backend(const GemmArgs& problem, const GemmOptions& options, int device,
                                       std::unique_ptr<GemmBackend>& out);

}  // namespace graphgemm::detail
