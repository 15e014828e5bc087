// graphgemm_host_bench: host cost of one GemmPlan::run call on a tiny GEMM (16 x 64 x 64 bf16),
// where the GPU work is far shorter than the host's: wall time per call over many
// un-synchronized calls is what the host spends. Cases:
//   same buffers     : every call with the same operands (a model layer run again and again)
//   16 buffer sets   : the operands rotate among 16 sets (more than run() remembers: every call
//                      encodes its tensor maps)
//   empty kernel     : an empty <<<1, 1>>> launch, the floor of any launch
//   node updates     : graph::KernelNode::update of a one-float kernel and of a kernel taking a
//                      GEMM node's parameter size (the CUDA call alone), graph::GemmNode::update
//                      with the same / rotating operands (no launch), and the pieces of a GEMM
//                      node update that changes M (the MLP workflow's decode step: 256 x 512 x 512,
//                      per-row scales and a bias, M drawn from 1..256): cuTensorMapEncodeTiled
//                      alone, the update in a tight loop, and 4 updates per synchronized step
//                      (update, update, update, update, launch, wait), timed around the updates
// Backends sm90 and cublaslt, one process, medians of 7 repeats.
//
//   graphgemm_host_bench [--out DIR] [--calls N]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graphgemm/graph/graph.hpp"
#include "graphgemm/graphgemm.hpp"
#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"
#include "gpu_support.hpp"

