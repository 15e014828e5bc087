// Probe (issue 4): what does it cost to hand new parameters to the kernels of an instantiated graph,
// per step? A step is 4 dependent kernels of 132 CTAs that each spin for a fixed number of cycles
// (about the MLP workflow's GEMMs at hidden 512) and read a 640-byte parameter block (the size of
// a GEMM node's parameters: three tensor maps and the scalars). Ways to hand over the parameters:
//   static   no update (the floor)
//   setparams  4 x cudaGraphExecKernelNodeSetParams (the 640 bytes by value), then the launch
//   memcpy   one cudaMemcpyAsync of the 4 blocks (pinned -> device) before the launch
//   fetch    a 1-CTA kernel node at the head of the graph copies the step's slot of a pinned host
//            ring into the device blocks (the host only writes the slot and launches)
// Each is timed synchronised (a stream sync after every step: a decode loop that needs its
// output) and pipelined (the host runs ahead), and checked: every kernel records the step number
// it saw, so a stale parameter block shows.
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -o param_transfer_probe tools/diag/param_transfer_probe.cu
//   ./param_transfer_probe [spin_cycles=6000] [steps=4000]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "diag_check.cuh"

constexpr int kLayers = 4;
constexpr int kBlockBytes = 640;
constexpr int kRing = 64;

struct alignas(64) Block {
  unsigned long long step;
  unsigned char rest[kBlockBytes - 8];
};

// By value: the 640 bytes live in the kernel's parameters.
__global__ void work_byvalue(const __grid_constant__ Block b, long long cycles, unsigned long long* seen, int layer) {
  diag_spin(cycles);
  if (blockIdx.x == 0 && threadIdx.x == 0) seen[layer] = b.step;
}
// Indirect: the parameters in device memory, written before the kernel runs.
__global__ void work_indirect(const Block* __restrict__ b, long long cycles, unsigned long long* seen, int layer) {
  __shared__ unsigned long long s;
  if (threadIdx.x == 0) s = b->step;
  __syncthreads();
  diag_spin(cycles);
  if (blockIdx.x == 0 && threadIdx.x == 0) seen[layer] = s;
}
// The fetch node: slot = counter % kRing of the pinned ring -> the device blocks.
__global__ void fetch(const Block* ring, Block* dst, unsigned long long* counter) {
  const unsigned long long slot = *counter % kRing;
  const uint4* src = reinterpret_cast<const uint4*>(ring + slot * kLayers);
  uint4* out = reinterpret_cast<uint4*>(dst);
  constexpr int kWords = kLayers * kBlockBytes / 16;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) {
    uint4 v;
    asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(src + i));
    out[i] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) *counter += 1;
}

using Clock = std::chrono::steady_clock;

// New by-value parameters (step number `step`) for the work_byvalue node `node` of `e`.
void set_byvalue(cudaGraphExec_t e, cudaGraphNode_t node, unsigned long long step, int layer, long long cycles,
                 unsigned long long* seen, int grid, int smem) {
  Block b{};
  b.step = step;
  void* args[] = {&b, &cycles, &seen, &layer};
  cudaKernelNodeParams p{};
  p.func = reinterpret_cast<void*>(work_byvalue);
  p.gridDim = dim3(grid);
  p.blockDim = dim3(128);
  p.sharedMemBytes = smem;
  p.kernelParams = args;
  DIAG_CHECK(cudaGraphExecKernelNodeSetParams(e, node, &p));
}

