// The standalone diagnostic tools' CUDA error check (print where and why, then exit), their
// busy-wait, their timing of a captured graph of back-to-back launches and of synchronized graph
// steps, and the node chain of a captured graph.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define DIAG_CHECK(x)                                                                           \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// Busy-waits `cycles` SM clock cycles: the probes' stand-in for a kernel's work.
__device__ inline void diag_spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// Replays `exec` (a graph of `launches` back-to-back launches) `replays` times on `stream`, CUDA
// events around each replay, and returns the replays' times per launch in µs, sorted (median:
// [replays / 2]).
inline std::vector<float> replay_us_per_launch(cudaGraphExec_t exec, cudaStream_t stream, int launches, int replays) {
  cudaEvent_t e0, e1;
  DIAG_CHECK(cudaEventCreate(&e0));
  DIAG_CHECK(cudaEventCreate(&e1));
  std::vector<float> us;
  for (int i = 0; i < replays; ++i) {
    DIAG_CHECK(cudaEventRecord(e0, stream));
    DIAG_CHECK(cudaGraphLaunch(exec, stream));
    DIAG_CHECK(cudaEventRecord(e1, stream));
    DIAG_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    DIAG_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    us.push_back(ms * 1000.0f / launches);
  }
  DIAG_CHECK(cudaEventDestroy(e0));
  DIAG_CHECK(cudaEventDestroy(e1));
  std::sort(us.begin(), us.end());
  return us;
}

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

using Clock = std::chrono::steady_clock;

// One way's host times per synchronized step, a mean per round (us): the parameter update (from
// the step's start to its launch), the graph launch, the wait for it, and their sum.
struct StepTimes {
  std::vector<double> upd, launch, wait, total;
  double sum[3] = {0, 0, 0};  // this round's
  // Launches `exec` on `st` and waits for it; the step (its update) began at `start`.
  void step(cudaGraphExec_t exec, cudaStream_t st, Clock::time_point start) {
    const auto b = Clock::now();
    DIAG_CHECK(cudaGraphLaunch(exec, st));
    const auto c = Clock::now();
    DIAG_CHECK(cudaStreamSynchronize(st));
    const auto d = Clock::now();
    sum[0] += std::chrono::duration<double, std::micro>(b - start).count();
    sum[1] += std::chrono::duration<double, std::micro>(c - b).count();
    sum[2] += std::chrono::duration<double, std::micro>(d - c).count();
  }
  void end_round(int steps) {
    upd.push_back(sum[0] / steps);
    launch.push_back(sum[1] / steps);
    wait.push_back(sum[2] / steps);
    total.push_back((sum[0] + sum[1] + sum[2]) / steps);
    sum[0] = sum[1] = sum[2] = 0;
  }
};

// The nodes of a captured chain (each node depends on the one before, programmatic edges
// included), root first.
inline std::vector<cudaGraphNode_t> captured_chain(cudaGraph_t g) {
  size_t n = 0;
  DIAG_CHECK(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> all(n), chain;
  DIAG_CHECK(cudaGraphGetNodes(g, all.data(), &n));
  cudaGraphNode_t cur = nullptr;
  for (auto node : all) {
    size_t deps = 0;
    DIAG_CHECK(cudaGraphNodeGetDependencies(node, nullptr, nullptr, &deps));
    if (deps == 0) cur = node;
  }
  while (cur) {
    chain.push_back(cur);
    size_t outn = 0;
    DIAG_CHECK(cudaGraphNodeGetDependentNodes(cur, nullptr, nullptr, &outn));
    if (outn == 0) break;
    outn = 1;
    cudaGraphEdgeData edge{};  // without edge data, programmatic edges are "lossy" introspection
    DIAG_CHECK(cudaGraphNodeGetDependentNodes(cur, &cur, &edge, &outn));
  }
  return chain;
}
