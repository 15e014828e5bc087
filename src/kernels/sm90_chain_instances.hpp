// graphgemm: non-template interface to the compiled sm90 GEMM-chain instances
// (graphgemm/kernels/sm90/sm90_gemm_chain.cuh). Host code only; no kernel headers pulled in.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "graphgemm/kernels/sm90/sm90_gemm_types.hpp"
#include "sm90_gemm_instances.hpp"

namespace graphgemm::detail::sm90 {

struct ChainKernelInfo {
    const char* name;  // the tile configuration's name, e.g. "sm90_bf16_bf16_64x64x64_s13_c1x1_bk", or a
                       // two-tile chain's, "sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk"
    DTypeIn dtype;     // inputs, activations and output
    int block_m, block_n, stages;  // the (large-M) tile's, which sets the grid
    const char* small_name;  // two tiles: the tile at M <= small_max_m (a GemmPlan kernel name); else name
    const char* large_name;  // two tiles: the tile above; else name
    int small_block_n;       // two tiles: the small-M tile's BN; 0 for one tile
};

// Opaque storage for one chain launch's arguments: the setup kernel's parameter (the layers'
// table), the chain kernel's (what a step changes) and the geometry.
struct alignas(128) ChainLaunchStorage {
    unsigned char bytes[8192];
};

int chain_kernel_count();
const ChainKernelInfo& chain_kernel_info(int i);
int find_chain_kernel(const char* name);  // index, or -1

// Once per device (function attributes, the driver's tensor-map entry point).
cudaError_t chain_initialize(int i, int device);
// Workspace bytes of instance i for `layers` layers of widths n[0..layers-1] at max_m rows.
unsigned long long chain_workspace_bytes(int i, int max_m, int layers, const int* n);
// CTAs of a launch (fixed by max_m).
int chain_grid(int i, int max_m, int layers, const int* n, int num_sms);
// Two-tile instances: the most rows that run the small-M tile (0: none; one-tile instances: 0).
int chain_small_max_m(int i, int max_m, int layers, const int* n, int num_sms);
// Host only, capture-safe; cudaErrorInvalidValue for what the kernel cannot do. With
// p.step_only, only the chain kernel's parameter and the geometry are made (chain_setup_arg's
// bytes are then undefined).
cudaError_t chain_make_launch_args(int i, const kernels::sm90::ChainProblem& p, int num_sms, ChainLaunchStorage& out);
// Enqueues the setup kernel and the chain kernel (programmatic after it).
cudaError_t chain_launch(int i, const ChainLaunchStorage& s, cudaStream_t stream);

// For graph kernel nodes: the setup kernel (one CTA, never updated by a step) and the chain kernel
// (a programmatic edge from the setup node), one argument each, pointing into `s`.
const void* chain_setup_function();
const void* chain_function(int i);
void* chain_setup_arg(const ChainLaunchStorage& s);
void* chain_step_arg(const ChainLaunchStorage& s);
std::size_t chain_setup_arg_bytes();
std::size_t chain_step_arg_bytes();
LaunchGeometry chain_setup_geometry(const ChainLaunchStorage& s);
LaunchGeometry chain_geometry(const ChainLaunchStorage& s);

}  // namespace graphgemm::detail::sm90
