// Probe (issue 4, session 26): can one kernel at the head of a graph apply a step's new
// parameters to the graph's other kernel nodes on the device (CUDA 12.4's device-updatable kernel
// nodes: cudaGraphKernelNodeUpdatesApply), so that the host makes one node update per step (or
// none) instead of one per GEMM node, and what does that cost a synchronized step?
//
// A step is a chain of 4 dependent kernels of 16 CTAs (the MLP workflow's grids at hidden 512).
// Each has a GEMM node's parameter block (three 128-byte tensor maps and a ~140-byte struct, 528
// bytes), TMA-loads one 64x64 bf16 box of its input through the first map, spins a fixed number
// of cycles and records what it saw. Every step the inputs change (one of two buffers per layer,
// each filled with its own value), so a stale parameter shows. Ways:
//   static       the graph replayed with the parameters it was captured with (the floor)
//   setparams    per layer a tensor map encoded on the host and cuGraphExecKernelNodeSetParams
//                (what graph::GemmNode::update does), then the launch
//   args node    an argument kernel (1 CTA) heads the graph; the host encodes the 4 layers' maps,
//                writes their 4 parameter blocks into the argument node's parameters (one
//                cuGraphExecKernelNodeSetParams), launches; the argument kernel applies the
//                blocks to the 4 layer nodes (device-updatable) with cudaGraphKernelNodeUpdatesApply
//   args mapped  as "args node", but the argument kernel reads the 4 blocks from pinned, mapped
//                host memory the host wrote before the launch: no driver call but the launch
//                (the blocks are read when the graph runs, not when it is launched)
// each with programmatic dependent launch off and on (on: the argument kernel triggers its
// dependent after its updates and a __threadfence, as cudaGraphKernelNodeSetParam's notes ask).
// Timed synchronized (a stream sync after every step: the decode loop that needs its output),
// host time split into update / launch / wait; the ways take turns over rounds, medians reported.
//
//   nvcc -std=c++20 -gencode arch=compute_90a,code=sm_90a -O3 -Iinclude -o device_update_probe \
//        tools/diag/device_update_probe.cu
//   ./device_update_probe [spin_cycles=4000] [steps=2000] [rounds=5] [ctas=16] [base=-1] [bytes=520]
// base: the offset of parameter 0 in a node's parameter buffer for the device updates (-1: what
// cuFuncGetParamInfo says; H100, driver 13.0: 112; at 0 the update call fails). bytes: the bytes
// updated per node on the device, at the end of its block (fewer than the whole block: timing
// only, the layers then see stale maps and the "params seen" column says STALE).
//
// MEASURED (H100, session 26; bench/results/h100/experiments_s26/device_update/, docs/sm90_notes.md
// "Session 26"): one update instead of four on the host, but the device-side updates cost the GPU
// ~4-5 us per apply plus ~7 ns per byte: 1.8-2.2x the static step against 1.3x for 4 x SetParams.
#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "layer_chain.cuh"

namespace d = graphgemm::kernels::sm90::detail;


// A GEMM node's scalar block stand-in (KernelParams is 136 bytes).
struct LayerParams {
  const void* src;
  unsigned long long step;
  unsigned long long* seen;
  long long cycles;
  int rows;
  int layer;
  unsigned char pad[96];
};

__global__ void __launch_bounds__(kThreads) layer_kernel(const __grid_constant__ CUtensorMap tmap,
                                                         const __grid_constant__ CUtensorMap map_b,
                                                         const __grid_constant__ CUtensorMap map_d,
                                                         const __grid_constant__ LayerParams p) {
  __shared__ alignas(1024) __nv_bfloat16 tile[kBox * kBox];
  __shared__ alignas(8) unsigned long long bar;
  if (threadIdx.x == 0) {
    d::mbar_init(d::smem_u32(&bar), 1);
    d::fence_mbarrier_init();
  }
  run_layer(tile, &tmap, &bar, p.cycles, &p.step, p.seen, p.layer);
}

// A layer's whole parameter block, as the kernel receives it (offsets checked against
// cuFuncGetParamInfo at start).
struct LayerImage {
  CUtensorMap a, b, d;
  LayerParams p;
};
constexpr std::size_t kImageBytes = offsetof(LayerImage, p) + sizeof(LayerParams);

struct ArgBlock {
  cudaGraphDeviceNode_t node[kLayers];
  int* error;         // cudaGraphKernelNodeUpdatesApply's error, if any
  unsigned long long base;  // the parameter buffer offset of the first parameter
  unsigned long long bytes; // bytes updated per node, at the block's end (kImageBytes: all)
  LayerImage image[kLayers];
};

