#pragma once
// Builds a plan for a spec, runs it once on poisoned output, and checks it against fp64.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.hpp"

namespace graphgemm::testing {

// The name of the sm90 instance for spec's input and output types and a tile suffix, e.g.
// sm90_kernel_name(spec, "128x176x64_s5_c1x1_bk") = "sm90_f16_f32_128x176x64_s5_c1x1_bk".
inline std::string sm90_kernel_name(const support::GemmSpec& spec, const std::string& tile) {
  return std::string("sm90_") + (spec.in == DType::fp16 ? "f16_" : "bf16_") +
         (spec.out == DType::fp32 ? "f32_" : spec.out == DType::fp16 ? "f16_" : "bf16_") + tile;
}

// The name suffix of the sm90 instances for a B layout: "_bk" (B stored N x K, col_major) or "_bn".
inline const char* b_layout_suffix(Layout b_layout) { return b_layout == Layout::col_major ? "_bk" : "_bn"; }

// Whether a tile (a name suffix such as "128x176x64_s5_c1x1") has B stored N x K only: the tiles
// whose width is not a multiple of 64 (a K-major B box of BN rows; an N-major one is 64 columns).
inline bool b_k_major_only(const std::string& tile) {
  return tile.rfind("128x176", 0) == 0 || tile.rfind("128x136", 0) == 0 || tile.rfind("128x112", 0) == 0 ||
         tile.rfind("128x96", 0) == 0 || tile.rfind("128x144", 0) == 0 || tile.rfind("128x80", 0) == 0;
}

// Epilogue variant v of the split-K and tile sweeps: 0 plain, 1 bias, 2 scale_a, scale_b and
// alpha, 3 beta * C and bias.
inline void set_epilogue_variant(support::GemmSpec& spec, int v) {
  if (v == 1) spec.with_bias = true;
  if (v == 2) { spec.scale_a = 2; spec.scale_b = 2; spec.alpha = 0.5f; }
  if (v == 3) { spec.with_c = true; spec.beta = -0.75f; spec.with_bias = true; }
}

// The forced-kernel tests' epilogue from a seed: bias on even seeds, per-row scale_a on every third,
// per-column scale_b on two of five, beta * C (beta 0.5) where seed % 4 == 1.
inline void set_seeded_epilogue(support::GemmSpec& spec, std::uint64_t seed) {
  spec.with_bias = seed % 2 == 0;
  spec.scale_a = seed % 3 == 0 ? 2 : 0;
  spec.scale_b = seed % 5 < 2 ? 2 : 0;
  spec.with_c = seed % 4 == 1;
  spec.beta = spec.with_c ? 0.5f : 0.0f;
}

// A sweep case from its seed: inputs fp16 for every third seed (output fp16), else bf16 (output
// bf16), fp32 output for every fifth; epilogue variant seed % 4; 16-byte leading dimensions.
inline support::GemmSpec seeded_spec(std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed) {
  support::GemmSpec spec{m, n, k, seed % 3 == 0 ? DType::fp16 : DType::bf16, DType::bf16};
  if (seed % 5 == 0) spec.out = DType::fp32;
  else if (spec.in == DType::fp16) spec.out = DType::fp16;
  spec.ld_multiple = 8;
  set_epilogue_variant(spec, static_cast<int>(seed % 4));
  return spec;
}

// `prepare`, if given, may change the operands' arguments before the run (the reference follows).
inline void check_case(const support::GemmSpec& spec, const GemmOptions& options, std::uint64_t seed,
                       const std::function<void(support::GemmOperands&)>& prepare = nullptr) {
  SCOPED_TRACE(spec.to_string());
  support::GemmOperands ops(spec, seed);
  if (prepare) prepare(ops);
  GemmPlan plan;
  const Status init = plan.initialize(ops.args(), options);
  ASSERT_TRUE(init.ok()) << init.to_string();
  ASSERT_EQ(plan.backend(), options.backend == Backend::automatic ? plan.backend() : options.backend);
  const Status can = plan.can_implement(ops.args());
  ASSERT_TRUE(can.ok()) << can.to_string();
  support::DeviceBuffer ws(plan.workspace_size(ops.args()));
  ops.poison_output();
  const Status run = plan.run(ops.args(), {ws.get(), ws.bytes()}, nullptr);
  ASSERT_TRUE(run.ok()) << run.to_string();
  const support::Comparison cmp = ops.check();
  EXPECT_EQ(cmp.non_finite, 0) << "unwritten or non-finite output elements; " << plan.describe();
  EXPECT_EQ(cmp.outside_writes, 0) << "bytes written outside D's M x N elements; " << plan.describe();
  if (spec.out == DType::int32) {
    EXPECT_EQ(cmp.mismatches, 0) << "int32 results must be exact; max error " << cmp.max_abs_error;
  } else {
    EXPECT_LT(cmp.rel_error, support::GemmOperands::tolerance(spec.in, spec.out)) << plan.describe();
  }
}

// Replays `exec` `times` times on `stream`, D poisoned before each, and expects D's bytes to equal
// `expected` (an eager run's) after every one.
inline void expect_replays_equal(cudaGraphExec_t exec, support::GemmOperands& ops, cudaStream_t stream,
                                 const std::vector<unsigned char>& expected, int times = 3) {
  for (int replay = 0; replay < times; ++replay) {
    ops.poison_output(stream);
    SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
    SUPPORT_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(support::download(ops.args().d), expected) << "replay " << replay << " differs from the eager run";
  }
}

// A captured graph, destroyed with its owner (also when an ASSERT leaves the test early).
using GraphPtr = std::unique_ptr<CUgraph_st, decltype(&cudaGraphDestroy)>;

// Captures what `enqueue(stream)` issues on `stream` (capture mode `mode`) into `graph` (the
// returned Status is enqueue's). Capturing executes nothing: outputs change only when the graph
// is launched.
template <class Enqueue>
inline Status capture_graph(cudaStream_t stream, cudaStreamCaptureMode mode, Enqueue&& enqueue, GraphPtr& graph) {
  cudaGraph_t g = nullptr;
  SUPPORT_CUDA(cudaStreamBeginCapture(stream, mode));
  const Status s = enqueue(stream);
  SUPPORT_CUDA(cudaStreamEndCapture(stream, &g));
  graph = GraphPtr(g, &cudaGraphDestroy);
  return s;
}

// capture_graph(), instantiated into `exec` (valid when the returned Status is ok).
template <class Enqueue>
inline Status capture(cudaStream_t stream, cudaStreamCaptureMode mode, Enqueue&& enqueue, cudaGraphExec_t& exec) {
  GraphPtr graph(nullptr, &cudaGraphDestroy);
  const Status s = capture_graph(stream, mode, std::forward<Enqueue>(enqueue), graph);
  if (s.ok()) SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph.get(), 0));
  return s;
}

