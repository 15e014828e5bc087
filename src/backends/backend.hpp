#pragma once
// The interface every GEMM backend implements behind GemmPlan. GemmPlan has already checked the
// generic validity of the arguments, the stream and the workspace before calling in.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "graphgemm/gemm.hpp"

namespace graphgemm::detail {

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
};

// Each factory checks that it can implement `problem` on `device` and does all one-time work.
[[nodiscard]] Status make_cublaslt_backend(const GemmArgs& problem, const GemmOptions& options, int device,
                                           std::unique_ptr<GemmBackend>& out);
[[nodiscard]] Status make_sm90_backend(const GemmArgs& problem, const GemmOptions& options, int device,
                                       std::unique_ptr<GemmBackend>& out);

}  // namespace graphgemm::detail
