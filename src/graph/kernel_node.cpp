// Kernel nodes added explicitly to the graph a stream is capturing, and their updates.
#include "graphgemm/graph/kernel_node.hpp"

#include <cuda.h>

#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "graph/graph_internal.hpp"

namespace graphgemm::graph::detail {
namespace {

std::string dims(const dim3& d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "{%u, %u, %u}", d.x, d.y, d.z);
  return buf;
}

Status check_shape(const LaunchShape& s) {
  if (s.grid.x * s.grid.y * s.grid.z == 0 || s.block.x * s.block.y * s.block.z == 0)
    return {StatusCode::invalid_argument, "the launch shape has an empty grid " + dims(s.grid) + " or block " +
                                              dims(s.block) + ": every dimension must be at least 1"};
  if (s.cluster.x == 0 || s.cluster.y == 0 || s.cluster.z == 0 || s.grid.x % s.cluster.x != 0 ||
      s.grid.y % s.cluster.y != 0 || s.grid.z % s.cluster.z != 0)
    return {StatusCode::invalid_argument, "the grid " + dims(s.grid) + " is not a whole number of clusters " +
                                              dims(s.cluster) + ": round the grid up to a multiple of the cluster"};
  return {};
}

bool has_cluster(const LaunchShape& s) { return s.cluster.x * s.cluster.y * s.cluster.z > 1; }

// The driver's cuGraphExecKernelNodeSetParams (the CUDA 12 signature), resolved once.
using SetParamsFn = CUresult (*)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);
using ErrorNameFn = CUresult (*)(CUresult, const char**);
template <class Fn>
Fn driver_entry_point(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<Fn>(fn);
}

// Resolved when the first node is recorded (add_captured_kernel_node), not on the update path.
SetParamsFn set_params_fn() {
  static const SetParamsFn fn = driver_entry_point<SetParamsFn>("cuGraphExecKernelNodeSetParams");
  return fn;
}

// consequence: what the failed call left as it was.
Status missing_set_params_error(const char* consequence) {
  return {StatusCode::cuda_error, std::string("the driver has no cuGraphExecKernelNodeSetParams, which node updates use "
                                              "(CUDA 12 or later is needed); ") + consequence};
}

std::string driver_error_name(CUresult r) {
  static const ErrorNameFn name_of = driver_entry_point<ErrorNameFn>("cuGetErrorName");
  const char* name = nullptr;
  if (name_of != nullptr && name_of(r, &name) == CUDA_SUCCESS && name != nullptr) return name;
  return "CUresult " + std::to_string(static_cast<int>(r));
}

// The kernel, its geometry and its arguments as the runtime's node parameters, for adding the node
// (updates fill the driver's CUDA_KERNEL_NODE_PARAMS with the resolved function: set_kernel_node_params).
cudaKernelNodeParams kernel_params(const void* function, const LaunchShape& shape, void** args) {
  cudaKernelNodeParams p{};
  p.func = const_cast<void*>(function);
  p.gridDim = shape.grid;
  p.blockDim = shape.block;
  p.sharedMemBytes = static_cast<unsigned>(shape.smem);
  p.kernelParams = args;
  return p;
}

}  // namespace

Status check_recorded(bool recorded) {
  if (!recorded)
    return {StatusCode::invalid_argument, "this node handle is empty: record it inside a capture first "
                                          "(KernelNode::record, graph::record_gemm)"};
  return {};
}

Status check_same_cluster(const LaunchShape& recorded, const LaunchShape& next) {
  if (recorded.cluster.x != next.cluster.x || recorded.cluster.y != next.cluster.y || recorded.cluster.z != next.cluster.z)
    return {StatusCode::invalid_argument, "the cluster shape cannot change in an update (recorded " + dims(recorded.cluster) +
                                              ", asked " + dims(next.cluster) + "): record another node for it"};
  return check_shape(next);
}

