// Probe (issue 4): where does the tiny workflow's update cost go, and can it leave the GPU's
// critical path? The workflow of bench/graph_bench.cu section 1: per iteration 2 passes x (2 static
// + 2 dynamic <<<1, 1>>> kernels), the dynamic kernels' float changing every iteration, the host
// running ahead (pipelined). graph_bench measures node updates + launch at ~1.05x plain replay,
// and a single changed node already costs most of it: the launch of a graph with changed kernel
// parameters first uploads them, in stream order, before its first kernel.
//
// Ways (each on its own buffer, all checked against launches without a graph):
//   floor       plain replay, no update
//   1 exec      4 x cudaGraphExecKernelNodeSetParams, then cudaGraphLaunch
//   R execs     R executable graphs instantiated from the same graph, used in turn: iteration i
//               updates and launches exec i % R (its previous launch was R iterations ago)
//   R execs + upload
//               the same, with cudaGraphUpload of the updated exec on a second stream before its
//               launch: the upload can run while the previous iteration's exec runs
//   explicit nodes
//               the dynamic kernels added to the capturing graph with cudaGraphAddKernelNode
//               (as graph::KernelNode and the post's combined approach) instead of captured
//               launches, updated and replayed the same way
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -o graph_replica_probe tools/diag/graph_replica_probe.cu
//   ./graph_replica_probe [iters=40000] [rounds=10]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../../bench/tiny_workflow.cuh"
#include "diag_check.cuh"

using namespace tiny_workflow;

// The dynamic kernels' nodes of a graph captured from launch_iteration (or built like it), in
// launch order: the third and fourth of every four.
std::vector<cudaGraphNode_t> dynamic_nodes(cudaGraph_t g) {
  const std::vector<cudaGraphNode_t> chain = captured_chain(g);
  std::vector<cudaGraphNode_t> out;
  for (size_t k = 0; k < chain.size(); ++k)
    if (k % 4 >= 2) out.push_back(chain[k]);
  return out;
}

