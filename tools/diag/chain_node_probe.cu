// Probe (issue 4): does one kernel node for a whole layer chain take the update cost of a
// synchronized step down to what the 1.1x-of-static goal allows? A step of the MLP workflow is
// 4 GEMM nodes (640-byte parameter blocks: three tensor maps and the scalars), each updated on the
// host before the launch. Stand-ins here, on the GEMMs' launch shape (132 CTAs of 384 threads,
// 200 KB of dynamic shared memory), every kernel spinning for a fixed time:
//   4 nodes     4 kernels of `cycles` each, 640-byte blocks (today's GEMM nodes)
//   1 node      one kernel of 4 x `cycles`, a 2560-byte block (the 4 layers' parameters), or a
//               1024 / 384-byte one (what changes per step, the rest of the chain's parameters
//               in device memory)
//   zero+chain  the 1 node behind a 1-CTA kernel that zeroes 256 bytes and lets it start at once
//               (programmatic edge): a chain's cross-CTA counters zeroed on every launch
// each replayed static (no update: the floor of its own work) and updated every step (the nodes
// that carry parameters, through KernelNode::update: the driver's SetParams with the resolved
// function, as GemmNode does). Synchronized steps (a stream sync after each launch); the ways take
// turns in rounds (host speed drifts), medians of the rounds. Every kernel records the step
// number it saw, so a stale parameter block shows.
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -o chain_node_probe tools/diag/chain_node_probe.cu \
//        build/libgraphgemm.a -lcuda -lcublasLt            (after building the library in build/)
//   ./chain_node_probe [cycles=6000] [steps=2000] [rounds=7]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "graphgemm/graph/graph.hpp"

#include "diag_check.cuh"

namespace gg = graphgemm::graph;

constexpr int kLayers = 4;
constexpr int kThreads = 384;
constexpr int kSmem = 200 * 1024;

template <int kBytes>
struct alignas(64) Block {
  unsigned long long step;
  unsigned char rest[kBytes - 8];
};
using Layer = Block<640>;

__global__ void layer_kernel(const __grid_constant__ Layer b, long long cycles, unsigned long long* seen, int layer) {
  diag_spin(cycles);
  if (blockIdx.x == 0 && threadIdx.x == 0) seen[layer] = b.step;
}
template <int kBytes>
__global__ void chain_kernel(const __grid_constant__ Block<kBytes> b, long long cycles, unsigned long long* seen) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  diag_spin(cycles);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (int l = 0; l < kLayers; ++l) seen[l] = b.step;
}
__global__ void zero_kernel(int4* p) {
  asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (threadIdx.x < 16) p[threadIdx.x] = make_int4(0, 0, 0, 0);
}

