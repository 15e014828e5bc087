#pragma once
// The host GEMM API: a problem, options, and the plan that every backend implements.
//
//   D = alpha · (A · B) ⊙ (scale_a ⊗ scale_b) + bias + beta · C
//
// A is M x K, B is K x N, C and D are M x N (row-major). bias has one entry per column of D;
// scale_a one per row of A (or one for the whole tensor), scale_b one per column of B (or one).
//
// The contract (the one users need under CUDA graphs):
//   GemmPlan plan;  plan.initialize(problem, options)   // once: backend and algorithm choice,
//                                                       // function attributes, descriptors
//   plan.can_implement(args)                            // any time: is `args` runnable by this plan?
//   plan.workspace_size(args)                           // bytes of device workspace `run` needs
//   plan.run(args, workspace, stream)                   // one step: validates, then enqueues
// `run` never allocates, never synchronizes and calls nothing that is illegal under stream
// capture (global, thread-local or relaxed mode). If it returns an error, nothing was enqueued and
// nothing was written.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "graphgemm/status.hpp"
#include "graphgemm/types.hpp"

namespace graphgemm {

struct GemmArgs {
  MatrixView a;                      // M x K
  MatrixView b;                      // K x N (MatrixView::transposed_weight for an N x K weight)
  std::optional<MatrixView> c;       // M x N, row-major, D's dtype; read only when present
  MatrixView d;                      // M x N, row-major: the output (its memory is written)
  std::optional<VectorView> bias;    // N entries, D's dtype (or fp32 for fp32 output)
  std::optional<VectorView> scale_a; // fp32, M entries (per row) or 1 (per tensor)
  std::optional<VectorView> scale_b; // fp32, N entries (per column) or 1 (per tensor)
  float alpha = 1.0f;
  float beta = 0.0f;                 // needs c when non-zero

