// Probe (issue 4, session 21): can kernels fetch their own parameters when they start, instead of
// the host updating graph nodes, and what does it cost a synchronized step?
//
// A step is a chain of 4 dependent kernels of 16 CTAs (the MLP workflow's grids at hidden 512)
// that each TMA-load one 64x64 bf16 box of their input through a tensor map, spin a fixed number
// of cycles, and record what they saw. Every step the inputs change (one of two buffers per
// layer, each filled with its own value), so a stale tensor map or parameter shows. Ways:
//   static     the graph replayed with the parameters it was captured with (the floor)
//   setparams  per layer a tensor map encoded on the host and cudaGraphExecKernelNodeSetParams
//              (what graph::GemmNode::update does), then the launch
//   mapped     the host writes each layer's 32-byte record into pinned, mapped host memory and
//              launches; each CTA reads its layer's record over PCIe, patches a copy of the
//              captured tensor map in shared memory (tensormap.replace: global address, rows),
//              publishes it to its own global slot (tensormap.cp_fenceproxy) and loads through it
// each with programmatic dependent launch off and on (on: a kernel reads its record and builds its
// map before griddepcontrol.wait, so only the first layer's PCIe read is exposed); and, timing
// only (their parameters never change), the mapped read with the captured map, and the map
// rebuilt from a record in device memory: the two halves of "mapped". Timed
// synchronized (a stream sync after every step: the decode loop that needs its output), host
// time split into update / launch / wait; the ways take turns over rounds, medians reported.
//
//   nvcc -std=c++20 -gencode arch=compute_90a,code=sm_90a -O3 -Iinclude -o mapped_params_probe \
//        tools/diag/mapped_params_probe.cu
//   ./mapped_params_probe [spin_cycles=4000] [steps=2000] [rounds=5] [ctas=16]
#include <cuda_bf16.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "layer_chain.cuh"

namespace d = graphgemm::kernels::sm90::detail;


// What a layer's kernel needs per step (by value in its parameters, or in mapped host memory).
struct alignas(32) Record {
  const void* src;           // the input buffer
  unsigned long long step;
  int rows;                  // the input's rows (the tensor map's outer dimension)
  int pad[3];
};

// kMode 0: record and tensor map by value. 1: the record read from `mapped` and the tensor map
// rebuilt from `tmap` with it. 2: the record read from `mapped`, the map by value (the read's cost
// alone). 3: as 1 with `mapped` in device memory (the rebuild's cost alone).
// `seen[layer]` = step * 1000 + the loaded element.
template <int kMode>
__global__ void __launch_bounds__(kThreads) layer_kernel(const __grid_constant__ CUtensorMap tmap,
                                                         const __grid_constant__ Record by_value,
                                                         const Record* mapped, CUtensorMap* slots,
                                                         long long cycles, unsigned long long* seen,
                                                         int layer) {
  __shared__ alignas(128) CUtensorMap smap;
  __shared__ alignas(1024) __nv_bfloat16 tile[kBox * kBox];
  __shared__ alignas(8) unsigned long long bar;
  __shared__ unsigned long long s_step;
  const CUtensorMap* map = &tmap;
  if (threadIdx.x < 32) {
    if constexpr (kMode != 0) {
      CUtensorMap* slot = slots + blockIdx.x;
      unsigned long long src = 0, step = 0;
      int rows = 0;
      if (threadIdx.x == 0) {
        asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(src), "=l"(step) : "l"(mapped));
        asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(rows) : "l"(reinterpret_cast<const char*>(mapped) + 16));
        s_step = step;
      }
      if constexpr (kMode != 2) {
        // The captured map -> shared memory (a word per lane), patched by lane 0, published.
        reinterpret_cast<unsigned*>(&smap)[threadIdx.x] = reinterpret_cast<const unsigned*>(&tmap)[threadIdx.x];
        __syncwarp();
        if (threadIdx.x == 0) {
          asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(d::smem_u32(&smap)), "l"(src) : "memory");
          asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(d::smem_u32(&smap)), "r"(rows) : "memory");
        }
        __syncwarp();
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.cta.sync.aligned [%0], [%1], 128;"
                     ::"l"(slot), "r"(d::smem_u32(&smap)) : "memory");
        if (threadIdx.x == 0)
          asm volatile("fence.proxy.tensormap::generic.acquire.cta [%0], 128;" ::"l"(slot) : "memory");
        map = slot;
      }
    } else {
      if (threadIdx.x == 0) s_step = by_value.step;
    }
    if (threadIdx.x == 0) {
      d::mbar_init(d::smem_u32(&bar), 1);
      d::fence_mbarrier_init();
    }
  }
  run_layer(tile, map, &bar, cycles, &s_step, seen, layer);
}

// layer_kernel's instances, by kMode.
constexpr void (*kLayerKernels[])(CUtensorMap, Record, const Record*, CUtensorMap*, long long, unsigned long long*,
                                  int) = {layer_kernel<0>, layer_kernel<1>, layer_kernel<2>, layer_kernel<3>};


