#include "graphgemm/status.hpp"

#include <string>

#include "common/cuda_check.hpp"

namespace graphgemm {

const char* to_string(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::not_supported: return "not_supported";
    case StatusCode::cuda_error: return "cuda_error";
    case StatusCode::library_error: return "library_error";
    case StatusCode::internal: return "internal";
  }
  return "unknown";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return std::string(graphgemm::to_string(code_)) + ": " + message_;
}

namespace detail {

static std::string where(const char* expr, const char* file, int line) {
  return std::string(" (in `") + expr + "` at " + file + ":" + std::to_string(line) + ")";
}

Status cuda_status(cudaError_t err, const char* expr, const char* file, int line) {
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
  if (err == cudaErrorStreamCaptureUnsupported || err == cudaErrorStreamCaptureInvalidated)
    msg += "; an operation illegal under stream capture was issued, the capture is now invalid";
  return {StatusCode::cuda_error, msg + where(expr, file, line)};
}

// NOTES: cublasGetStatusName lives in libcublas, which we do not link; cuBLASLt has no equivalent.
static const char* cublas_status_name(cublasStatus_t err) {
  switch (err) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

Status cublas_status(cublasStatus_t err, const char* expr, const char* file, int line) {
  std::string msg = std::string("cuBLASLt error ") + cublas_status_name(err);
  return {StatusCode::library_error, msg + where(expr, file, line)};
}

}  // namespace detail
}  // namespace graphgemm
