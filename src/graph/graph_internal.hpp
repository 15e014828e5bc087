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
std::string capture_status_name(cudaStreamCaptureStatus status);

}  // namespace graphgemm::graph::detail
