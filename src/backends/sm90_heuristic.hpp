#pragma once
// Chooses an sm90 kernel instance for a problem: deterministic, and explained in words.

#include <cstdint>
#include <string>

#include "kernels/sm90_gemm_instances.hpp"

namespace graphgemm::detail::sm90 {

struct KernelChoice {
  int index = -1;            // into the instance table; -1: none fits
  std::string explanation;   // "128x256 c2x1: 64 tiles on 66 clusters, 1 wave, cost 1.03 (best of 5)"
};

// Among the instances for (in, out, b_k_major), the one with the least estimated time:
//   cost = waves · BlockM · BlockN / efficiency(tile)
// where waves = ceil(tiles / co-resident CTAs) is the number of tiles on the busiest SM and
// efficiency is the tile's relative throughput per output element (larger tiles reuse operands
// more). Ties go to the larger tile.
[[nodiscard]] KernelChoice choose_kernel(DTypeIn in, DTypeOut out, bool b_k_major, std::int64_t m, std::int64_t n,
                                         int num_sms);

// The efficiency the cost model assumes for a tile (see docs/sm90_notes.md for how it was set).
[[nodiscard]] double tile_efficiency(const KernelInfo& k);

}  // namespace graphgemm::detail::sm90
