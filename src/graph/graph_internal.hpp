#pragma once
// Shared by the graph layer's sources.
#include <cuda_runtime_api.h>

#include <string>

#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/status.hpp"

namespace graphgemm::graph::detail {

// The registry of graphs that hold nodes recorded by graphgemm: graph -> capture id.
void note_graph(cudaGraph_t graph, unsigned long long capture_id);
void forget_graph(cudaGraph_t graph) noexcept;

Status invalidated_capture_error(const std::string& what);
// That `stream` is capturing (an invalidated capture says so); otherwise invalid_argument naming
// `recorder` ("record_gemm") and the eager way to run the work instead (`eager`: "plan.run() to run
// the GEMM eagerly").
Status require_capturing(cudaStream_t stream, const char* recorder, const char* eager);
std::string capture_status_name(cudaStreamCaptureStatus status);

}  // namespace graphgemm::graph::detail
