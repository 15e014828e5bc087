// Dumps the sm90 heuristic's automatic choice (c0) and the choices with split_k_cluster 2 / 4 / 8
// (parallel) for every suite shape read from stdin ("M N K" lines; bf16, B N x K, 132 SMs, 32 MiB
// workspace), as experiments_s20/gpc_split/decisions.cpp, plus the split mode and the explanation.
#include <cstdio>
#include "backends/sm90_heuristic.hpp"
#include "kernels/sm90_gemm_instances.hpp"
namespace gd = graphgemm::detail::sm90;
namespace gk = graphgemm::kernels::sm90;
int main() {
  long long m, n, k;
  while (std::scanf("%lld %lld %lld", &m, &n, &k) == 3) {
    for (int cl : {0, 2, 4, 8}) {
      gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
      r.max_workspace_bytes = std::size_t{32} << 20;
      r.cluster = cl;
      if (cl) r.mode = graphgemm::SplitKMode::parallel;
      const gd::SplitChoice c = gd::choose_split(r);
      const char* mode = c.mode == gk::SplitMode::parallel ? "parallel" : c.mode == gk::SplitMode::serial ? "serial" : "none";
      std::printf("c%d %lldx%lldx%lld %s %s slices %d cluster %d predicted %.2f | %s\n", cl, m, n, k,
                  c.index >= 0 ? gd::kernel_info(c.index).name : "ERR", mode, c.slices, c.cluster, c.predicted_us,
                  c.index >= 0 ? c.explanation.c_str() : c.error.message().c_str());
    }
  }
}
