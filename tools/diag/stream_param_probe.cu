// Probe (issue 4): a changing scalar that the graph's kernels read from device memory, written in
// stream order just before each launch, against node updates. The tiny workflow of
// bench/graph_bench.cu section 1 (per iteration 2 passes x (2 static + 2 dynamic <<<1, 1>>>
// kernels), a float changing every iteration, the host running ahead) sits at 1.04-1.07x plain
// replay with node updates, and session 20's probes put the cost on the GPU: a launch whose kernel
// parameters changed uploads them before its first kernel. Here the graph never changes: the
// dynamic kernels read the float through a pointer to a slot in device memory, and the host writes
// the slot before each launch with a stream memory operation (cuStreamWriteValue32: the stream's
// front end writes the value; no kernel, no copy engine).
//
// Ways (each on its own buffer, every checked way compared with launches without a graph):
//   floor                 plain replay of the by-value graph, no update
//   floor (slot kernels)  plain replay of the graph whose dynamic kernels read the slot, no write
//   4 node updates        cudaGraphExecKernelNodeSetParams x 4, then cudaGraphLaunch (graph::KernelNode)
//   write value           cuStreamWriteValue32(slot, bits of p), then cudaGraphLaunch
//   memcpy from pinned    cudaMemcpyAsync of 4 bytes from a pinned ring, then cudaGraphLaunch
//   mem-op node           the write as the graph's first node (cuGraphAddBatchMemOpNode), its value
//                         updated with cuGraphExecBatchMemOpNodeSetParams before each launch
//
// Mode "same": four executable graphs (dynamic kernels captured or explicit nodes, uploaded after
// instantiation or not), each replayed plainly and with 4 node updates on its own buffer (the
// update's cost alone, placement equal).
// Mode "execs": B executable graphs of the floor captured on one buffer, then B on B buffers 64 KB
// apart: is it the exec or the buffer that moves the time?
// Placement mode (third argument "placement"): the floor and the 4-node-update way, each on B
// buffers of its own (separate cudaMalloc calls, allocated in turn), to see whether the buffer's
// address alone moves the per-iteration time of these one-thread kernels.
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -o stream_param_probe tools/diag/stream_param_probe.cu -lcuda
//   ./stream_param_probe [iters=40000] [rounds=10] [placement|execs|same [B=4]]
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../bench/tiny_workflow.cuh"
#include "diag_check.cuh"

using namespace tiny_workflow;

#define DIAG_CU(x)                                                                  \
  do {                                                                              \
    CUresult r_ = (x);                                                              \
    if (r_ != CUDA_SUCCESS) {                                                       \
      const char* s_ = nullptr;                                                     \
      cuGetErrorString(r_, &s_);                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?"); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

// dynamic_kernel with its float read from device memory.
__global__ void slot_kernel(float* buf, int idx, const float* p) { buf[idx] = buf[idx] * 0.5f + *p; }

void launch_iteration_slot(cudaStream_t s, float* buf, const float* slot) {
  for (int pass = 0; pass < 2; ++pass) {
    static_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 0);
    static_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 1);
    slot_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 2, slot);
    slot_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 3, slot);
  }
}

