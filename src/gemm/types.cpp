#include "graphgemm/gemm.hpp"
#include "graphgemm/types.hpp"

namespace graphgemm {

const char* to_string(DType t) noexcept {
  switch (t) {
    case DType::bf16: return "bf16";
    case DType::fp16: return "fp16";
    case DType::fp32: return "fp32";
    case DType::int8: return "int8";
    case DType::fp8_e4m3: return "fp8_e4m3";
    case DType::int32: return "int32";
  }
  return "unknown";
}

const char* to_string(Layout l) noexcept {
  return l == Layout::row_major ? "row-major" : "column-major";
}

const char* to_string(Backend b) noexcept {
  switch (b) {
    case Backend::automatic: return "automatic";
    case Backend::cublaslt: return "cublaslt";
    case Backend::sm90: return "sm90";
  }
  return "unknown";
}

const char* to_string(SplitKMode m) noexcept {
  switch (m) {
    case SplitKMode::none: return "none";
    case SplitKMode::serial: return "serial";
    case SplitKMode::parallel: return "parallel";
    case SplitKMode::automatic: return "automatic";
    case SplitKMode::stream_k: return "stream_k";
  }
  return "unknown";
}

const char* to_string(ProgrammaticLaunch p) noexcept {
  switch (p) {
    case ProgrammaticLaunch::automatic: return "automatic";
    case ProgrammaticLaunch::off: return "off";
    case ProgrammaticLaunch::on: return "on";
  }
  return "unknown";
}

const char* to_string(RasterOrder r) noexcept {
  switch (r) {
    case RasterOrder::automatic: return "automatic";
    case RasterOrder::along_m: return "along M";
    case RasterOrder::along_n: return "along N";
  }
  return "unknown";
}

}  // namespace graphgemm