Status add_captured_kernel_node(cudaStream_t stream, const void* function, const LaunchShape& shape, void** args,
                                cudaGraphNode_t* node_out, NodeIdentity* id_out, cudaFunction_t* resolved,
                                bool programmatic) {
  GRAPHGEMM_TRY(check_shape(shape));
  if (set_params_fn() == nullptr) return missing_set_params_error("nothing was added to the graph");
  cudaFunction_t fn = nullptr;
  GRAPHGEMM_CUDA_TRY(cudaGetFuncBySymbol(&fn, function));
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  const cudaGraphEdgeData* edges = nullptr;
  size_t count = 0;
  GRAPHGEMM_CUDA_TRY(cudaStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &edges, &count));
  if (status == cudaStreamCaptureStatusInvalidated) return invalidated_capture_error("the stream's capture");
  if (status != cudaStreamCaptureStatusActive)
    return {StatusCode::invalid_argument,
            "the stream is not capturing: nodes are recorded inside a capture (graph::Capture::begin, or "
            "cudaStreamBeginCapture by anyone); to run the work eagerly, launch it directly"};

  // The incoming edges: the capture's own (plain, or annotated by whoever captured the nodes
  // before), with plain edges from kernel nodes made programmatic when asked.
  static const cudaGraphEdgeData kDefaultEdge{};
  std::vector<cudaGraphEdgeData> in(count, kDefaultEdge);
  bool plain = true;
  for (size_t i = 0; i < count; ++i) {
    if (edges != nullptr) in[i] = edges[i];
    if (programmatic && std::memcmp(&in[i], &kDefaultEdge, sizeof kDefaultEdge) == 0) {
      cudaGraphNodeType type{};
      GRAPHGEMM_CUDA_TRY(cudaGraphNodeGetType(deps[i], &type));
      if (type == cudaGraphNodeTypeKernel) {
        in[i].from_port = cudaGraphKernelNodePortProgrammatic;
        in[i].type = cudaGraphDependencyTypeProgrammatic;
      }
    }
    if (std::memcmp(&in[i], &kDefaultEdge, sizeof kDefaultEdge) != 0) plain = false;
  }

  // Plain dependencies (the usual case) take cudaGraphAddKernelNode; annotated edges (programmatic
  // dependent launch) cudaGraphAddNode.
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams k = kernel_params(function, shape, args);
  if (plain) {
    GRAPHGEMM_CUDA_TRY(cudaGraphAddKernelNode(&node, graph, deps, count, &k));
  } else {
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = k.func;
    p.kernel.gridDim = k.gridDim;
    p.kernel.blockDim = k.blockDim;
    p.kernel.sharedMemBytes = k.sharedMemBytes;
    p.kernel.kernelParams = k.kernelParams;
    GRAPHGEMM_CUDA_TRY(cudaGraphAddNode(&node, graph, deps, in.data(), count, &p));
  }
  if (has_cluster(shape)) {
    cudaLaunchAttributeValue v{};
    v.clusterDim.x = shape.cluster.x;
    v.clusterDim.y = shape.cluster.y;
    v.clusterDim.z = shape.cluster.z;
    GRAPHGEMM_CUDA_TRY(cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributeClusterDimension, &v));
  }
  GRAPHGEMM_CUDA_TRY(cudaStreamUpdateCaptureDependencies(stream, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
  note_graph(graph, id);
  *node_out = node;
  *id_out = {graph, id};
  *resolved = fn;
  return {};
}

Status set_kernel_node_params(cudaGraphExec_t exec, cudaGraphNode_t node, cudaFunction_t function,
                              const LaunchShape& shape, void** args) {
  const SetParamsFn set_params = set_params_fn();
  if (set_params == nullptr) return missing_set_params_error("the executable graph keeps its previous parameters");
  if (function == nullptr) return {StatusCode::internal, "the node's kernel was not resolved when it was recorded"};
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = reinterpret_cast<CUfunction>(function);
  p.gridDimX = shape.grid.x;
  p.gridDimY = shape.grid.y;
  p.gridDimZ = shape.grid.z;
  p.blockDimX = shape.block.x;
  p.blockDimY = shape.block.y;
  p.blockDimZ = shape.block.z;
  p.sharedMemBytes = static_cast<unsigned>(shape.smem);
  p.kernelParams = args;
  const CUresult r = set_params(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraphNode>(node), &p);
  if (r != CUDA_SUCCESS) {
    return {StatusCode::cuda_error,
            "cuGraphExecKernelNodeSetParams refused the update (" + driver_error_name(r) +
                "); the executable graph keeps its previous parameters. Check that it was instantiated from the graph "
                "this node was recorded in and that the graph still exists"};
  }
  return {};
}

}  // namespace graphgemm::graph::detail
