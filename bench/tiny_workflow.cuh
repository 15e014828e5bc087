// The tiny-kernel workflow of NVIDIA's "CUDA graphs with dynamic parameters" post (issue 4's first
// benchmark): per iteration 2 passes x (2 static + 2 dynamic <<<1, 1>>> kernels), the dynamic
// kernels' float parameter changing every iteration. Shared by graphgemm_graph_bench and
// tools/diag/graph_replica_probe.cu (each includes it in one translation unit).
#pragma once

#include <cuda_runtime.h>

namespace tiny_workflow {

__global__ void static_kernel(float* buf, int idx) { buf[idx] += 1.0f; }
__global__ void dynamic_kernel(float* buf, int idx, float p) { buf[idx] = buf[idx] * 0.5f + p; }

// Floats of the buffer one run works on (4 per pass).
constexpr int kSlots = 8;

// The dynamic kernels' parameter at iteration i.
inline float param(int i) { return 0.001f * static_cast<float>(i % 1000); }

// One iteration through the stream: 2 passes x (2 static + 2 dynamic); slot 4 * pass + k.
inline void launch_iteration(cudaStream_t s, float* buf, float p) {
  for (int pass = 0; pass < 2; ++pass) {
    static_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 0);
    static_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 1);
    dynamic_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 2, p);
    dynamic_kernel<<<1, 1, 0, s>>>(buf, 4 * pass + 3, p);
  }
}

// The runtime's node parameters for dynamic_kernel<<<1, 1>>>(args...) (the combined approach).
inline cudaKernelNodeParams dynamic_node_params(void** args) {
  cudaKernelNodeParams kp{};
  kp.func = reinterpret_cast<void*>(dynamic_kernel);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  return kp;
}

// The post's combined approach: dynamic_kernel(buf, idx, p) added as an explicit kernel node of the
// graph stream s is capturing, on the capture's current dependencies, and made its new dependency
// (CUDA 13 names and signatures).
inline cudaError_t add_dynamic_node(cudaStream_t s, float* buf, int idx, float p, cudaGraphNode_t* node) {
  cudaStreamCaptureStatus status;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t count = 0;
  cudaError_t e = cudaStreamGetCaptureInfo(s, &status, nullptr, &capturing, &deps, nullptr, &count);
  if (e != cudaSuccess) return e;
  void* args[] = {&buf, &idx, &p};
  const cudaKernelNodeParams kp = dynamic_node_params(args);
  if ((e = cudaGraphAddKernelNode(node, capturing, deps, count, &kp)) != cudaSuccess) return e;
  return cudaStreamUpdateCaptureDependencies(s, node, nullptr, 1, cudaStreamSetCaptureDependencies);
}

}  // namespace tiny_workflow