// kMapped false: the blocks come in the parameters; true: read from `mapped` (host memory).
template <bool kMapped>
__global__ void __launch_bounds__(kThreads) args_kernel(const __grid_constant__ ArgBlock by_value, const ArgBlock* mapped) {
  const ArgBlock* blk = &by_value;
  if constexpr (kMapped) {
    __shared__ alignas(64) ArgBlock s;
    const int4* src = reinterpret_cast<const int4*>(mapped);
    int4* dst = reinterpret_cast<int4*>(&s);
    for (int i = threadIdx.x; i < static_cast<int>(sizeof(ArgBlock) / 16); i += kThreads) {
      int4 v;
      asm volatile("ld.volatile.global.v4.s32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(src + i));
      dst[i] = v;
    }
    __syncthreads();
    blk = &s;
  }
  if (threadIdx.x == 0) {
    // cudaGraphKernelNodeUpdate has no default constructor (a union with a dim3): raw storage.
    alignas(cudaGraphKernelNodeUpdate) unsigned char raw[kLayers * sizeof(cudaGraphKernelNodeUpdate)];
    auto* u = reinterpret_cast<cudaGraphKernelNodeUpdate*>(raw);
    for (int l = 0; l < kLayers; ++l) {
      u[l].node = blk->node[l];
      u[l].field = cudaGraphKernelNodeFieldParam;
      // The last `bytes` bytes of the block (timing probes of smaller updates).
      u[l].updateData.param.pValue = reinterpret_cast<const unsigned char*>(&blk->image[l]) + kImageBytes - blk->bytes;
      u[l].updateData.param.offset = blk->base + kImageBytes - blk->bytes;
      u[l].updateData.param.size = blk->bytes;
    }
    const cudaError_t e = cudaGraphKernelNodeUpdatesApply(u, kLayers);
    if (e != cudaSuccess) *blk->error = static_cast<int>(e);
    __threadfence();
  }
  __syncthreads();
  d::griddep_launch_dependents();
}

using SetParamsFn = CUresult (*)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);
using ParamInfoFn = CUresult (*)(CUfunction, size_t, size_t*, size_t*);

template <class Fn>
Fn entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  DIAG_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12040, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "no %s\n", name);
    std::exit(1);
  }
  return reinterpret_cast<Fn>(fn);
}

