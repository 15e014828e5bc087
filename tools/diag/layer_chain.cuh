// The synchronized-step probes' layer chain (mapped_params_probe, device_update_probe): a step is
// kLayers dependent kernels that each TMA-load one kBox x kBox bf16 box of their input; every
// layer has two input buffers, buffer (l, j) holding the value 1 + 2l + j everywhere (exact in
// bf16), so that a kernel that loaded through a stale parameter shows it.
#pragma once

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"

constexpr int kLayers = 4;
constexpr int kBox = 64;     // the TMA box: 64 x 64 bf16 (8 KB)
constexpr int kRows = 256;   // each input buffer: kRows x kBox bf16
constexpr int kThreads = 128;

// A tensor map of one input buffer with `rows` rows (the changing dimension, like a GEMM's M).
inline CUtensorMap encode_box(const void* src, int rows) {
  CUtensorMap m;
  DIAG_CHECK(graphgemm::kernels::sm90::detail::encode_tma_2d(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, src, kBox, rows,
                                                             kBox * 2, kBox, kBox, CU_TENSOR_MAP_L2_PROMOTION_L2_128B));
  return m;
}

// The layers' input buffers (see above).
inline void make_layer_inputs(__nv_bfloat16* (&inputs)[kLayers][2]) {
  for (int l = 0; l < kLayers; ++l)
    for (int j = 0; j < 2; ++j) {
      std::vector<__nv_bfloat16> h(kRows * kBox, __float2bfloat16(static_cast<float>(1 + 2 * l + j)));
      DIAG_CHECK(cudaMalloc(&inputs[l][j], h.size() * 2));
      DIAG_CHECK(cudaMemcpy(inputs[l][j], h.data(), h.size() * 2, cudaMemcpyHostToDevice));
    }
}

// The probes' result table: its header, and one way's row (medians over the rounds, the rounds'
// range of the step time, the step time against `floor`'s, and whether every step's parameters
// were seen: "ok", "STALE", or "-" where the way does not check).
inline void print_step_table_header() {
  std::printf("| way | update us | launch us | wait us | step us (median) | rounds' range | vs static (same PDL) | params seen |\n");
  std::printf("|---|---:|---:|---:|---:|---|---:|---|\n");
}
inline void print_step_row(const char* name, const StepTimes& w, const StepTimes& floor, const char* seen) {
  const auto [lo, hi] = std::minmax_element(w.total.begin(), w.total.end());
  std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f-%.2f | %.3fx | %s |\n", name, median_of(w.upd), median_of(w.launch),
              median_of(w.wait), median_of(w.total), *lo, *hi, median_of(w.total) / median_of(floor.total), seen);
}

// A layer kernel's body once its barrier `bar` is initialised (thread 0, fenced): waits for the
// previous layer (programmatic launch), lets the next one launch, TMA-loads the box through `map`
// into `tile`, spins `cycles` (the layer's work) and has the last CTA's thread 0 record *step *
// 1000 + the loaded value in seen[layer] (`step` is read by that thread only).
__device__ __forceinline__ void run_layer(__nv_bfloat16* tile, const CUtensorMap* map, unsigned long long* bar,
                                          long long cycles, const unsigned long long* step, unsigned long long* seen,
                                          int layer) {
  namespace d = graphgemm::kernels::sm90::detail;
  // The previous layer's output would be read from here on.
  d::griddep_wait();
  d::griddep_launch_dependents();
  __syncthreads();
  if (threadIdx.x == 0) {
    d::mbar_arrive_expect_tx(d::smem_u32(bar), kBox * kBox * 2);
    d::tma_load_2d(d::smem_u32(tile), map, d::smem_u32(bar), 0, 0);
    d::mbar_wait(d::smem_u32(bar), 0);
  }
  __syncthreads();
  diag_spin(cycles);
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    seen[layer] = *step * 1000 + static_cast<unsigned long long>(__bfloat162float(tile[kBox * kBox - 1]));
}
