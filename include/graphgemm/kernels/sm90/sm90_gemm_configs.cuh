// graphgemm: the sm90 GEMM tile configurations the library instantiates.
//
// Tiles (each for both B layouts, bf16/fp16 inputs and bf16/fp16/fp32 outputs):
//   128x256x64, 4 stages, cluster 2x1 (B multicast) : large GEMMs (peak throughput config)
//   128x256x64, 4 stages, cluster 1x1               : large GEMMs, no cluster launch needed
//   128x128x64, 6 stages, cluster 1x1               : medium GEMMs / more tiles per wave
//   128x128x64, 6 stages, cluster 1x2 (A multicast) : medium-large GEMMs, less L2 traffic for A
//    64x128x64, 8 stages, cluster 1x1               : small M (decode-like, M <= 64)
// Stage counts fill the 227 KB shared memory budget (see max_stages<>()).
#pragma once

#include <tuple>

#include "sm90_gemm.cuh"

namespace graphgemm::kernels::sm90::configs {

template <class AB, class D, bool BKMajor>
using TileSet = std::tuple<GemmConfig<AB, D, 128, 256, 4, 2, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 256, 4, 1, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 128, 6, 1, 1, BKMajor>,
                           GemmConfig<AB, D, 128, 128, 6, 1, 2, BKMajor>,
                           GemmConfig<AB, D, 64, 128, 8, 1, 1, BKMajor>>;

template <class AB, class D>
using LayoutSet = decltype(std::tuple_cat(TileSet<AB, D, true>{}, TileSet<AB, D, false>{}));

template <class AB>
using OutputSet = decltype(std::tuple_cat(LayoutSet<AB, __nv_bfloat16>{}, LayoutSet<AB, __half>{},
                                          LayoutSet<AB, float>{}));

// Every instantiated configuration, in a fixed order (the instance table follows it).
using AllConfigs = decltype(std::tuple_cat(OutputSet<__nv_bfloat16>{}, OutputSet<__half>{}));

static_assert(max_stages<__nv_bfloat16, 128, 256>() >= 4);
static_assert(max_stages<float, 128, 128>() >= 6);
static_assert(max_stages<float, 64, 128>() >= 8);

}  // namespace graphgemm::kernels::sm90::configs