std::vector<cudaGraphNode_t> dynamic_nodes(cudaGraph_t g) {
  const std::vector<cudaGraphNode_t> chain = captured_chain(g);
  std::vector<cudaGraphNode_t> out;
  for (size_t k = 0; k < chain.size(); ++k)
    if (k % 4 >= 2) out.push_back(chain[k]);
  return out;
}

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 40000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
  const bool placement = argc > 3 && std::string(argv[3]) == "placement";
  const bool same_buffer = argc > 3 && std::string(argv[3]) == "execs";
  const bool same_exec = argc > 3 && std::string(argv[3]) == "same";
  // PROBE_MEMSET: each turn starts with a cudaMemsetAsync of its buffer (as graph_bench's turns);
  // PROBE_RECAPTURE (mode "same"): graph_bench's recapture-then-update approach among the ways.
  const bool memset_turns = std::getenv("PROBE_MEMSET") != nullptr;
  const int nbuf = argc > 4 ? std::atoi(argv[4]) : 4;
  DIAG_CHECK(cudaFree(nullptr));
  cudaStream_t s;
  DIAG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  struct Way {
    std::string name;
    float* buf = nullptr;
    float* slot = nullptr;
    cudaGraphExec_t exec = nullptr;
    std::vector<cudaGraphNode_t> nodes;
    CUgraphNode memop = nullptr;
    std::function<void(Way&, int)> step;
    bool checked = true;
    double ms = 0;
  };
  std::vector<Way> ways;
  auto new_way = [&](const char* name) {
    Way w{name};
    DIAG_CHECK(cudaMalloc(&w.buf, kSlots * sizeof(float)));
    DIAG_CHECK(cudaMemset(w.buf, 0, kSlots * sizeof(float)));
    DIAG_CHECK(cudaMalloc(&w.slot, sizeof(float)));
    DIAG_CHECK(cudaMemset(w.slot, 0, sizeof(float)));
    return w;
  };
  auto instantiate = [&](Way& w, cudaGraph_t g) {
    DIAG_CHECK(cudaGraphInstantiate(&w.exec, g, 0));
    DIAG_CHECK(cudaGraphUpload(w.exec, s));
  };
  auto capture_by_value = [&](Way& w) {
    cudaGraph_t g;
    DIAG_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    launch_iteration(s, w.buf, param(0));
    DIAG_CHECK(cudaStreamEndCapture(s, &g));
    w.nodes = dynamic_nodes(g);
    instantiate(w, g);
  };
  auto capture_slot = [&](Way& w) {
    cudaGraph_t g;
    DIAG_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    launch_iteration_slot(s, w.buf, w.slot);
    DIAG_CHECK(cudaStreamEndCapture(s, &g));
    instantiate(w, g);
  };
  auto bits = [](int i) { return std::bit_cast<std::uint32_t>(param(i)); };

  {
    Way w = new_way("no graph");
    w.step = [&](Way& w, int i) { launch_iteration(s, w.buf, param(i)); };
    ways.push_back(std::move(w));
  }
  // Iteration i's 4 updates of the way's dynamic kernel nodes through the runtime's
  // cudaGraphExecKernelNodeSetParams; updated_step launches the graph after them.
  auto runtime_updates = [](Way& w, int i) {
    float p = param(i);
    for (int n = 0; n < 4; ++n) {
      int idx = 4 * (n / 2) + 2 + n % 2;
      void* args[] = {&w.buf, &idx, &p};
      const cudaKernelNodeParams kp = dynamic_node_params(args);
      DIAG_CHECK(cudaGraphExecKernelNodeSetParams(w.exec, w.nodes[n], &kp));
    }
  };
  auto updated_step = [&](Way& w, int i) {
    runtime_updates(w, i);
    DIAG_CHECK(cudaGraphLaunch(w.exec, s));
  };
  if (same_exec) {
    // Pairs of ways sharing one exec and its buffer: plain replay, and 4 updates + launch (results
    // not checked: the pair shares its buffer). The graph's dynamic kernels captured launches or
    // explicit nodes (cudaGraphAddKernelNode on the capture's dependencies, as graph::KernelNode and
    // the post's combined approach), the exec uploaded after instantiation or not.
    if (std::getenv("PROBE_RECAPTURE") != nullptr) {
      // graph_bench's recapture-then-update approach beside them (its own buffer).
      Way w = new_way("recapture-then-update");
      w.step = [&](Way& w, int i) {
        cudaGraph_t g = nullptr;
        DIAG_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        launch_iteration(s, w.buf, param(i));
        DIAG_CHECK(cudaStreamEndCapture(s, &g));
        cudaGraphExecUpdateResultInfo info{};
        if (w.exec == nullptr || cudaGraphExecUpdate(w.exec, g, &info) != cudaSuccess) {
          (void)cudaGetLastError();
          if (w.exec != nullptr) DIAG_CHECK(cudaGraphExecDestroy(w.exec));
          DIAG_CHECK(cudaGraphInstantiate(&w.exec, g, 0));
        }
        DIAG_CHECK(cudaGraphDestroy(g));
        DIAG_CHECK(cudaGraphLaunch(w.exec, s));
      };
      ways.push_back(std::move(w));
    }
    // PROBE_SHARED: every graph on one buffer (as graph_bench's approaches).
    float* shared = std::getenv("PROBE_SHARED") != nullptr ? new_way("").buf : nullptr;
    // Kinds 4 / 5: explicit nodes updated through the driver's cuGraphExecKernelNodeSetParams with
    // the function as a CUfunction (cudaGetFuncBySymbol: what graph::KernelNode passed until session
    // 36) or as the CUkernel (cudaGetKernel); kinds 0-3 use the runtime's call with the host stub.
    static cudaFunction_t fn = nullptr;
    static cudaKernel_t kern = nullptr;
    DIAG_CHECK(cudaGetFuncBySymbol(&fn, reinterpret_cast<const void*>(dynamic_kernel)));
    DIAG_CHECK(cudaGetKernel(&kern, reinterpret_cast<const void*>(dynamic_kernel)));
    for (int kind = 0; kind < 6; ++kind) {
      const bool explicit_nodes = kind >= 2, upload = kind < 4 && kind % 2 == 0;
      Way w = new_way("");
      if (shared != nullptr) w.buf = shared;
      cudaGraph_t g;
      DIAG_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      for (int pass = 0; pass < 2; ++pass) {
        static_kernel<<<1, 1, 0, s>>>(w.buf, 4 * pass + 0);
        static_kernel<<<1, 1, 0, s>>>(w.buf, 4 * pass + 1);
        for (int k = 2; k < 4; ++k) {
          if (explicit_nodes) {
            cudaGraphNode_t node = nullptr;
            DIAG_CHECK(add_dynamic_node(s, w.buf, 4 * pass + k, param(0), &node));
          } else {
            dynamic_kernel<<<1, 1, 0, s>>>(w.buf, 4 * pass + k, param(0));
          }
        }
      }
      DIAG_CHECK(cudaStreamEndCapture(s, &g));
      w.nodes = dynamic_nodes(g);
      DIAG_CHECK(cudaGraphInstantiate(&w.exec, g, 0));
      if (upload) DIAG_CHECK(cudaGraphUpload(w.exec, s));
      w.checked = false;
      const std::string what = std::string(explicit_nodes ? "explicit" : "captured") + (upload ? ", uploaded" : "") +
                               (kind == 4 ? ", driver CUfunction" : kind == 5 ? ", driver CUkernel" : "");
      w.name = what + ": plain replay";
      Way u = w;
      u.name = what + ": 4 updates + launch";
      w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.exec, s)); };
      u.step = updated_step;
      if (kind >= 4) {
        const bool as_kernel = kind == 5;
        u.step = [&, as_kernel](Way& w, int i) {
          float p = param(i);
          for (int n = 0; n < 4; ++n) {
            int idx = 4 * (n / 2) + 2 + n % 2;
            void* args[] = {&w.buf, &idx, &p};
            CUDA_KERNEL_NODE_PARAMS kp{};
            if (as_kernel) kp.kern = reinterpret_cast<CUkernel>(kern);
            else kp.func = reinterpret_cast<CUfunction>(fn);
            kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
            kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
            kp.kernelParams = args;
            DIAG_CU(cuGraphExecKernelNodeSetParams(reinterpret_cast<CUgraphExec>(w.exec),
                                                   reinterpret_cast<CUgraphNode>(w.nodes[n]), &kp));
          }
          DIAG_CHECK(cudaGraphLaunch(w.exec, s));
        };
      }
      Way h = u;
      ways.push_back(std::move(w));
      ways.push_back(std::move(u));
      if (kind == 5 && std::getenv("PROBE_NOLAUNCH") != nullptr) {
        // graph_bench's host-cost probe: the last exec's 4 updates with no launch, in its own turns.
        h.name = what + ": 4 updates, no launch";
        h.step = runtime_updates;
        ways.push_back(std::move(h));
      }
    }
  }
  if (same_buffer) {
    // B executable graphs captured on one buffer (the exec alone differs), then B graphs on B
    // buffers 64 KB apart (the buffer differs too).
    Way first = new_way("");
    for (int b = 0; b < 2 * nbuf; ++b) {
      Way w = new_way("");
      if (b < nbuf) {
        DIAG_CHECK(cudaFree(w.buf));
        w.buf = first.buf;
      } else {
        DIAG_CHECK(cudaFree(w.buf));
        DIAG_CHECK(cudaMalloc(&w.buf, 65536));
        DIAG_CHECK(cudaMemset(w.buf, 0, 65536));
      }
      char name[96];
      std::snprintf(name, sizeof name, "floor, exec %d, buffer %p", b, static_cast<void*>(w.buf));
      w.name = name;
      capture_by_value(w);
      w.checked = false;
      w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.exec, s)); };
      ways.push_back(std::move(w));
    }
  }
  if (placement) {
    for (int b = 0; b < nbuf; ++b) {
      for (int kind = 0; kind < 2; ++kind) {
        Way w = new_way("");
        char name[96];
        std::snprintf(name, sizeof name, "%s, buffer %d (%p)", kind == 0 ? "floor" : "4 updates", b,
                      static_cast<void*>(w.buf));
        w.name = name;
        capture_by_value(w);
        w.checked = kind == 1;
        if (kind == 0) w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.exec, s)); };
        else w.step = updated_step;
        ways.push_back(std::move(w));
      }
    }
  }
  if (!placement && !same_buffer && !same_exec) {
    Way w = new_way("plain replay, no update (floor)");
    capture_by_value(w);
    w.checked = false;
    w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.exec, s)); };
    ways.push_back(std::move(w));
  }
  if (!placement && !same_buffer && !same_exec) {
    Way w = new_way("slot kernels, plain replay, no write");
    capture_slot(w);
    w.checked = false;
    w.step = [&](Way& w, int) { DIAG_CHECK(cudaGraphLaunch(w.exec, s)); };
    ways.push_back(std::move(w));
  }
  if (!placement && !same_buffer && !same_exec) {
    Way w = new_way("4 node updates + launch");
    capture_by_value(w);
    w.step = updated_step;
    ways.push_back(std::move(w));
  }
  if (!placement && !same_buffer && !same_exec) {
    // (CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER is not supported by the v2 API the header maps to.)
    Way w = new_way("write value + launch");
    capture_slot(w);
    w.step = [&, bits](Way& w, int i) {
      DIAG_CU(cuStreamWriteValue32(reinterpret_cast<CUstream>(s), reinterpret_cast<CUdeviceptr>(w.slot), bits(i),
                                   CU_STREAM_WRITE_VALUE_DEFAULT));
      DIAG_CHECK(cudaGraphLaunch(w.exec, s));
    };
    ways.push_back(std::move(w));
  }
  // A pinned ring deep enough that the host never overwrites a value a pending copy still reads
  // (the host runs at most a few hundred iterations ahead: the launch queue's depth).
  constexpr int kRing = 4096;
  float* ring = nullptr;
  DIAG_CHECK(cudaMallocHost(&ring, kRing * sizeof(float)));
  if (!placement && !same_buffer && !same_exec) {
    Way w = new_way("memcpy 4 B from pinned + launch");
    capture_slot(w);
    w.step = [&, ring](Way& w, int i) {
      float* src = ring + i % kRing;
      *src = param(i);
      DIAG_CHECK(cudaMemcpyAsync(w.slot, src, sizeof(float), cudaMemcpyHostToDevice, s));
      DIAG_CHECK(cudaGraphLaunch(w.exec, s));
    };
    ways.push_back(std::move(w));
  }
  if (!placement && !same_buffer && !same_exec) {
    Way w = new_way("mem-op node updated + launch");
    // The graph: a write-value node, then the captured slot kernels after it.
    cudaGraph_t g;
    DIAG_CHECK(cudaGraphCreate(&g, 0));
    CUstreamBatchMemOpParams op{};
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = reinterpret_cast<CUdeviceptr>(w.slot);
    op.writeValue.value = bits(0);
    op.writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
    CUDA_BATCH_MEM_OP_NODE_PARAMS np{};
    CUcontext ctx;
    DIAG_CU(cuCtxGetCurrent(&ctx));
    np.ctx = ctx;
    np.count = 1;
    np.paramArray = &op;
    np.flags = 0;
    DIAG_CU(cuGraphAddBatchMemOpNode(&w.memop, reinterpret_cast<CUgraph>(g), nullptr, 0, &np));
    cudaGraphNode_t head = reinterpret_cast<cudaGraphNode_t>(w.memop);
    DIAG_CHECK(cudaStreamBeginCaptureToGraph(s, g, &head, nullptr, 1, cudaStreamCaptureModeThreadLocal));
    launch_iteration_slot(s, w.buf, w.slot);
    DIAG_CHECK(cudaStreamEndCapture(s, &g));
    instantiate(w, g);
    w.step = [&, bits, ctx](Way& w, int i) {
      CUstreamBatchMemOpParams o{};
      o.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
      o.writeValue.address = reinterpret_cast<CUdeviceptr>(w.slot);
      o.writeValue.value = bits(i);
      o.writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
      CUDA_BATCH_MEM_OP_NODE_PARAMS p{};
      p.ctx = ctx;
      p.count = 1;
      p.paramArray = &o;
      DIAG_CU(cuGraphExecBatchMemOpNodeSetParams(reinterpret_cast<CUgraphExec>(w.exec), w.memop, &p));
      DIAG_CHECK(cudaGraphLaunch(w.exec, s));
    };
    ways.push_back(std::move(w));
  }

  // Warm-up, then rounds in which the ways take turns (the order rotating); every way runs every
  // iteration once.
  for (Way& w : ways)
    for (int i = 0; i < 200; ++i) w.step(w, i);
  DIAG_CHECK(cudaDeviceSynchronize());
  for (Way& w : ways) DIAG_CHECK(cudaMemset(w.buf, 0, kSlots * sizeof(float)));
  DIAG_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<double>> per_round(ways.size());
  // PROBE_SHUFFLE: each round's turn order a random permutation (seeded), instead of a rotation
  // (which gives every way the same predecessor in every round but one).
  const bool shuffle = std::getenv("PROBE_SHUFFLE") != nullptr;
  std::mt19937 rng(12345);
  for (int r = 0; r < rounds; ++r) {
    const int first = static_cast<int>(static_cast<long long>(iters) * r / rounds);
    const int count = static_cast<int>(static_cast<long long>(iters) * (r + 1) / rounds) - first;
    std::vector<size_t> order(ways.size());
    for (size_t j = 0; j < ways.size(); ++j) order[j] = (j + r) % ways.size();
    if (shuffle) std::shuffle(order.begin(), order.end(), rng);
    for (size_t j = 0; j < ways.size(); ++j) {
      const size_t k = order[j];
      Way& w = ways[k];
      if (memset_turns) DIAG_CHECK(cudaMemsetAsync(w.buf, 0, kSlots * sizeof(float), s));
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
  const double floor_ms = ways[1].ms;
  std::printf("%d iterations, %d rounds (ways taking turns, order %s); µs per iteration: total, and the rounds' median [min-max]\n",
              iters, rounds, shuffle ? "shuffled" : "rotating");
  std::printf("%-40s %9s %7s %22s %s\n", "way", "us/iter", "x floor", "rounds median [range]", "result");
  for (size_t k = 0; k < ways.size(); ++k) {
    Way& w = ways[k];
    DIAG_CHECK(cudaMemcpy(got.data(), w.buf, sizeof(float) * kSlots, cudaMemcpyDeviceToHost));
    auto v = per_round[k];
    std::sort(v.begin(), v.end());
    std::printf("%-40s %9.3f %7.3f %8.3f [%.3f-%.3f] %s\n", w.name.c_str(), 1000.0 * w.ms / iters, w.ms / floor_ms,
                v[v.size() / 2], v.front(), v.back(), !w.checked ? "n/a" : (got == ref ? "ok" : "MISMATCH"));
  }
  return 0;
}