#define PROBE_TRY(x)                                                                   \
  do {                                                                                 \
    const graphgemm::Status s_ = (x);                                                  \
    if (!s_.ok()) {                                                                    \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, s_.to_string().c_str()); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

int main(int argc, char** argv) {
  const long long cycles = argc > 1 ? std::atoll(argv[1]) : 6000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  cudaStream_t st;
  DIAG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  int sms = 0;
  DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  struct ChainKernel { int bytes; const void* fn; };
  const ChainKernel chains[] = {{2560, reinterpret_cast<const void*>(chain_kernel<2560>)},
                                {1024, reinterpret_cast<const void*>(chain_kernel<1024>)},
                                {384, reinterpret_cast<const void*>(chain_kernel<384>)}};
  DIAG_CHECK(cudaFuncSetAttribute(layer_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  for (const ChainKernel& c : chains) DIAG_CHECK(cudaFuncSetAttribute(c.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  unsigned long long* seen;
  DIAG_CHECK(cudaMallocManaged(&seen, kLayers * sizeof(unsigned long long)));
  int4* counters;
  DIAG_CHECK(cudaMalloc(&counters, 256));
  const gg::LaunchShape shape{dim3(sms), dim3(kThreads), kSmem};

  // The ways: 4 layer nodes, or one chain node (2560 / 1024 / 384-byte block) alone or behind the
  // zero kernel; each static and updated.
  struct Way {
    std::string name;
    int chain = -1;  // index into chains; -1: 4 layer nodes
    bool zero = false, update = false;
    gg::GraphExec exec;
    std::vector<gg::KernelNode<Layer, long long, unsigned long long*, int>> layers;
    cudaGraphNode_t node = nullptr;  // the chain node, updated through the driver's SetParams as GemmNode does
    cudaFunction_t fn = nullptr;
    StepTimes times;
    bool ok = true;
  };
  std::vector<Way> ways;
  auto add = [&](int chain, bool zero) {
    for (const bool update : {false, true}) {
      Way w;
      char buf[128];
      if (chain < 0) std::snprintf(buf, sizeof buf, "4 nodes x 640 B, %s", update ? "4 updates" : "static");
      else std::snprintf(buf, sizeof buf, "%s1 chain node x %d B, %s", zero ? "zero + " : "", chains[chain].bytes,
                         update ? "1 update" : "static");
      w.name = buf;
      w.chain = chain;
      w.zero = zero;
      w.update = update;
      ways.push_back(std::move(w));
    }
  };
  add(-1, false);
  add(0, false);
  add(0, true);
  add(1, false);
  add(2, false);
  add(2, true);
  alignas(64) unsigned char block[2560] = {};
  long long chain_cycles = kLayers * cycles;
  for (Way& way : ways) {
    gg::Capture cap;
    PROBE_TRY(cap.begin(st));
    if (way.chain < 0) {
      for (int l = 0; l < kLayers; ++l) {
        way.layers.emplace_back(layer_kernel);
        PROBE_TRY(way.layers.back().record(st, shape, Layer{}, cycles, seen, l));
      }
    } else {
      if (way.zero) zero_kernel<<<1, 64, 0, st>>>(counters);
      // The chain follows the zero kernel programmatically (as a split GEMM follows its zeroing).
      void* args[] = {block, &chain_cycles, &seen};
      gg::detail::NodeIdentity id;
      PROBE_TRY(gg::detail::add_captured_kernel_node(st, chains[way.chain].fn, shape, args, &way.node, &id, &way.fn,
                                                     way.zero));
    }
    PROBE_TRY(cap.end());
    PROBE_TRY(way.exec.instantiate(cap));
    PROBE_TRY(way.exec.upload(st));
  }

  unsigned long long step = 1;
  const int n = static_cast<int>(ways.size());
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < n; ++k) {
      Way& way = ways[(k + r) % n];
      for (int i = 0; i < 50; ++i) PROBE_TRY(way.exec.launch(st));
      DIAG_CHECK(cudaStreamSynchronize(st));
      for (int i = 0; i < steps; ++i, ++step) {
        const auto a = Clock::now();
        if (way.update) {
          if (way.chain < 0) {
            for (int l = 0; l < kLayers; ++l) {
              Layer b{};
              b.step = step;
              PROBE_TRY(way.layers[l].update(way.exec, b, cycles, seen, l));
            }
          } else {
            std::memcpy(block, &step, sizeof step);
            void* args[] = {block, &chain_cycles, &seen};
            PROBE_TRY(gg::detail::set_kernel_node_params(way.exec.get(), way.node, way.fn, shape, args));
          }
        }
        way.times.step(way.exec.get(), st, a);
      }
      if (way.update)
        for (int l = 0; l < kLayers; ++l) way.ok = way.ok && seen[l] == step - 1;
      way.times.end_round(steps);
    }
  }
  std::printf("chain_node_probe: %d SMs, %d x %lld cycles a layer, %d steps x %d rounds, synchronized steps\n", sms,
              kLayers, cycles, steps, rounds);
  std::printf("| way | us / step (min-max) | update | launch | wait | vs its static | vs 4 nodes static | params seen |\n"
              "|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (int w = 0; w < n; ++w) {
    const Way& way = ways[w];
    const StepTimes& t = way.times;
    const auto [lo, hi] = std::minmax_element(t.total.begin(), t.total.end());
    std::printf("| %s | %.2f (%.2f-%.2f) | %.2f | %.2f | %.2f | %.3fx | %.3fx | %s |\n", way.name.c_str(),
                median_of(t.total), *lo, *hi, median_of(t.upd), median_of(t.launch), median_of(t.wait),
                median_of(t.total) / median_of(ways[w & ~1].times.total),
                median_of(t.total) / median_of(ways[0].times.total), way.update ? (way.ok ? "ok" : "STALE") : "n/a");
  }
  return 0;
}
