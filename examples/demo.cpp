// graphgemm demo: GEMMs through the plan API, run eagerly, then captured once in a CUDA graph and
// replayed, each result checked against an fp64 reference. Prints a table.
// Then a 4-layer MLP whose batch M, input and scales change every step (bench/mlp_workflow.hpp):
// eagerly, recaptured every step, and captured once with GEMM nodes updated in place; each
// checked bit for bit against eager, with a speedup table.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gpu_support.hpp"
#include "graphgemm/graphgemm.hpp"
#include "mlp_workflow.hpp"

using namespace graphgemm;
using support::GemmOperands;
using support::GemmSpec;

namespace {

struct Row {
  std::string what, backend;
  double eager_err = 0, graph_err = 0;
  bool bitwise = false;
  double eager_us = 0, graph_us = 0;
};

#define DEMO_TRY(expr)                                                      \
  do {                                                                      \
    const Status s_ = (expr);                                               \
    if (!s_.ok()) throw std::runtime_error(#expr ": " + s_.to_string());    \
  } while (0)

Row run_one(const char* what, const GemmSpec& spec, cudaStream_t stream) {
  GemmOperands ops(spec, 2024);
  GemmPlan plan;
  DEMO_TRY(plan.initialize(ops.args()));
  DEMO_TRY(plan.can_implement(ops.args()));
  support::DeviceBuffer ws(plan.workspace_size(ops.args()));
  const Workspace workspace{ws.get(), ws.bytes()};
  Row row{what, plan.describe()};

  cudaEvent_t t0, t1;
  SUPPORT_CUDA(cudaEventCreate(&t0));
  SUPPORT_CUDA(cudaEventCreate(&t1));
  const int iters = 20;

  // Eager.
  ops.poison_output(stream);
  DEMO_TRY(plan.run(ops.args(), workspace, stream));
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  row.eager_err = ops.check().rel_error;
  const auto eager = support::download(ops.args().d);
  SUPPORT_CUDA(cudaEventRecord(t0, stream));
  for (int i = 0; i < iters; ++i) DEMO_TRY(plan.run(ops.args(), workspace, stream));
  SUPPORT_CUDA(cudaEventRecord(t1, stream));
  SUPPORT_CUDA(cudaEventSynchronize(t1));
  float ms = 0;
  SUPPORT_CUDA(cudaEventElapsedTime(&ms, t0, t1));
  row.eager_us = ms * 1000 / iters;

  // Captured once, replayed.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  SUPPORT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < iters; ++i) DEMO_TRY(plan.run(ops.args(), workspace, stream));
  SUPPORT_CUDA(cudaStreamEndCapture(stream, &graph));
  SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  ops.poison_output(stream);
  SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  row.graph_err = ops.check().rel_error;
  row.bitwise = support::download(ops.args().d) == eager;
  SUPPORT_CUDA(cudaEventRecord(t0, stream));
  SUPPORT_CUDA(cudaGraphLaunch(exec, stream));
  SUPPORT_CUDA(cudaEventRecord(t1, stream));
  SUPPORT_CUDA(cudaEventSynchronize(t1));
  SUPPORT_CUDA(cudaEventElapsedTime(&ms, t0, t1));
  row.graph_us = ms * 1000 / iters;
  SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  SUPPORT_CUDA(cudaGraphDestroy(graph));
  SUPPORT_CUDA(cudaEventDestroy(t0));
  SUPPORT_CUDA(cudaEventDestroy(t1));
  return row;
}

// The MLP with a changing batch: eager, recapture-then-update, ours (updated in place), and the
// static replay of the same work as the floor. Returns whether every result matched eager.
bool run_mlp_demo(cudaStream_t stream) {
  using workflow::Mlp;
  workflow::MlpConfig cfg;  // 4 layers, hidden 4096, M in 1..256
  const int steps = 300;
  Mlp mlp(cfg, stream);
  mlp.prepare_plans();
  mlp.record_ours();
  mlp.record_chain();
  const std::vector<std::int64_t> ms = workflow::batch_sizes(steps, cfg.max_m, 5);
  for (std::int64_t m = 1; m <= cfg.max_m; ++m) mlp.static_step(m);
  SUPPORT_CUDA(cudaStreamSynchronize(stream));
  std::printf("\nMLP, 4 layers x %lldx%lld bf16, batch M drawn from 1..%lld every step, new input and per-row scales "
              "every step\n(%s;\n the chain row: %s)\n\n",
              static_cast<long long>(cfg.hidden), static_cast<long long>(cfg.hidden), static_cast<long long>(cfg.max_m),
              mlp.describe().c_str(), mlp.chain_describe().c_str());
  struct Way {
    const char* name;
    std::function<void(int)> step;
  };
  const std::vector<Way> ways = {
      {"eager (plan.run per layer)", [&](int i) { mlp.eager_step(ms[i], i); }},
      {"recaptured every step", [&](int i) { (void)mlp.recapture_step(ms[i], i); }},
      {"updated in place (GEMM nodes)", [&](int i) { mlp.ours_step(ms[i], i); }},
      {"updated in place (one chain node)", [&](int i) { mlp.chain_step(ms[i], i); }},
      {"static replay (floor, no update)", [&](int i) { mlp.static_step(ms[i]); }},
  };
  std::printf("%-34s %-22s %-12s %-12s %-12s\n", "MLP step", "matches eager", "us/step", "vs eager", "vs recapture");
  bool ok = true;
  std::vector<double> us;
  for (std::size_t w = 0; w < ways.size(); ++w) {
    const bool floor = w + 1 == ways.size();
    int same = 0, checked = 0;
    for (int i = 0; i < steps; i += 37) {  // the floor graphs read input 0: compare with that
      mlp.poison_output();
      mlp.eager_step(ms[i], floor ? 0 : i);
      SUPPORT_CUDA(cudaStreamSynchronize(stream));
      const auto want = mlp.output(ms[i]);
      mlp.poison_output();
      ways[w].step(i);
      SUPPORT_CUDA(cudaStreamSynchronize(stream));
      same += mlp.output(ms[i]) == want;
      ++checked;
    }
    ok = ok && same == checked;
    us.push_back(workflow::time_steps(stream, steps, 10, /*sync=*/true, ways[w].step));
    char match[64];
    std::snprintf(match, sizeof match, "%d/%d bitwise", same, checked);
    char vs_recapture[16] = "-";
    if (w >= 1) std::snprintf(vs_recapture, sizeof vs_recapture, "%.2f", us[1] / us.back());
    std::printf("%-34s %-22s %-12.1f %-12.2f %-12s%s\n", ways[w].name, match, us.back(), us[0] / us.back(), vs_recapture,
                same == checked ? "" : "  <-- FAILED");
  }
  std::printf("\n(us/step: host wall clock per step, synchronized every step like a decode loop; speedups are x faster)\n");
  return ok;
}

}  // namespace

int main() {
  std::string why;
  if (!support::has_cuda_device(&why)) {
    std::printf("graphgemm demo: no CUDA device (%s).\nThe demo runs GEMMs on an NVIDIA GPU (Hopper for graphgemm's own "
                "kernels); nothing was run.\n", why.c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  SUPPORT_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("graphgemm demo on %s (sm_%d%d, %d SMs)\n\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);

  struct Case { const char* what; GemmSpec spec; };
  std::vector<Case> cases;
  {
    GemmSpec s{16, 4096, 4096};  // a decode step of a 4096-wide linear layer, with bias
    s.with_bias = true;
    cases.push_back({"linear bf16 M=16 +bias", s});
    GemmSpec r{1024, 6144, 4096};  // prefill, residual added through beta·C
    r.with_c = true;
    r.beta = 1.0f;
    cases.push_back({"linear bf16 M=1024 +C", r});
    cases.push_back({"gemm fp16->fp32 999x777x555", GemmSpec{999, 777, 555, DType::fp16, DType::fp32}});
    cases.push_back({"int8 -> int32 256x4096x4096", GemmSpec{256, 4096, 4096, DType::int8, DType::int32}});
  }

  cudaStream_t stream;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bool ok = true;
  std::printf("%-30s %-10s %-10s %-8s %-10s %-10s  %s\n", "GEMM", "eager err", "graph err", "bitwise", "eager us",
              "graph us", "plan");
  try {
    for (const Case& c : cases) {
      const Row r = run_one(c.what, c.spec, stream);
      const double tol = GemmOperands::tolerance(c.spec.in, c.spec.out);
      const bool pass = r.eager_err <= tol && r.graph_err <= tol && r.bitwise;
      ok = ok && pass;
      std::printf("%-30s %-10.2e %-10.2e %-8s %-10.2f %-10.2f  %s%s\n", r.what.c_str(), r.eager_err, r.graph_err,
                  r.bitwise ? "yes" : "NO", r.eager_us, r.graph_us, r.backend.c_str(), pass ? "" : "  <-- FAILED");
    }
  } catch (const std::exception& e) {
    std::printf("demo failed: %s\n", e.what());
    ok = false;
  }
  if (prop.major == 9 && prop.minor == 0) {
    try {
      const bool mlp_ok = run_mlp_demo(stream);
      ok = ok && mlp_ok;
    } catch (const std::exception& e) {
      std::printf("MLP demo failed: %s\n", e.what());
      ok = false;
    }
  } else {
    std::printf("\nMLP with GEMM nodes updated in place: skipped (needs graphgemm's sm90 kernels, a Hopper GPU)\n");
  }
  SUPPORT_CUDA(cudaStreamDestroy(stream));
  std::printf("\n%s\n", ok ? "all results match the fp64 reference; graph replays match eager runs bit for bit"
                            : "FAILED: see the rows marked above");
  return ok ? 0 : 1;
}