void set_dynamic(cudaGraphExec_t e, cudaGraphNode_t node, float* buf, int idx, float p) {
  void* args[] = {&buf, &idx, &p};
  const cudaKernelNodeParams kp = dynamic_node_params(args);
  DIAG_CHECK(cudaGraphExecKernelNodeSetParams(e, node, &kp));
}

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 40000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
  cudaStream_t s, side;
  DIAG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  DIAG_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));

  struct Way {
    std::string name;
    float* buf = nullptr;
    cudaGraph_t graph = nullptr;
    std::vector<cudaGraphExec_t> execs;
    std::vector<cudaGraphNode_t> nodes;
    std::function<void(Way&, int)> step;
    bool checked = true;
    double ms = 0;
  };
  std::vector<Way> ways;
  auto new_buf = [&] {
    float* b;
    DIAG_CHECK(cudaMalloc(&b, kSlots * sizeof(float)));
    DIAG_CHECK(cudaMemset(b, 0, kSlots * sizeof(float)));
    return b;
  };
  // explicit: the dynamic kernels added as explicit nodes of the capturing graph
  // (cudaGraphAddKernelNode on the capture's dependencies, as graph::KernelNode and the post's
  // combined approach do) instead of captured launches.
  auto make_graph = [&](Way& w, int replicas, bool explicit_nodes = false) {
    DIAG_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    if (!explicit_nodes) {
      launch_iteration(s, w.buf, param(0));
    } else {
      for (int pass = 0; pass < 2; ++pass) {
        static_kernel<<<1, 1, 0, s>>>(w.buf, 4 * pass + 0);
        static_kernel<<<1, 1, 0, s>>>(w.buf, 4 * pass + 1);
        for (int k = 2; k < 4; ++k) {
          cudaGraphNode_t node = nullptr;
          DIAG_CHECK(add_dynamic_node(s, w.buf, 4 * pass + k, param(0), &node));
        }
      }
    }
    DIAG_CHECK(cudaStreamEndCapture(s, &w.graph));
    w.nodes = dynamic_nodes(w.graph);
    if (w.nodes.size() != 4) {
      std::fprintf(stderr, "expected 4 dynamic nodes, found %zu\n", w.nodes.size());
      std::exit(1);
    }
    for (int r = 0; r < replicas; ++r) {
      cudaGraphExec_t e;
      DIAG_CHECK(cudaGraphInstantiate(&e, w.graph, 0));
      DIAG_CHECK(cudaGraphUpload(e, s));
      w.execs.push_back(e);
    }
  };
  auto update_all = [](Way& w, cudaGraphExec_t e, int i) {
    for (int n = 0; n < 4; ++n) set_dynamic(e, w.nodes[n], w.buf, 4 * (n / 2) + 2 + n % 2, param(i));
  };

  {
    Way w{"no graph"};
    w.buf = new_buf();
    w.step = [&](Way& w, int i) { launch_iteration(s, w.buf, param(i)); };
    ways.push_back(std::move(w));
  }
  {
    Way w{"plain replay, no update (floor)"};
    w.buf = new_buf();
    make_graph(w, 1);
    w.checked = false;
    w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.execs[0], s)); };
    ways.push_back(std::move(w));
  }
  {
    Way w{"1 exec: 4 updates + launch"};
    w.buf = new_buf();
    make_graph(w, 1);
    w.step = [&](Way& w, int i) {
      update_all(w, w.execs[0], i);
      DIAG_CHECK(cudaGraphLaunch(w.execs[0], s));
    };
    ways.push_back(std::move(w));
  }
  {
    Way w{"1 exec, explicit nodes: 4 updates + launch"};
    w.buf = new_buf();
    make_graph(w, 1, true);
    w.step = [&](Way& w, int i) {
      update_all(w, w.execs[0], i);
      DIAG_CHECK(cudaGraphLaunch(w.execs[0], s));
    };
    ways.push_back(std::move(w));
  }
  {
    Way w{"explicit nodes, plain replay (no update)"};
    w.buf = new_buf();
    make_graph(w, 1, true);
    w.checked = false;
    w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.execs[0], s)); };
    ways.push_back(std::move(w));
  }
  for (int replicas : {2, 3}) {
    for (bool upload : {false, true}) {
      Way w{std::to_string(replicas) + " execs in turn" + (upload ? " + upload on a 2nd stream" : "")};
      w.buf = new_buf();
      make_graph(w, replicas);
      w.step = [&, upload](Way& w, int i) {
        cudaGraphExec_t e = w.execs[i % w.execs.size()];
        update_all(w, e, i);
        if (upload) DIAG_CHECK(cudaGraphUpload(e, side));
        DIAG_CHECK(cudaGraphLaunch(e, s));
      };
      ways.push_back(std::move(w));
    }
  }
  {
    Way w{"1 exec + upload on the same stream"};
    w.buf = new_buf();
    make_graph(w, 1);
    w.step = [&](Way& w, int i) {
      update_all(w, w.execs[0], i);
      DIAG_CHECK(cudaGraphUpload(w.execs[0], s));
      DIAG_CHECK(cudaGraphLaunch(w.execs[0], s));
    };
    ways.push_back(std::move(w));
  }

  // Warm-up, then rounds in which the ways take turns; every way runs every iteration once.
  for (Way& w : ways)
    for (int i = 0; i < 200; ++i) w.step(w, i);
  DIAG_CHECK(cudaDeviceSynchronize());
  for (Way& w : ways) DIAG_CHECK(cudaMemset(w.buf, 0, kSlots * sizeof(float)));
  DIAG_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<double>> per_round(ways.size());
  for (int r = 0; r < rounds; ++r) {
    const int first = static_cast<int>(static_cast<long long>(iters) * r / rounds);
    const int count = static_cast<int>(static_cast<long long>(iters) * (r + 1) / rounds) - first;
    for (size_t k = 0; k < ways.size(); ++k) {
      Way& w = ways[k];
      DIAG_CHECK(cudaDeviceSynchronize());
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < count; ++i) w.step(w, first + i);
      DIAG_CHECK(cudaDeviceSynchronize());
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      w.ms += ms;
      per_round[k].push_back(1000.0 * ms / count);
    }
  }
  std::vector<float> ref(kSlots), got(kSlots);
  DIAG_CHECK(cudaMemcpy(ref.data(), ways[0].buf, sizeof(float) * kSlots, cudaMemcpyDeviceToHost));
  double floor_ms = ways[1].ms;
  std::printf("%d iterations, %d rounds (ways taking turns); µs per iteration: total, and the rounds' median [min-max]\n",
              iters, rounds);
  std::printf("%-45s %9s %7s %22s %s\n", "way", "us/iter", "x floor", "rounds median [range]", "result");
  for (size_t k = 0; k < ways.size(); ++k) {
    Way& w = ways[k];
    DIAG_CHECK(cudaMemcpy(got.data(), w.buf, sizeof(float) * kSlots, cudaMemcpyDeviceToHost));
    auto v = per_round[k];
    std::sort(v.begin(), v.end());
    std::printf("%-45s %9.3f %7.3f %8.3f [%.3f-%.3f] %s\n", w.name.c_str(), 1000.0 * w.ms / iters, w.ms / floor_ms,
                v[v.size() / 2], v.front(), v.back(), !w.checked ? "n/a" : (got == ref ? "ok" : "MISMATCH"));
  }
  return 0;
}
