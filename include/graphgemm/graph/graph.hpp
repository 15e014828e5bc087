#pragma once
// graphgemm's graph layer: capture helpers, updatable kernel and GEMM nodes, recapture-then-update
// and a graph cache. See README.md ("CUDA graphs with changing parameters").
#include "graphgemm/graph/capture.hpp"
#include "graphgemm/graph/chain_node.hpp"
#include "graphgemm/graph/gemm_node.hpp"
#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/graph/kernel_node.hpp"
#include "graphgemm/graph/recapture.hpp"
