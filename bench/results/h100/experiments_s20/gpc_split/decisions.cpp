// Dumps the sm90 heuristic's automatic choice for every suite shape (bf16, B N x K, 132 SMs).
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "backends/sm90_heuristic.hpp"
#include "kernels/sm90_gemm_instances.hpp"
namespace gd = graphgemm::detail::sm90;
int main() {
  std::vector<std::array<long long, 3>> shapes;
  // square, llm, splitk as in bench/shapes.json (hard-coded from it by the caller's script)
  long long m, n, k;
  while (std::scanf("%lld %lld %lld", &m, &n, &k) == 3) shapes.push_back({m, n, k});
  for (auto [m, n, k] : shapes) {
    for (int cl : {0, 2, 4, 8}) {
      gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
      r.max_workspace_bytes = std::size_t{32} << 20;
      r.cluster = cl;
      if (cl) r.mode = graphgemm::SplitKMode::parallel;
      const gd::SplitChoice c = gd::choose_split(r);
      std::printf("c%d %lldx%lldx%lld %s slices %d cluster %d predicted %.2f\n", cl, m, n, k,
                  c.index >= 0 ? gd::kernel_info(c.index).name : "ERR", c.slices, c.cluster, c.predicted_us);
    }
  }
}