int main(int argc, char** argv) {
  const long long cycles = argc > 1 ? std::atoll(argv[1]) : 6000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 4000;
  cudaStream_t st;
  DIAG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  int sms = 0;
  DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  unsigned long long* seen;
  DIAG_CHECK(cudaMallocManaged(&seen, kLayers * sizeof(unsigned long long)));
  Block* dev_blocks;
  DIAG_CHECK(cudaMalloc(&dev_blocks, kLayers * sizeof(Block)));
  unsigned long long* counter;
  DIAG_CHECK(cudaMalloc(&counter, sizeof(unsigned long long)));
  DIAG_CHECK(cudaMemset(counter, 0, sizeof(unsigned long long)));
  Block* ring;  // pinned, mapped
  DIAG_CHECK(cudaHostAlloc(&ring, kRing * kLayers * sizeof(Block), cudaHostAllocMapped));
  std::memset(ring, 0, kRing * kLayers * sizeof(Block));
  Block* staging;
  DIAG_CHECK(cudaHostAlloc(&staging, kLayers * sizeof(Block), cudaHostAllocDefault));
  std::memset(staging, 0, kLayers * sizeof(Block));
  Block* ring_dev = nullptr;
  DIAG_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&ring_dev), ring, 0));

  // Graph builders.
  auto capture = [&](bool byvalue, bool with_fetch, std::vector<cudaGraphNode_t>* nodes) {
    cudaGraph_t g;
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    if (with_fetch) fetch<<<1, 256, 0, st>>>(ring_dev, dev_blocks, counter);
    for (int l = 0; l < kLayers; ++l) {
      if (byvalue) {
        Block b{};
        work_byvalue<<<sms, 128, 0, st>>>(b, cycles, seen, l);
      } else {
        work_indirect<<<sms, 128, 0, st>>>(dev_blocks + l, cycles, seen, l);
      }
    }
    DIAG_CHECK(cudaStreamEndCapture(st, &g));
    if (nodes) *nodes = captured_chain(g);
    cudaGraphExec_t e;
    DIAG_CHECK(cudaGraphInstantiate(&e, g, 0));
    DIAG_CHECK(cudaGraphUpload(e, st));
    return std::pair{g, e};
  };

  struct Row { const char* name; double synced_us, pipelined_us; bool ok; };
  std::vector<Row> rows;
  auto check = [&](unsigned long long want) {
    for (int l = 0; l < kLayers; ++l)
      if (seen[l] != want) return false;
    return true;
  };

  // One way of handing over parameters: `steps` steps of prepare(mode, i, step) and a launch of
  // the graph, synchronized after every step (mode 0) and pipelined (mode 1: the host runs ahead),
  // after `warmup` untimed launches; the last step's parameters checked where asked. Destroys the
  // graph.
  auto timed_row = [&](const char* name, std::pair<cudaGraph_t, cudaGraphExec_t> graph, int warmup, auto&& prepare,
                       bool check_synced, bool check_pipelined) {
    auto [g, e] = graph;
    double us[2];
    bool ok = true;
    unsigned long long step = 1;
    for (int mode = 0; mode < 2; ++mode) {
      for (int i = 0; i < warmup; ++i) DIAG_CHECK(cudaGraphLaunch(e, st));
      DIAG_CHECK(cudaStreamSynchronize(st));
      const auto t0 = Clock::now();
      for (int i = 0; i < steps; ++i, ++step) {
        prepare(mode, i, step);
        DIAG_CHECK(cudaGraphLaunch(e, st));
        if (mode == 0) DIAG_CHECK(cudaStreamSynchronize(st));
      }
      DIAG_CHECK(cudaStreamSynchronize(st));
      us[mode] = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / steps;
      if (mode == 0 ? check_synced : check_pipelined) ok = ok && check(step - 1);
    }
    rows.push_back({name, us[0], us[1], ok});
    DIAG_CHECK(cudaGraphExecDestroy(e));
    DIAG_CHECK(cudaGraphDestroy(g));
  };
  // static: no update (its kernels read parameters nobody changes: nothing to check).
  timed_row("static (floor)", capture(false, false, nullptr), 100, [](int, int, unsigned long long) {}, false, false);
  {
    std::vector<cudaGraphNode_t> nodes;
    const auto graph = capture(true, false, &nodes);
    timed_row("4 x SetParams + launch", graph, 0, [&](int, int, unsigned long long step) {
      for (int l = 0; l < kLayers; ++l) set_byvalue(graph.second, nodes[l], step, l, cycles, seen, sms, 0);
    }, true, true);
  }
  // ---- setparams, split into host update / launch / wait, with what a GEMM node changes ----
  // grid: fixed, or alternating (a node whose grid follows M); smem: 0 or 200 KB of dynamic smem.
  DIAG_CHECK(cudaFuncSetAttribute(work_byvalue, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  for (int variant = 0; variant < 4; ++variant) {
    const bool alt_grid = variant & 1;
    const int smem = (variant & 2) ? 200 * 1024 : 0;
    const int g_full = 16, g_small = 4;
    // Static graph of the same shape (grid g_full, this smem).
    cudaGraph_t g;
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int l = 0; l < kLayers; ++l) {
      Block b{};
      work_byvalue<<<g_full, 128, smem, st>>>(b, cycles, seen, l);
    }
    DIAG_CHECK(cudaStreamEndCapture(st, &g));
    const std::vector<cudaGraphNode_t> nodes = captured_chain(g);
    cudaGraphExec_t e;
    DIAG_CHECK(cudaGraphInstantiate(&e, g, 0));
    DIAG_CHECK(cudaGraphUpload(e, st));
    double t_static[3] = {0, 0, 0}, t_upd[3] = {0, 0, 0};
    unsigned long long step = 1;
    bool ok = true;
    for (int pass = 0; pass < 2; ++pass) {  // 0: static replay, 1: 4 updates + launch
      for (int i = 0; i < steps; ++i, ++step) {
        const auto a = Clock::now();
        if (pass == 1) {
          for (int l = 0; l < kLayers; ++l)
            set_byvalue(e, nodes[l], step, l, cycles, seen, alt_grid && (i & 1) ? g_small : g_full, smem);
        }
        const auto b = Clock::now();
        DIAG_CHECK(cudaGraphLaunch(e, st));
        const auto c = Clock::now();
        DIAG_CHECK(cudaStreamSynchronize(st));
        const auto d = Clock::now();
        double* t = pass == 0 ? t_static : t_upd;
        t[0] += std::chrono::duration<double, std::micro>(b - a).count();
        t[1] += std::chrono::duration<double, std::micro>(c - b).count();
        t[2] += std::chrono::duration<double, std::micro>(d - c).count();
      }
      if (pass == 1) ok = check(step - 1);
    }
    std::printf("setparams split (grid %s, smem %d KB): static launch %.2f wait %.2f = %.2f | updated: update %.2f launch %.2f wait %.2f = %.2f (%.3fx) %s\n",
                alt_grid ? "16/4 alternating" : "16 fixed", smem / 1024, t_static[1] / steps, t_static[2] / steps,
                (t_static[0] + t_static[1] + t_static[2]) / steps, t_upd[0] / steps, t_upd[1] / steps, t_upd[2] / steps,
                (t_upd[0] + t_upd[1] + t_upd[2]) / steps,
                (t_upd[0] + t_upd[1] + t_upd[2]) / (t_static[0] + t_static[1] + t_static[2]), ok ? "ok" : "STALE");
    DIAG_CHECK(cudaGraphExecDestroy(e));
    DIAG_CHECK(cudaGraphDestroy(g));
  }
  // memcpy before the launch. NOTES: pipelined, the one staging buffer races with the copies in
  // flight: that mode only times the calls, and only the synchronized one is checked.
  timed_row("memcpyAsync 2.5 KB + launch", capture(false, false, nullptr), 0, [&](int, int, unsigned long long step) {
    for (int l = 0; l < kLayers; ++l) staging[l].step = step;
    DIAG_CHECK(cudaMemcpyAsync(dev_blocks, staging, kLayers * sizeof(Block), cudaMemcpyHostToDevice, st));
  }, true, false);
  // fetch node: launch j (0-based, counted by the device) reads ring slot j % kRing. NOTES:
  // pipelined, the host may only reuse a slot once the launch kRing steps back ran; this probe
  // keeps at most kRing / 2 launches in flight by syncing every kRing / 2 steps.
  DIAG_CHECK(cudaMemset(counter, 0, sizeof(unsigned long long)));
  DIAG_CHECK(cudaDeviceSynchronize());
  timed_row("fetch node (pinned ring)", capture(false, true, nullptr), 0, [&](int mode, int i, unsigned long long step) {
    if (mode == 1 && i % (kRing / 2) == 0) DIAG_CHECK(cudaStreamSynchronize(st));
    Block* slot = ring + ((step - 1) % kRing) * kLayers;
    for (int l = 0; l < kLayers; ++l) slot[l].step = step;
  }, true, true);

  std::printf("param_transfer_probe: %d layers x %d CTAs spinning %lld cycles, %d steps\n", kLayers, sms, cycles, steps);
  std::printf("| way | synced us/step | vs static | pipelined us/step | vs static | params seen |\n|---|---:|---:|---:|---:|---|\n");
  for (const Row& r : rows)
    std::printf("| %s | %.2f | %.3fx | %.2f | %.3fx | %s |\n", r.name, r.synced_us, r.synced_us / rows[0].synced_us,
                r.pipelined_us, r.pipelined_us / rows[0].pipelined_us, r.ok ? "ok" : "STALE");
  return 0;
}