  [[nodiscard]] std::int64_t m() const noexcept { return a.rows; }
  [[nodiscard]] std::int64_t n() const noexcept { return b.cols; }
  [[nodiscard]] std::int64_t k() const noexcept { return a.cols; }
};

enum class Backend : std::uint8_t {
  automatic,  // graphgemm's own kernels where they implement the problem on this GPU, else cuBLASLt
  cublaslt,   // NVIDIA cuBLASLt: the reference peer and the fallback on GPUs that are not Hopper
  sm90,       // graphgemm's own Hopper kernels (TMA + WGMMA)
};
[[nodiscard]] const char* to_string(Backend b) noexcept;

// Split-K: cut the K loop of every output tile into slices that run on different SMs, for
// skinny, K-heavy problems (few output tiles, long K) that would otherwise leave SMs idle.
enum class SplitKMode : std::uint8_t {
  none,       // one slice: each tile's whole K on one SM
  serial,     // slices add into one fp32 tile in the workspace in slice order, guarded by a
              // per-tile semaphore: bitwise deterministic run to run
  parallel,   // each slice writes its own fp32 partial tile; all SMs then sum them in slice order
              // and apply the epilogue: also bitwise deterministic, more workspace, no serial chain
  automatic,  // the backend decides (sm90: a cost model from the shape and the SM count;
              // cuBLASLt: its own heuristic)
  stream_k,   // sm90, cooperative kernels (with or without clusters): whole tiles in the whole
              // waves, then the last, partial wave's k-blocks shared equally by the SMs (a
              // cluster's CTAs share one range); a tile split between SMs is finished by the SM
              // holding its first k-block, which adds the others' fp32 partials in a fixed order
              // (deterministic). For tile counts that fill the SMs badly; split_k_slices must be 0
              // (the SM count decides). `automatic` takes it where that pays (see the README)
};
[[nodiscard]] const char* to_string(SplitKMode m) noexcept;

// sm90: programmatic dependent launch (PDL). The kernel is launched with programmatic stream
// serialization, so it may be scheduled while the previous kernel in the stream is finishing: it
// sets up, pulls the first k-blocks of B into L2, then waits (griddepcontrol.wait) for that kernel
// to complete before any other global memory access, so results are the same either way; once it
// has issued its last load it lets the next kernel be scheduled the same way. A split-K launch
// through a workspace begins with a 1-CTA kernel zeroing the workspace's counters: that kernel
// takes the programmatic launch (it waits for the previous kernel before it writes), and the GEMM
// kernel follows it programmatically whatever this option says. graph::record_gemm nodes of such
// a plan take programmatic edges from the kernel nodes they follow.
enum class ProgrammaticLaunch : std::uint8_t {
  automatic,  // on where the grid leaves a quarter of the SMs idle or M spans at most two tiles,
              // never for split-K slices summed in clusters: measured on H100, such launches gain
              // up to 12% (llm M <= 256) while full grids of more M tiles lose up to 10% (M = 256
              // with K >= 4096, 1024^3: their main loops run slower) and cluster sums up to 20%
  off,
  on,
};
[[nodiscard]] const char* to_string(ProgrammaticLaunch p) noexcept;

// sm90: the order in which the persistent CTAs take the output tiles, for reuse of A and B in L2.
// along_m: G = GemmOptions::sm90_raster_group consecutive tiles go down M in one column of tiles
// (they share that column's tile of B), then the next column; the G rows of tiles sweep all of N
// (their rows of A stay in L2) before the next G rows start. along_n: the same with M and N
// swapped.
enum class RasterOrder : std::uint8_t {
  automatic,  // the backend decides (today: along M, groups of 8)
  along_m,
  along_n,
};
[[nodiscard]] const char* to_string(RasterOrder r) noexcept;

struct GemmOptions {
  Backend backend = Backend::automatic;
  // Upper bound on the device workspace a backend may ask for (cuBLASLt's algorithm choice
  // depends on it). 32 MiB is what NVIDIA recommends for Hopper.
  std::size_t max_workspace_bytes = std::size_t{32} << 20;
  // sm90 only: run this kernel instance instead of the heuristic's choice (a name as printed by
  // GemmPlan::describe(), e.g. "sm90_bf16_bf16_128x256x64_s4_c2x1_bk", or a ping-pong one,
  // "sm90_bf16_bf16_128x128x64_s6_c2x1_pp_bk", which has no split-K: an explicit split request
  // with it is invalid_argument, automatic runs it unsplit). For benchmarking.
  std::string sm90_kernel;
  // Split-K. split_k_slices: 0 = chosen by the backend's heuristic; >= 1 = exactly that many
  // slices (at most one per 64 elements of K on sm90). With split_k_mode automatic and slices > 1
  // the backend picks the mode; with none, slices must be 0 or 1. Explicit serial / parallel are
  // honoured exactly by the sm90 backend (cuBLASLt reports not_supported). The workspace the split
  // needs is part of workspace_size(); run() zeroes what must be zeroed, on its stream.
  SplitKMode split_k_mode = SplitKMode::automatic;
  int split_k_slices = 0;
  // sm90, parallel split-K: how many CTAs of a thread-block cluster sum their consecutive slices
  // through distributed shared memory before anything goes through the workspace. 0: the backend
  // decides (with the slice count); 1: never (every slice's fp32 partial goes through the
  // workspace); 2, 4 or 8: exactly that, with explicit slices a multiple of it (a cluster-1x1
  // kernel with tiles 64 or 128 wide, and the clusters all co-resident, else invalid_argument
  // saying why). When it equals the slice count the split needs no workspace and no zeroing kernel.
  // Deterministic either way (fixed summation order). The swap-AB kernels (decode-sized M, "_sw_")
  // split only that way: slices = cluster = 2 or 4 (8 with 128 weight rows); automatic splits one
  // in two where its grid leaves room and K is long (describe() says so).
  int split_k_cluster = 0;
  // sm90: programmatic dependent launch (see ProgrammaticLaunch; describe() says whether it is on).
  ProgrammaticLaunch programmatic_launch = ProgrammaticLaunch::automatic;
  // sm90: tile order (see RasterOrder) and group size, 0 = the backend decides, else 1 .. 65536
  // tiles (clusters of tiles for clustered kernels). Changes speed only, never results.
  RasterOrder sm90_raster_order = RasterOrder::automatic;
  int sm90_raster_group = 0;
};

struct Workspace {
  void* data = nullptr;
  std::size_t size = 0;
};

namespace detail {
class GemmBackend;
struct PlanAccess;  // lets the graph layer (src/graph) reach the plan's backend
}

class GemmPlan {
 public:
  GemmPlan() noexcept;
  ~GemmPlan();
  GemmPlan(GemmPlan&&) noexcept;
  GemmPlan& operator=(GemmPlan&&) noexcept;
  GemmPlan(const GemmPlan&) = delete;
  GemmPlan& operator=(const GemmPlan&) = delete;

  // Builds the plan for `problem` on the current CUDA device. The pointers in `problem` are not
  // read (they may be null); shapes, dtypes, layouts, leading dimensions and which optional
  // operands are present are what the plan is for.
  [[nodiscard]] Status initialize(const GemmArgs& problem, const GemmOptions& options = {});

  // Whether `args` can run through this plan: the same problem (shapes, dtypes, layouts,
  // optional operands) with valid pointers. The message says what differs.
  [[nodiscard]] Status can_implement(const GemmArgs& args) const;

  // Device workspace, in bytes, that `run(args, ...)` needs. 0 for an uninitialized plan.
  [[nodiscard]] std::size_t workspace_size(const GemmArgs& args) const;

  // Validates `args`, `workspace` and `stream`, then enqueues the GEMM on `stream`. A stream of
  // another device is reported on eager runs; under capture CUDA offers no legal way to ask, and
  // the launch itself fails.
  [[nodiscard]] Status run(const GemmArgs& args, Workspace workspace, cudaStream_t stream) const;

  [[nodiscard]] bool initialized() const noexcept { return backend_ != nullptr; }
  [[nodiscard]] Backend backend() const noexcept;
  // What was chosen, e.g. "cublaslt: algo 6 tile 128x256 stages ..., workspace 4194304 B".
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] int device() const noexcept { return device_; }

 private:
  std::unique_ptr<detail::GemmBackend> backend_;
  int device_ = -1;
  std::string fallback_reason_;  // why Backend::automatic did not pick our own kernels
  friend struct detail::PlanAccess;
};

}  // namespace graphgemm