// capture() of one plan.run(args).
inline Status capture_run(const GemmPlan& plan, const GemmArgs& args, Workspace workspace, cudaStream_t stream,
                          cudaStreamCaptureMode mode, cudaGraphExec_t& exec) {
  return capture(stream, mode, [&](cudaStream_t s) { return plan.run(args, workspace, s); }, exec);
}

inline void check_case(const support::GemmSpec& spec, Backend backend, std::uint64_t seed) {
  GemmOptions options;
  options.backend = backend;
  check_case(spec, options, seed);
}

// A bf16 reference (raw bytes) that serial launches wrote read no poison and no unwritten input:
// every element finite (exponent not all ones), and random products are almost never exactly zero.
inline void expect_filled_bf16(const std::vector<unsigned char>& bytes) {
  std::size_t non_finite = 0, zeros = 0;
  for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
    const unsigned short v = static_cast<unsigned short>(bytes[i] | (bytes[i + 1] << 8));
    non_finite += (v & 0x7f80u) == 0x7f80u;
    zeros += (v & 0x7fffu) == 0;
  }
  EXPECT_EQ(non_finite, 0u);
  EXPECT_LT(zeros, bytes.size() / 2 / 100) << "more than 1% exact zeros: inputs not filled?";
}

}  // namespace graphgemm::testing
