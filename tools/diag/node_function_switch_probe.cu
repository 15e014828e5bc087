// Probe (issue 4, docs/sm90_notes.md "Session 30: next"): can an instantiated graph's kernel node
// switch to another kernel function on update (cudaGraphExecKernelNodeSetParams with a changed
// func), and what does that cost a synchronized step, against an update that keeps the function?
// A chain that takes the 64x64 tile at M <= 128 and the 64x128 one above would switch this way.
// Stand-ins on the chain's launch shape (128 CTAs of 384 threads, 200 KB of dynamic shared memory,
// a ~450-byte parameter): two kernels that spin for `cycles` and record (step, which kernel), so a
// stale function or parameter shows. Ways, taking turns in rounds (medians of the rounds):
//   same      every step updates the node's parameter, kernel A always
//   switch    every step updates the parameter and alternates kernel A / kernel B
//   static    no update (the floor)
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -o node_function_switch_probe tools/diag/node_function_switch_probe.cu
//   ./node_function_switch_probe [cycles=20000] [steps=2000] [rounds=7]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "diag_check.cuh"

constexpr int kThreads = 384;
constexpr int kCtas = 128;
constexpr int kSmem = 200 * 1024;

struct Param {
  int* record;        // [0]: step, [1]: kernel id
  int step;
  long long cycles;
  char pad[416];      // the chain step parameter's size (~450 bytes)
};

template <int kId>
__global__ void __launch_bounds__(kThreads, 1) spin(const __grid_constant__ Param p) {
  extern __shared__ char smem[];
  diag_spin(p.cycles);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    smem[0] = 1;
    p.record[0] = p.step;
    p.record[1] = kId;
  }
}

int main(int argc, char** argv) {
  const long long cycles = argc > 1 ? std::atoll(argv[1]) : 20000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  const void* fn[2] = {reinterpret_cast<const void*>(&spin<0>), reinterpret_cast<const void*>(&spin<1>)};
  for (const void* f : fn) DIAG_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  int* record;
  DIAG_CHECK(cudaMalloc(&record, 8));
  cudaStream_t s;
  DIAG_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  Param p{};
  p.record = record;
  p.cycles = cycles;
  cudaGraph_t g;
  DIAG_CHECK(cudaGraphCreate(&g, 0));
  cudaKernelNodeParams kp{};
  kp.func = const_cast<void*>(fn[0]);
  kp.gridDim = dim3(kCtas);
  kp.blockDim = dim3(kThreads);
  kp.sharedMemBytes = kSmem;
  void* args[1] = {&p};
  kp.kernelParams = args;
  cudaGraphNode_t node;
  DIAG_CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &kp));
  cudaGraphExec_t ge;
  DIAG_CHECK(cudaGraphInstantiate(&ge, g, 0));

  const char* names[3] = {"same function, parameter updated", "function switched A/B + parameter", "static (no update)"};
  std::vector<std::vector<double>> per_way(3), upd(3);
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < 3; ++k) {
      const int way = (k + r) % 3;
      double update_us = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < steps; ++i) {
        const int id = way == 1 ? (i & 1) : 0;
        if (way != 2) {
          const auto u0 = std::chrono::steady_clock::now();
          p.step = r * steps + i;
          kp.func = const_cast<void*>(fn[id]);
          DIAG_CHECK(cudaGraphExecKernelNodeSetParams(ge, node, &kp));
          update_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - u0).count();
        }
        DIAG_CHECK(cudaGraphLaunch(ge, s));
        DIAG_CHECK(cudaStreamSynchronize(s));
        if (way != 2 && (i % 97 == 0)) {
          int rec[2];
          DIAG_CHECK(cudaMemcpy(rec, record, 8, cudaMemcpyDeviceToHost));
          bad += rec[0] != p.step || rec[1] != id;
        }
      }
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / steps;
      per_way[way].push_back(us);
      upd[way].push_back(update_us / steps);
    }
  }
  const double floor = median_of(per_way[2]);
  std::printf("node function switch probe: %d CTAs x %d threads, %d KB smem, %zu-byte parameter, %lld cycles, %d steps x %d rounds\n",
              kCtas, kThreads, kSmem / 1024, sizeof(Param), cycles, steps, rounds);
  std::printf("%-36s %12s %12s %10s\n", "way (synchronized steps)", "us / step", "update us", "vs static");
  for (int w = 0; w < 3; ++w)
    std::printf("%-36s %12.2f %12.2f %9.3fx\n", names[w], median_of(per_way[w]), median_of(upd[w]), median_of(per_way[w]) / floor);
  std::printf("stale function or parameter seen: %d\n", bad);
  DIAG_CHECK(cudaGraphExecDestroy(ge));
  DIAG_CHECK(cudaGraphDestroy(g));
  DIAG_CHECK(cudaFree(record));
  return bad == 0 ? 0 : 1;
}