namespace {

using namespace graphgemm;

__global__ void empty_kernel() {}
__global__ void one_float(float x) { (void)x; }
// A GEMM node's parameter block is three tensor maps (3 x 128 bytes) and ~200 bytes of scalars.
struct alignas(64) ParamBlock640 {
  unsigned char bytes[640];
};
__global__ void param_block(const __grid_constant__ ParamBlock640 p) { (void)p; }

// Stops the bench with what failed (setup is done; a failure here is a defect to report).
void require(const Status& st, const char* what) {
  if (!st.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", what, st.to_string().c_str());
    std::exit(1);
  }
}

double median_us_per_call(cudaStream_t s, int calls, const std::function<void(int)>& body) {
  for (int i = 0; i < 200; ++i) body(i);
  SUPPORT_CUDA(cudaStreamSynchronize(s));
  std::vector<double> samples;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) body(i);
    const auto t1 = std::chrono::steady_clock::now();
    SUPPORT_CUDA(cudaStreamSynchronize(s));
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir;
  int calls = 5000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
    else if (a == "--calls" && i + 1 < argc) calls = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: graphgemm_host_bench [--out DIR] [--calls N]\n");
      return 2;
    }
  }
  std::string why;
  if (!support::has_cuda_device(&why)) {
    std::printf("graphgemm_host_bench: no CUDA device (%s); nothing was run.\n", why.c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  SUPPORT_CUDA(cudaGetDeviceProperties(&prop, 0));
  cudaStream_t s;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  constexpr int kSets = 16;
  support::GemmSpec spec{16, 64, 64};
  std::vector<std::unique_ptr<support::GemmOperands>> sets;
  for (int i = 0; i < kSets; ++i) sets.push_back(std::make_unique<support::GemmOperands>(spec, 10 + i));

  struct Row {
    std::string name;
    double us;
  };
  std::vector<Row> rows;
  rows.push_back({"empty kernel <<<1, 1>>>", median_us_per_call(s, calls, [&](int) { empty_kernel<<<1, 1, 0, s>>>(); })});
  for (Backend backend : {Backend::sm90, Backend::cublaslt}) {
    GemmPlan plan;
    GemmOptions options;
    options.backend = backend;
    const Status init = plan.initialize(sets[0]->args(), options);
    if (!init.ok()) {
      std::printf("%s: %s\n", to_string(backend), init.to_string().c_str());
      continue;
    }
    support::DeviceBuffer ws(plan.workspace_size(sets[0]->args()));
    const Workspace w{ws.get(), ws.bytes()};
    auto run = [&](const GemmArgs& args) { require(plan.run(args, w, s), "run"); };
    const std::string b = to_string(backend);
    rows.push_back({"GemmPlan::run " + b + ", same buffers", median_us_per_call(s, calls, [&](int) { run(sets[0]->args()); })});
    rows.push_back({"GemmPlan::run " + b + ", 16 buffer sets",
                    median_us_per_call(s, calls, [&](int i) { run(sets[i % kSets]->args()); })});
  }

  // Graph node updates (no launch): what each cudaGraphExecKernelNodeSetParams costs the host with
  // a 4-byte parameter block, and what a GEMM node's update adds (checks, tensor maps).
  {
    support::DeviceBuffer scratch(64);
    graph::Capture cap;
    graph::KernelNode<float> tiny(one_float);
    graph::GemmNode node;
    GemmPlan plan;
    GemmOptions options;
    options.backend = Backend::sm90;
    options.split_k_mode = SplitKMode::none;
    graph::GraphExec exec;
    const bool ok = plan.initialize(sets[0]->args(), options).ok() && cap.begin(s).ok() &&
                    tiny.record(s, {}, 1.0f).ok() && graph::record_gemm(plan, sets[0]->args(), {}, s, node).ok() &&
                    cap.end().ok() && exec.instantiate(cap).ok();
    if (!ok) {
      std::fprintf(stderr, "graph node setup failed\n");
      return 1;
    }
    rows.push_back({"KernelNode::update (one float parameter)",
                    median_us_per_call(s, calls, [&](int i) { require(tiny.update(exec, static_cast<float>(i)), "update"); })});
    rows.push_back({"GemmNode::update, same arguments",
                    median_us_per_call(s, calls, [&](int) { require(node.update(exec, sets[0]->args()), "update"); })});
    rows.push_back({"GemmNode::update, 16 buffer sets",
                    median_us_per_call(s, calls, [&](int i) { require(node.update(exec, sets[i % kSets]->args()), "update"); })});
  }

  // A kernel node with a GEMM node's parameter size: what the driver's update costs for 640 bytes.
  {
    graph::Capture cap;
    graph::KernelNode<ParamBlock640> node(param_block);
    graph::GraphExec exec;
    ParamBlock640 block{};
    if (!(cap.begin(s).ok() && node.record(s, {}, block).ok() && cap.end().ok() && exec.instantiate(cap).ok())) {
      std::fprintf(stderr, "graph node setup failed\n");
      return 1;
    }
    rows.push_back({"KernelNode::update (640-byte parameter)", median_us_per_call(s, calls, [&](int i) {
                      block.bytes[i % 640] = static_cast<unsigned char>(i);
                      require(node.update(exec, block), "update");
                    })});
  }

  // The pieces of a GEMM node update that changes M, as the MLP workflow's decode step does.
  {
    const support::GemmSpec mlp{256, 512, 512, DType::bf16, DType::bf16, Layout::row_major, Layout::col_major,
                                0, 1, false, /*with_bias=*/true, /*scale_a=*/2};
    support::GemmOperands ops(mlp, 7);
    const void* a = ops.args().a.data;
    // The library's own encode (an A map of the 64x128 tile), as make_launch_args calls it.
    rows.push_back({"cuTensorMapEncodeTiled (one bf16 2-D map)", median_us_per_call(s, calls, [&](int i) {
                      CUtensorMap map;
                      const cudaError_t err = kernels::sm90::detail::encode_tma_2d(
                          &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, 512, 1 + i % 256, 1024, 64, 128);
                      if (err != cudaSuccess)
                        std::exit((std::fprintf(stderr, "encode failed: %s\n", cudaGetErrorName(err)), 1));
                    })});
    GemmPlan plan;
    GemmOptions options;
    options.backend = Backend::sm90;
    options.split_k_mode = SplitKMode::none;
    constexpr int kLayers = 4;
    graph::Capture cap;
    graph::GemmNode nodes[kLayers];
    graph::GraphExec exec;
    bool ok = plan.initialize(ops.args(), options).ok() && cap.begin(s).ok();
    for (int l = 0; l < kLayers && ok; ++l) ok = graph::record_gemm(plan, ops.args(), {}, s, nodes[l], {256}).ok();
    ok = ok && cap.end().ok() && exec.instantiate(cap).ok();
    if (!ok) {
      std::fprintf(stderr, "GEMM node setup failed\n");
      return 1;
    }
    auto rows_of = [&](int i) {
      GemmArgs args = ops.args();
      const std::int64_t m = 1 + (i * 97) % 256;
      args.a.rows = m;
      args.d.rows = m;
      args.scale_a->size = m;
      return args;
    };
    auto update = [&](int l, int i) { require(nodes[l].update(exec, rows_of(i)), "update"); };
    rows.push_back({"GemmNode::update, M changing every call",
                    median_us_per_call(s, calls, [&](int i) { update(i % kLayers, i); })});
    // Synchronized steps: 4 updates, the launch, the wait; the updates timed alone.
    std::vector<double> samples;
    for (int r = 0; r < 7; ++r) {
      double total = 0;
      const int steps = std::max(calls / 10, 50);
      for (int i = -20; i < steps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int l = 0; l < kLayers; ++l) update(l, i + 20 + l);
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 0) total += std::chrono::duration<double, std::micro>(t1 - t0).count();
        require(exec.launch(s), "launch");
        SUPPORT_CUDA(cudaStreamSynchronize(s));
      }
      samples.push_back(total / (steps * kLayers));
    }
    std::sort(samples.begin(), samples.end());
    rows.push_back({"GemmNode::update, M changing, 4 per synchronized step", samples[samples.size() / 2]});
  }

  std::printf("host cost per call, 16x64x64 bf16 (the rows after the 640-byte one: a 256x512x512 MLP layer), %s "
              "(%d un-synchronized calls, median of 7)\n", prop.name, calls);
  for (const Row& r : rows) std::printf("  %-45s %7.2f us\n", r.name.c_str(), r.us);
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    std::ofstream json(out_dir + "/host_overhead.json");
    json << "{\n  \"device\": \"" << prop.name << "\",\n  \"shape\": [16, 64, 64],\n  \"mlp_rows_shape\": [256, 512, 512],"
         << "\n  \"calls\": " << calls
         << ",\n  \"method\": \"median over 7 repeats of wall time / calls un-synchronized calls\",\n  \"us\": {";
    for (std::size_t i = 0; i < rows.size(); ++i)
      json << (i ? "," : "") << "\n    \"" << rows[i].name << "\": " << rows[i].us;
    json << "\n  }\n}\n";
  }
  SUPPORT_CUDA(cudaStreamDestroy(s));
  return 0;
}
