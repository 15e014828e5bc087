#include "backends/sm90_heuristic.hpp"

#include <cmath>
#include <cstdio>

namespace graphgemm::detail::sm90 {

double tile_efficiency(const KernelInfo& k) {
  // Relative throughput per output element at full occupancy; larger tiles move fewer operand
  // bytes per FLOP. Clusters multicast the shared operand, halving its L2 traffic.
  double e = k.block_m * k.block_n >= 128 * 256 ? 1.0 : k.block_m * k.block_n >= 128 * 128 ? 0.90 : 0.72;
  if (k.cluster_m * k.cluster_n > 1) e *= 1.02;
  return e;
}

KernelChoice choose_kernel(DTypeIn in, DTypeOut out, bool b_k_major, std::int64_t m, std::int64_t n, int num_sms) {
  KernelChoice best;
  double best_cost = INFINITY;
  int candidates = 0;
  char buf[256];
  for (int i = 0; i < kernel_count(); ++i) {
    const KernelInfo& k = kernel_info(i);
    if (k.dtype_in != in || k.dtype_out != out || k.b_k_major != b_k_major) continue;
    ++candidates;
    const int cluster = k.cluster_m * k.cluster_n;
    const std::int64_t ctas = (num_sms / cluster) * cluster;
    const std::int64_t tiles_m = (m + k.block_m - 1) / k.block_m, tiles_n = (n + k.block_n - 1) / k.block_n;
    const std::int64_t tiles = tiles_m * tiles_n;
    const std::int64_t waves = (tiles + ctas - 1) / ctas;
    const double cost = static_cast<double>(waves) * k.block_m * k.block_n / tile_efficiency(k) / (128.0 * 256.0);
    const bool better = cost < best_cost * (1 - 1e-9) ||
                        (cost <= best_cost * (1 + 1e-9) && k.block_m * k.block_n > kernel_info(best.index).block_m * kernel_info(best.index).block_n);
    if (best.index < 0 || better) {
      best_cost = cost;
      best.index = i;
      std::snprintf(buf, sizeof buf, "%lld tiles of %dx%d on %lld CTAs: %lld wave(s), cost %.3f", static_cast<long long>(tiles),
                    k.block_m, k.block_n, static_cast<long long>(ctas), static_cast<long long>(waves), cost);
      best.explanation = buf;
    }
  }
  if (best.index >= 0) best.explanation += " (least of " + std::to_string(candidates) + " candidates)";
  return best;
}

}  // namespace graphgemm::detail::sm90