int main(int argc, char** argv) {
  const long long cycles = argc > 1 ? std::atoll(argv[1]) : 4000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  const int ctas = argc > 4 ? std::atoi(argv[4]) : 16;
  // The offset of the first parameter in a node's parameter buffer, for the device updates:
  // -1: what cuFuncGetParamInfo says.
  long long base = argc > 5 ? std::atoll(argv[5]) : -1;
  // Bytes updated per node on the device, at the end of its block (< the whole block: timing only,
  // the layers then see stale maps).
  const unsigned long long bytes = argc > 6 ? std::min<unsigned long long>(std::atoll(argv[6]), kImageBytes) : kImageBytes;
  cudaStream_t st;
  DIAG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const SetParamsFn set_params = entry<SetParamsFn>("cuGraphExecKernelNodeSetParams");
  const ParamInfoFn param_info = entry<ParamInfoFn>("cuFuncGetParamInfo");

  // The layout the kernels receive must be LayerImage's.
  {
    cudaFunction_t f;
    DIAG_CHECK(cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(layer_kernel)));
    const size_t want[4] = {offsetof(LayerImage, a), offsetof(LayerImage, b), offsetof(LayerImage, d),
                            offsetof(LayerImage, p)};
    bool bad = false;
    size_t first = 0, first_size = 0;
    if (param_info(reinterpret_cast<CUfunction>(f), 0, &first, &first_size) != CUDA_SUCCESS) return 1;
    if (base < 0) base = static_cast<long long>(first);
    for (size_t i = 0; i < 4; ++i) {
      size_t off = 0, size = 0;
      const CUresult r = param_info(reinterpret_cast<CUfunction>(f), i, &off, &size);
      std::printf("layer_kernel parameter %zu: offset %zu size %zu (LayerImage: %zu), result %d\n", i, off, size, want[i],
                  static_cast<int>(r));
      if (r != CUDA_SUCCESS || off - first != want[i]) bad = true;
    }
    if (bad) {
      std::printf("the parameters' offsets (above, less parameter 0's) differ from LayerImage's\n");
      return 1;
    }
  }

  __nv_bfloat16* inputs[kLayers][2];
  make_layer_inputs(inputs);
  unsigned long long* seen;
  DIAG_CHECK(cudaMallocManaged(&seen, kLayers * sizeof(unsigned long long)));
  int* apply_error;
  DIAG_CHECK(cudaMallocManaged(&apply_error, sizeof(int)));
  *apply_error = 0;
  ArgBlock* mapped;  // pinned, mapped
  DIAG_CHECK(cudaHostAlloc(&mapped, sizeof(ArgBlock), cudaHostAllocMapped));
  std::memset(static_cast<void*>(mapped), 0, sizeof(ArgBlock));
  ArgBlock* mapped_dev = nullptr;
  DIAG_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_dev), mapped, 0));

  // Step i's input for layer l: buffer (l, i & 1); rows alternate (kRows, kRows - 64) like M.
  auto image_for = [&](int l, unsigned long long step, LayerImage& im) {
    std::memset(static_cast<void*>(&im), 0, sizeof im);
    im.p.src = inputs[l][step & 1];
    im.p.step = step;
    im.p.seen = seen;
    im.p.cycles = cycles;
    im.p.rows = (step & 1) ? kRows - kBox : kRows;
    im.p.layer = l;
    im.a = encode_box(im.p.src, im.p.rows);
    im.b = im.a;
    im.d = im.a;
  };
  auto expected = [&](int l, unsigned long long step) { return step * 1000 + 1 + 2 * l + (step & 1); };

  enum Kind { kStatic, kSetParams, kArgsNode, kArgsMapped };
  struct Way {
    const char* name;
    Kind kind;
    bool pdl;
    cudaGraph_t g{};
    cudaGraphExec_t e{};
    cudaGraphNode_t args_node{};
    std::vector<cudaGraphNode_t> layers;
    ArgBlock host_block{};  // kArgsNode: the argument node's parameters
    StepTimes times;
    bool ok = true;
    bool failed = false;
  };
  std::vector<Way> ways = {
      {"static (floor)", kStatic, false},         {"static (floor), PDL", kStatic, true},
      {"4 x SetParams + launch", kSetParams, false}, {"4 x SetParams + launch, PDL", kSetParams, true},
      {"args node: 1 SetParams + launch", kArgsNode, false}, {"args node: 1 SetParams + launch, PDL", kArgsNode, true},
      {"args mapped: launch only", kArgsMapped, false}, {"args mapped: launch only, PDL", kArgsMapped, true},
  };
  cudaFunction_t layer_fn, args_fn[2];
  DIAG_CHECK(cudaGetFuncBySymbol(&layer_fn, reinterpret_cast<const void*>(layer_kernel)));
  DIAG_CHECK(cudaGetFuncBySymbol(&args_fn[0], reinterpret_cast<const void*>(args_kernel<false>)));
  DIAG_CHECK(cudaGetFuncBySymbol(&args_fn[1], reinterpret_cast<const void*>(args_kernel<true>)));

  for (Way& w : ways) {
    const bool with_args = w.kind == kArgsNode || w.kind == kArgsMapped;
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    cudaLaunchAttribute pdl{};
    pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    pdl.val.programmaticStreamSerializationAllowed = w.pdl ? 1 : 0;
    if (with_args) {
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(1);
      cfg.blockDim = dim3(kThreads);
      cfg.stream = st;
      // The argument kernel follows whatever came before the graph in full (no PDL attribute).
      if (w.kind == kArgsNode)
        DIAG_CHECK(cudaLaunchKernelEx(&cfg, args_kernel<false>, w.host_block, static_cast<const ArgBlock*>(nullptr)));
      else
        DIAG_CHECK(cudaLaunchKernelEx(&cfg, args_kernel<true>, w.host_block, static_cast<const ArgBlock*>(mapped_dev)));
    }
    for (int l = 0; l < kLayers; ++l) {
      LayerImage im;
      image_for(l, 0, im);
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(ctas);
      cfg.blockDim = dim3(kThreads);
      cfg.stream = st;
      cudaLaunchAttribute attrs[2] = {pdl, {}};
      attrs[1].id = cudaLaunchAttributeDeviceUpdatableKernelNode;
      attrs[1].val.deviceUpdatableKernelNode.deviceUpdatable = 1;
      cfg.attrs = attrs;
      cfg.numAttrs = with_args ? 2 : 1;
      DIAG_CHECK(cudaLaunchKernelEx(&cfg, layer_kernel, im.a, im.b, im.d, im.p));
    }
    DIAG_CHECK(cudaStreamEndCapture(st, &w.g));
    std::vector<cudaGraphNode_t> chain = captured_chain(w.g);
    if (with_args) {
      w.args_node = chain[0];
      chain.erase(chain.begin());
    }
    w.layers = chain;
    if (with_args) {
      // The device handles of the layer nodes, then the argument kernel's parameters that carry them.
      for (int l = 0; l < kLayers; ++l) {
        cudaLaunchAttributeValue v{};
        DIAG_CHECK(cudaGraphKernelNodeGetAttribute(w.layers[l], cudaLaunchAttributeDeviceUpdatableKernelNode, &v));
        w.host_block.node[l] = v.deviceUpdatableKernelNode.devNode;
        w.host_block.error = apply_error;
        w.host_block.base = static_cast<unsigned long long>(base);
        w.host_block.bytes = bytes;
        image_for(l, 0, w.host_block.image[l]);
      }
      if (w.kind == kArgsMapped) *mapped = w.host_block;
      cudaKernelNodeParams kp{};
      DIAG_CHECK(cudaGraphKernelNodeGetParams(w.args_node, &kp));
      const ArgBlock* mp = w.kind == kArgsMapped ? mapped_dev : nullptr;
      void* args[] = {&w.host_block, &mp};
      kp.kernelParams = args;
      DIAG_CHECK(cudaGraphKernelNodeSetParams(w.args_node, &kp));
    }
    DIAG_CHECK(cudaGraphInstantiate(&w.e, w.g, 0));
    DIAG_CHECK(cudaGraphUpload(w.e, st));
  }

  unsigned long long step = 1;
  const ArgBlock* null_block = nullptr;
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < ways.size(); ++k) {
      Way& w = ways[(k + round) % ways.size()];
      if (w.kind == kArgsMapped) {
        for (int l = 0; l < kLayers; ++l) image_for(l, step - 1, mapped->image[l]);
        for (int l = 0; l < kLayers; ++l) mapped->node[l] = w.host_block.node[l];
      }
      if (w.failed) continue;
      if (w.kind == kArgsMapped) {
        mapped->error = apply_error;
        mapped->base = static_cast<unsigned long long>(base);
        mapped->bytes = bytes;
      }
      for (int i = 0; i < 50; ++i) DIAG_CHECK(cudaGraphLaunch(w.e, st));  // warm up
      DIAG_CHECK(cudaStreamSynchronize(st));
      if (*apply_error != 0) {
        std::printf("%s: cudaGraphKernelNodeUpdatesApply failed: %s\n", w.name,
                    cudaGetErrorString(static_cast<cudaError_t>(*apply_error)));
        *apply_error = 0;
        w.failed = true;
        continue;
      }
      for (int i = 0; i < steps; ++i, ++step) {
        const auto a = Clock::now();
        if (w.kind == kSetParams) {
          for (int l = 0; l < kLayers; ++l) {
            LayerImage im;
            image_for(l, step, im);
            void* args[] = {&im.a, &im.b, &im.d, &im.p};
            CUDA_KERNEL_NODE_PARAMS kp{};
            kp.func = reinterpret_cast<CUfunction>(layer_fn);
            kp.gridDimX = ctas;
            kp.gridDimY = kp.gridDimZ = 1;
            kp.blockDimX = kThreads;
            kp.blockDimY = kp.blockDimZ = 1;
            kp.kernelParams = args;
            if (set_params(w.e, reinterpret_cast<CUgraphNode>(w.layers[l]), &kp) != CUDA_SUCCESS) std::exit(2);
          }
        } else if (w.kind == kArgsNode) {
          for (int l = 0; l < kLayers; ++l) image_for(l, step, w.host_block.image[l]);
          void* args[] = {&w.host_block, &null_block};
          CUDA_KERNEL_NODE_PARAMS kp{};
          kp.func = reinterpret_cast<CUfunction>(args_fn[0]);
          kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
          kp.blockDimX = kThreads;
          kp.blockDimY = kp.blockDimZ = 1;
          kp.kernelParams = args;
          if (set_params(w.e, reinterpret_cast<CUgraphNode>(w.args_node), &kp) != CUDA_SUCCESS) std::exit(2);
        } else if (w.kind == kArgsMapped) {
          for (int l = 0; l < kLayers; ++l) image_for(l, step, mapped->image[l]);
        }
        w.times.step(w.e, st, a);
        if (w.kind != kStatic)
          for (int l = 0; l < kLayers; ++l) w.ok = w.ok && seen[l] == expected(l, step);
      }
      w.times.end_round(steps);
    }
  }
  DIAG_CHECK(cudaGetLastError());
  std::printf("device_update_probe: %d layers x %d CTAs, %zu-byte parameter blocks (%llu updated on the device), spin %lld "
              "cycles, %d steps x %d rounds, synchronized\n", kLayers, ctas, kImageBytes, bytes, cycles, steps, rounds);
  print_step_table_header();
  for (const Way& w : ways) {
    if (w.failed) {
      std::printf("| %s | failed |\n", w.name);
      continue;
    }
    print_step_row(w.name, w.times, ways[w.pdl ? 1 : 0].times, w.kind != kStatic ? (w.ok ? "ok" : "STALE") : "-");
  }
  for (Way& w : ways) {
    DIAG_CHECK(cudaGraphExecDestroy(w.e));
    DIAG_CHECK(cudaGraphDestroy(w.g));
  }
  return 0;
}
