#pragma once
// graphgemm: GEMMs for NVIDIA Hopper GPUs, built for CUDA graphs.
#include "graphgemm/chain.hpp"
#include "graphgemm/gemm.hpp"
#include "graphgemm/status.hpp"
#include "graphgemm/types.hpp"
