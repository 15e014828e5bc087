// GEMM chains (graphgemm/chain.hpp): validation, the tile choice and the launch.
#include "graphgemm/chain.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "common/cuda_check.hpp"
#include "gemm/chain_internal.hpp"
#include "gemm/validate.hpp"
#include "graphgemm/kernels/sm90/sm90_gemm_types.hpp"

namespace graphgemm {
namespace {

namespace k = graphgemm::kernels::sm90;
static_assert(kMaxChainLayers == k::kMaxChainLayers);

Status invalid(std::string msg) { return {StatusCode::invalid_argument, "GEMM chain: " + std::move(msg)}; }

std::string str(std::int64_t v) { return std::to_string(v); }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Shape, dtype and layout checks that do not depend on a plan (initialize and run share them).
Status check_shapes(const ChainArgs& a) {
  const std::size_t layers = a.layers.size();
  if (layers < 1 || layers > static_cast<std::size_t>(kMaxChainLayers))
    return invalid("has " + str(static_cast<std::int64_t>(layers)) + " layers; give 1 to " + str(kMaxChainLayers) +
                   " (split a longer chain in two)");
  const DType dt = a.x.dtype;
  if (dt != DType::bf16 && dt != DType::fp16)
    return invalid(std::string("x is ") + to_string(dt) + "; chains run bf16 or fp16 (x, y and every weight alike)");
  if (a.x.layout != Layout::row_major) return invalid("x must be row-major (M x K_0, K_0 contiguous)");
  if (a.y.layout != Layout::row_major) return invalid("y must be row-major (M x N, N contiguous)");
  if (a.y.dtype != dt)
    return invalid(std::string("y is ") + to_string(a.y.dtype) + " but x is " + to_string(dt) +
                   "; a chain's output has its input's dtype");
  if (a.y.rows != a.x.rows)
    return invalid("x has " + str(a.x.rows) + " rows but y has " + str(a.y.rows) + "; both must have M rows");
  if (a.x.rows < 0 || a.x.rows > INT32_MAX) return invalid("M = " + str(a.x.rows) + " must be in 0..2^31-1");
  std::int64_t k = a.x.cols;
  for (std::size_t l = 0; l < layers; ++l) {
    const ChainLayer& L = a.layers[l];
    auto at = [l] { return "layer " + str(static_cast<std::int64_t>(l)) + ": "; };  // (built on errors only)
    if (L.w.dtype != dt)
      return invalid(at() + "the weight is " + to_string(L.w.dtype) + " but x is " + to_string(dt) +
                     "; every weight must have x's dtype");
    if (L.w.layout != Layout::col_major)
      return invalid(at() + "the weight must be stored N x K row-major (the PyTorch layout): pass "
                          "MatrixView::transposed_weight(w, dtype, N, K)");
    if (L.w.rows != k)
      return invalid(at() + "the weight has K = " + str(L.w.rows) + " but its input has " + str(k) +
                     " columns (x's, or the layer before's N)");
    const std::int64_t n = L.w.cols;
    if (n < 8 || n > INT32_MAX || n % 8 != 0 || k < 8 || k % 8 != 0)
      return invalid(at() + "N = " + str(n) + ", K = " + str(k) +
                     "; every N and K of a chain must be a positive multiple of 8 (whole 16-byte rows, for TMA)");
    if (L.w.leading_dim() < k || (L.w.leading_dim() * 2) % 16 != 0)
      return invalid(at() + "the weight's leading dimension " + str(L.w.leading_dim()) +
                     " must be >= K and a multiple of 8 elements (16 bytes)");
    if (L.bias) {
      if (L.bias->size != n) return invalid(at() + "the bias has " + str(L.bias->size) + " entries; it needs N = " + str(n));
      if (L.bias->dtype != DType::bf16 && L.bias->dtype != DType::fp16 && L.bias->dtype != DType::fp32)
        return invalid(at() + std::string("the bias is ") + to_string(L.bias->dtype) + "; give bf16, fp16 or fp32");
    }
    if (L.scale_a) {
      if (L.scale_a->dtype != DType::fp32)
        return invalid(at() + std::string("scale_a is ") + to_string(L.scale_a->dtype) + "; it must be fp32");
      if (L.scale_a->size != a.x.rows)
        return invalid(at() + "scale_a has " + str(L.scale_a->size) + " entries; it needs one per row (M = " +
                       str(a.x.rows) + ")");
    }
    k = n;
  }
  if (a.y.cols != k)
    return invalid("y has " + str(a.y.cols) + " columns but the last layer's N is " + str(k));
  return {};
}

}  // namespace

Status GemmChain::initialize(const ChainArgs& problem, const ChainOptions& options) {
  kernel_ = -1;
  GRAPHGEMM_TRY(check_shapes(problem));
  if (options.max_m < 0) return invalid("ChainOptions::max_m is " + str(options.max_m) + "; give >= 0 (0: the problem's M)");
  const std::int64_t max_m = options.max_m > 0 ? options.max_m : problem.m();
  if (max_m < 1) return invalid("max_m is 0: give ChainOptions::max_m, the most rows a run will have");
  if (max_m > INT32_MAX) return invalid("max_m = " + str(max_m) + " must be below 2^31");
  if (problem.m() > max_m) return invalid("M = " + str(problem.m()) + " is larger than max_m = " + str(max_m));

  int device = 0, major = 0, minor = 0, sms = 0;
  GRAPHGEMM_CUDA_TRY(cudaGetDevice(&device));
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  GRAPHGEMM_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (major != 9 || minor != 0)
    return {StatusCode::not_supported, "GEMM chain: needs a Hopper GPU (compute capability 9.0); this device is sm_" +
                                           str(major * 10 + minor) + ": run the layers with GemmPlan instead"};

  std::vector<int> n;
  for (const ChainLayer& L : problem.layers) n.push_back(static_cast<int>(L.w.cols));
  const int layers = static_cast<int>(n.size());
  const detail::sm90::DTypeIn want = problem.x.dtype == DType::fp16 ? detail::sm90::DTypeIn::fp16 : detail::sm90::DTypeIn::bf16;
  int chosen = -1;
  std::string why;
  if (!options.sm90_kernel.empty()) {
    chosen = detail::sm90::find_chain_kernel(options.sm90_kernel.c_str());
    if (chosen < 0 || detail::sm90::chain_kernel_info(chosen).dtype != want) {
      std::string names;
      for (int i = 0; i < detail::sm90::chain_kernel_count(); ++i)
        if (detail::sm90::chain_kernel_info(i).dtype == want) names += std::string(names.empty() ? "" : ", ") + detail::sm90::chain_kernel_info(i).name;
      return invalid("no chain kernel \"" + options.sm90_kernel + "\" for " + to_string(problem.x.dtype) + "; the chain kernels are " + names);
    }
    why = "forced";
  } else {
    // The tile with the most tiles a layer (the widest) that still fits one wave of CTAs; where none
    // fits, the largest. Decode-sized chains are bound by the weights' bandwidth: more CTAs stream
    // more of them at once, and a second wave only waits.
    int best_tiles = 0;
    for (int i = 0; i < detail::sm90::chain_kernel_count(); ++i) {
      const detail::sm90::ChainKernelInfo& ki = detail::sm90::chain_kernel_info(i);
      if (ki.dtype != want || ki.small_block_n != 0) continue;
      int tiles = 0;
      for (int w : n)
        tiles = std::max(tiles, static_cast<int>((max_m + ki.block_m - 1) / ki.block_m * ((w + ki.block_n - 1) / ki.block_n)));
      const bool fits = tiles <= sms;
      const bool better = chosen < 0 || (fits && (best_tiles > sms || tiles > best_tiles)) ||
                          (!fits && best_tiles > sms && ki.block_m * ki.block_n >
                                                            detail::sm90::chain_kernel_info(chosen).block_m *
                                                                detail::sm90::chain_kernel_info(chosen).block_n);
      if (better) chosen = i, best_tiles = tiles;
    }
    why = str(best_tiles) + " tiles in the widest layer at max_m " + str(max_m) + (best_tiles <= sms ? ": one wave" : ": more than one wave");
    // The same rule M by M: where a narrower tile fits the grid in one wave at smaller M (its
    // tiles' count grows with M), the two-tile kernel runs it there and the chosen tile above.
    const char* large = detail::sm90::chain_kernel_info(chosen).name;
    for (int i = 0; i < detail::sm90::chain_kernel_count(); ++i) {
      const detail::sm90::ChainKernelInfo& ki = detail::sm90::chain_kernel_info(i);
      if (ki.dtype != want || ki.small_block_n == 0 || std::string(ki.large_name) != large) continue;
      const int small_m = detail::sm90::chain_small_max_m(i, static_cast<int>(max_m), layers, n.data(), sms);
      if (small_m < 1 || small_m >= max_m) continue;
      why = "two tiles: " + std::string(ki.small_name) + " at M <= " + str(small_m) + " (one wave), " + large +
            " above (" + why + ")";
      chosen = i;
      break;
    }
  }
  GRAPHGEMM_CUDA_TRY(detail::sm90::chain_initialize(chosen, device));

  kernel_ = chosen;
  device_ = device;
  num_sms_ = sms;
  dtype_ = problem.x.dtype;
  max_m_ = max_m;
  k0_ = problem.x.cols;
  n_ = n;
  programmatic_ = options.programmatic_launch;
  small_max_m_ = detail::sm90::chain_small_max_m(chosen, static_cast<int>(max_m), layers, n.data(), sms);
  workspace_bytes_ = detail::sm90::chain_workspace_bytes(chosen, static_cast<int>(max_m), layers, n.data());
  std::string widths = str(k0_);
  for (int w : n) widths += " -> " + str(w);
  description_ = "sm90 chain: " + str(layers) + " layer" + (layers > 1 ? "s " : " ") + widths + ", kernel " +
                 detail::sm90::chain_kernel_info(chosen).name + " (" + why + "), " +
                 str(detail::sm90::chain_grid(chosen, static_cast<int>(max_m), layers, n.data(), sms)) + " CTAs, workspace " +
                 str(static_cast<std::int64_t>(workspace_bytes_)) + " B" + (programmatic_ ? ", programmatic launch" : "");
  return {};
}

Status GemmChain::can_implement(const ChainArgs& a) const {
  if (!initialized()) return invalid("the chain is not initialized: call initialize(problem) first");
  GRAPHGEMM_TRY(check_shapes(a));
  if (a.x.dtype != dtype_)
    return invalid(std::string("x is ") + to_string(a.x.dtype) + " but the chain was built for " + to_string(dtype_));
  if (static_cast<int>(a.layers.size()) != layers())
    return invalid("has " + str(static_cast<std::int64_t>(a.layers.size())) + " layers but the chain was built for " +
                   str(layers()) + "; build another GemmChain for another chain");
  if (a.x.cols != k0_) return invalid("x has " + str(a.x.cols) + " columns but the chain was built for K_0 = " + str(k0_));
  for (int l = 0; l < layers(); ++l)
    if (a.layers[l].w.cols != n_[l])
      return invalid("layer " + str(l) + " has N = " + str(a.layers[l].w.cols) + " but the chain was built for " + str(n_[l]));
  if (a.m() > max_m_)
    return invalid("M = " + str(a.m()) + " is larger than max_m = " + str(max_m_) +
                   ", declared at initialize; build the chain with ChainOptions{.max_m = " + str(a.m()) + "} or more");
  if (a.m() == 0) return {};
  if (a.x.data == nullptr || a.y.data == nullptr) return invalid("x or y is a null pointer");
  if (!aligned16(a.x.data) || !aligned16(a.y.data) || (a.x.leading_dim() * 2) % 16 != 0 ||
      (a.y.leading_dim() * 2) % 16 != 0 || a.x.leading_dim() < a.x.cols || a.y.leading_dim() < a.y.cols)
    return invalid("x and y need 16-byte aligned data and leading dimensions (multiples of 8 elements, >= their columns)");
  for (int l = 0; l < layers(); ++l) {
    const ChainLayer& L = a.layers[l];
    if (L.w.data == nullptr || !aligned16(L.w.data))
      return invalid("layer " + str(l) + ": the weight must be a non-null, 16-byte aligned pointer");
    if ((L.bias && L.bias->data == nullptr) || (L.scale_a && L.scale_a->data == nullptr))
      return invalid("layer " + str(l) + ": a bias or scale_a given with a null pointer (leave it out instead)");
  }
  return {};
}

Status detail::ChainAccess::make_launch(const GemmChain& c, const ChainArgs& a, Workspace ws,
                                        sm90::ChainLaunchStorage& out, bool step_only) {
  GRAPHGEMM_TRY(c.can_implement(a));
  if (a.m() < 1) return invalid("M = 0: there is nothing to launch");
  if (ws.size < c.workspace_bytes_)
    return invalid("the workspace has " + str(static_cast<std::int64_t>(ws.size)) + " bytes but the chain needs " +
                   str(static_cast<std::int64_t>(c.workspace_bytes_)) + " (chain.workspace_size()); allocate it once, before capture");
  if (ws.data == nullptr) return invalid("the workspace pointer is null; the chain needs " + str(static_cast<std::int64_t>(c.workspace_bytes_)) + " bytes");
  if (reinterpret_cast<std::uintptr_t>(ws.data) % detail::kWorkspaceAlignment != 0)
    return invalid("the workspace must be " + str(detail::kWorkspaceAlignment) + "-byte aligned (cudaMalloc memory is)");
  k::ChainProblem p;
  p.m = static_cast<int>(a.m());
  p.max_m = static_cast<int>(c.max_m_);
  p.x = a.x.data;
  p.ldx = a.x.leading_dim();
  p.y = const_cast<void*>(a.y.data);
  p.ldy = a.y.leading_dim();
  p.layers = c.layers();
  for (int l = 0; l < p.layers; ++l) {
    const ChainLayer& L = a.layers[l];
    k::ChainLayerArgs& q = p.layer[l];
    q.w = L.w.data;
    q.ldw = L.w.leading_dim();
    q.n = c.n_[l];
    q.k = static_cast<int>(L.w.rows);
    if (L.bias) {
      q.bias = L.bias->data;
      q.bias_type = L.bias->dtype == DType::bf16 ? k::BiasType::bf16 : L.bias->dtype == DType::fp16 ? k::BiasType::fp16 : k::BiasType::fp32;
    }
    q.scale_a = L.scale_a ? static_cast<const float*>(L.scale_a->data) : nullptr;
    q.alpha = L.alpha;
  }
  p.workspace = ws.data;
  p.workspace_bytes = ws.size;
  p.programmatic = c.programmatic_;
  p.step_only = step_only;
  const cudaError_t err = sm90::chain_make_launch_args(c.kernel_, p, c.num_sms_, out);
  if (err != cudaSuccess)
    return {StatusCode::internal, std::string("GEMM chain: the launch arguments could not be made (") + cudaGetErrorString(err) +
                                      ") for arguments that passed validation"};
  return {};
}

Status GemmChain::run(const ChainArgs& args, Workspace workspace, cudaStream_t stream) const {
  if (args.m() == 0) {  // nothing to launch
    GRAPHGEMM_TRY(can_implement(args));
    return detail::check_stream_device(stream, device_, "chain");
  }
  detail::sm90::ChainLaunchStorage la;
  GRAPHGEMM_TRY(detail::ChainAccess::make_launch(*this, args, workspace, la));  // validates everything
  GRAPHGEMM_TRY(detail::check_stream_device(stream, device_, "chain"));
  GRAPHGEMM_CUDA_TRY(detail::sm90::chain_launch(kernel_, la, stream));
  return {};
}

std::string GemmChain::describe() const { return initialized() ? description_ : "uninitialized chain"; }

std::string GemmChain::kernel_for(std::int64_t m) const {
  if (!initialized()) return "";
  const detail::sm90::ChainKernelInfo& ki = detail::sm90::chain_kernel_info(kernel_);
  return m <= small_max_m_ ? ki.small_name : ki.large_name;
}

}  // namespace graphgemm
