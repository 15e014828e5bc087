#pragma once
// GEMM chains: L GEMMs where each layer reads the previous layer's output, in ONE launch on sm90
// (an MLP's linear layers, a decode step's projections):
//
//   x_{l+1} = alpha_l * (x_l · W_lᵀ) ⊙ scale_a_l[row] + bias_l      l = 0 .. L-1,  x_0 = x,  y = x_L
//
// Layer l+1's tiles of a block of rows start as soon as layer l has stored those rows (no kernel
// boundary between layers); the activations x_1 .. x_{L-1} live in the workspace. In a CUDA graph
// the chain is two kernel nodes (graph::record_chain): a one-CTA setup node with the layers'
// fixed parameters and the chain node with what a step changes (M, x, y, scales, alpha: ~400
// bytes), so a step updates ONE small parameter block instead of L GEMM nodes' (docs/sm90_notes.md,
// "Session 29": the driver's update cost grows with the parameter bytes).
//
//   std::vector<ChainLayer> layers = {{MatrixView::transposed_weight(w0, DType::bf16, N0, K0), bias0}, ...};
//   GemmChain chain;
//   chain.initialize({x_view, y_view, layers}, {.max_m = 256});
//   DeviceBuffer ws(chain.workspace_size());
//   chain.run({x_view, y_view, layers}, {ws, chain.workspace_size()}, stream);
//
// Requirements: Hopper (sm_90); x, y and every weight bf16 (or every one fp16); x and y row-major
// (K and N contiguous), each W_l stored N_l x K_l row-major (the PyTorch weight, given as
// MatrixView::transposed_weight); K_{l+1} = N_l; every N_l and K_l a multiple of 8; 16-byte
// aligned pointers and leading dimensions; 1 to 8 layers.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graphgemm/gemm.hpp"
#include "graphgemm/status.hpp"
#include "graphgemm/types.hpp"

namespace graphgemm {

inline constexpr int kMaxChainLayers = 8;

struct ChainLayer {
  MatrixView w;                       // B = W_lᵀ: MatrixView::transposed_weight(W_l, dtype, N_l, K_l)
  std::optional<VectorView> bias;     // N_l entries: bf16, fp16 or fp32
  std::optional<VectorView> scale_a;  // M fp32 entries: row i of the layer's output times scale_a[i]
  float alpha = 1.0f;
};

struct ChainArgs {
  MatrixView x;                       // M x K_0, row-major
  MatrixView y;                       // M x N_{L-1}, row-major, x's dtype
  std::span<const ChainLayer> layers;  // not owned: the caller's storage, read during the call only
  [[nodiscard]] std::int64_t m() const noexcept { return x.rows; }
};

struct ChainOptions {
  // The most rows any run (or graph update) of the chain has: it sizes the workspace and fixes
  // the grid. 0: the M of the problem given to initialize().
  std::int64_t max_m = 0;
  // Run this tile configuration instead of the heuristic's (a name GemmChain::describe() prints,
  // e.g. "sm90_bf16_bf16_64x64x64_s13_c1x1_bk", or a two-tile kernel's,
  // "sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk": the first tile while its tiles fit the
  // second's grid in one wave, the second above). For benchmarking.
  std::string sm90_kernel;
  // on: the setup kernel may start while the kernel before it finishes (programmatic dependent
  // launch; the chain kernel always follows the setup kernel that way).
  bool programmatic_launch = false;
};

namespace detail {
struct ChainAccess;  // the graph layer's way to the launch arguments (src/gemm/chain_internal.hpp)
}

class GemmChain {
 public:
  // Builds the chain for `problem` (its pointers are not read) on the current device: checks
  // every shape, dtype, layout and alignment the kernel needs, and picks the tile.
  [[nodiscard]] Status initialize(const ChainArgs& problem, const ChainOptions& options = {});

  // Whether `args` fit this chain: the same layers (count, widths, dtypes, layouts), M in
  // 1..max_m (0: nothing to do), pointers and leading dimensions the kernel can use.
  [[nodiscard]] Status can_implement(const ChainArgs& args) const;

  // Device workspace run() needs (the layers' table, per-layer counters, the activations
  // x_1..x_{L-1} at max_m rows). 0 for an uninitialized chain.
  [[nodiscard]] std::size_t workspace_size() const noexcept { return workspace_bytes_; }

  // Validates, then enqueues the chain on `stream`: the setup kernel and the chain kernel. M = 0
  // enqueues nothing. Capture-safe (no allocation, no synchronization).
  [[nodiscard]] Status run(const ChainArgs& args, Workspace workspace, cudaStream_t stream) const;

  [[nodiscard]] bool initialized() const noexcept { return kernel_ >= 0; }
  [[nodiscard]] std::int64_t max_m() const noexcept { return max_m_; }
  [[nodiscard]] int layers() const noexcept { return static_cast<int>(n_.size()); }
  // e.g. "sm90 chain: 4 layers 512 -> 512 -> 512 -> 512 -> 512, kernel sm90_bf16_bf16_64x64x64_s13_c1x1_bk,
  // 132 CTAs (32 tiles a layer at max_m 256), workspace 1052160 B"
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] int device() const noexcept { return device_; }
  // The tile configuration a run with M rows uses (a GemmPlan kernel name: GemmOptions::sm90_kernel
  // runs a layer alone on the same tile, bit for bit the same); "" for an uninitialized chain.
  // A two-tile chain (describe() says "two tiles") changes tile at one M, fixed at initialize.
  [[nodiscard]] std::string kernel_for(std::int64_t m) const;

 private:
  friend struct detail::ChainAccess;
  int kernel_ = -1;
  int device_ = -1;
  int num_sms_ = 0;
  DType dtype_ = DType::bf16;
  std::int64_t max_m_ = 0;
  std::int64_t small_max_m_ = 0;  // two-tile kernels: M <= small_max_m_ runs the small-M tile
  std::int64_t k0_ = 0;
  std::vector<int> n_;  // N_l
  bool programmatic_ = false;
  std::size_t workspace_bytes_ = 0;
  std::string description_;
};

}  // namespace graphgemm