int main(int argc, char** argv) {
  const long long cycles = argc > 1 ? std::atoll(argv[1]) : 4000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  const int ctas = argc > 4 ? std::atoi(argv[4]) : 16;
  cudaStream_t st;
  DIAG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

  __nv_bfloat16* inputs[kLayers][2];
  make_layer_inputs(inputs);
  unsigned long long* seen;
  DIAG_CHECK(cudaMallocManaged(&seen, kLayers * sizeof(unsigned long long)));
  CUtensorMap* slots;
  DIAG_CHECK(cudaMalloc(&slots, kLayers * ctas * sizeof(CUtensorMap)));
  Record* records;  // pinned, mapped: one per layer
  DIAG_CHECK(cudaHostAlloc(&records, kLayers * sizeof(Record), cudaHostAllocMapped));
  std::memset(records, 0, kLayers * sizeof(Record));
  Record* records_dev = nullptr;
  DIAG_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&records_dev), records, 0));

  // Step i's input for layer l: buffer (l, i & 1); rows alternate too (kRows, kRows - 64) so the
  // patched dimension matters to nobody but is written every step like a GEMM node's M.
  auto record_for = [&](int l, unsigned long long step) {
    Record r{};
    r.src = inputs[l][step & 1];
    r.step = step;
    r.rows = (step & 1) ? kRows - kBox : kRows;
    return r;
  };
  auto expected = [&](int l, unsigned long long step) { return step * 1000 + 1 + 2 * l + (step & 1); };
  for (int l = 0; l < kLayers; ++l) records[l] = record_for(l, 0);  // what warm-up launches read

  struct Way {
    const char* name;
    int mode;  // layer_kernel's kMode
    bool update, pdl;
    cudaGraph_t g{};
    cudaGraphExec_t e{};
    std::vector<cudaGraphNode_t> nodes;
    StepTimes times;
    bool ok = true;
  };
  std::vector<Way> ways = {
      {"static (floor)", 0, false, false}, {"static (floor), PDL", 0, false, true},
      {"4 x SetParams + launch", 0, true, false}, {"4 x SetParams + launch, PDL", 0, true, true},
      {"mapped records + launch", 1, false, false}, {"mapped records + launch, PDL", 1, false, true},
      {"(timing only) mapped read, map by value, PDL", 2, false, true},
      {"(timing only) device record, map rebuilt, PDL", 3, false, true},
  };
  Record* records_static;  // mode 3: the step-0 records in device memory
  DIAG_CHECK(cudaMalloc(&records_static, kLayers * sizeof(Record)));
  DIAG_CHECK(cudaMemcpy(records_static, records, kLayers * sizeof(Record), cudaMemcpyHostToDevice));
  for (Way& w : ways) {
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int l = 0; l < kLayers; ++l) {
      const Record r = record_for(l, 0);
      const CUtensorMap m = encode_box(r.src, r.rows);
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(ctas);
      cfg.blockDim = dim3(kThreads);
      cfg.stream = st;
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr.val.programmaticStreamSerializationAllowed = w.pdl ? 1 : 0;
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      const Record* rec = w.mode == 3 ? records_static + l : records_dev + l;
      DIAG_CHECK(cudaLaunchKernelEx(&cfg, kLayerKernels[w.mode], m, r, rec, slots + l * ctas, cycles, seen, l));
    }
    DIAG_CHECK(cudaStreamEndCapture(st, &w.g));
    w.nodes = captured_chain(w.g);
    DIAG_CHECK(cudaGraphInstantiate(&w.e, w.g, 0));
    DIAG_CHECK(cudaGraphUpload(w.e, st));
  }
  cudaKernelNodeParams kp{};
  kp.func = reinterpret_cast<void*>(kLayerKernels[0]);
  kp.gridDim = dim3(ctas);
  kp.blockDim = dim3(kThreads);

  unsigned long long step = 1;
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < ways.size(); ++k) {
      Way& w = ways[(k + round) % ways.size()];
      for (int i = 0; i < 50; ++i) DIAG_CHECK(cudaGraphLaunch(w.e, st));  // warm up
      DIAG_CHECK(cudaStreamSynchronize(st));
      for (int i = 0; i < steps; ++i, ++step) {
        const auto a = Clock::now();
        if (w.update) {
          for (int l = 0; l < kLayers; ++l) {
            Record r = record_for(l, step);
            CUtensorMap m = encode_box(r.src, r.rows);
            const Record* rec = records_dev + l;
            CUtensorMap* slot = slots + l * ctas;
            int layer = l;
            void* args[] = {&m, &r, &rec, &slot, const_cast<long long*>(&cycles), &seen, &layer};
            kp.kernelParams = args;
            DIAG_CHECK(cudaGraphExecKernelNodeSetParams(w.e, w.nodes[l], &kp));
          }
        } else if (w.mode != 0) {
          for (int l = 0; l < kLayers; ++l) records[l] = record_for(l, step);
        }
        w.times.step(w.e, st, a);
        if (w.update || w.mode == 1)
          for (int l = 0; l < kLayers; ++l) w.ok = w.ok && seen[l] == expected(l, step);
      }
      w.times.end_round(steps);
    }
  }
  std::printf("mapped_params_probe: %d layers x %d CTAs, spin %lld cycles, %d steps x %d rounds, synchronized\n", kLayers, ctas,
              cycles, steps, rounds);
  print_step_table_header();
  for (const Way& w : ways)
    print_step_row(w.name, w.times, ways[w.pdl ? 1 : 0].times, (w.update || w.mode == 1) ? (w.ok ? "ok" : "STALE") : "-");
  for (Way& w : ways) {
    DIAG_CHECK(cudaGraphExecDestroy(w.e));
    DIAG_CHECK(cudaGraphDestroy(w.g));
  }
  return 0;
}
