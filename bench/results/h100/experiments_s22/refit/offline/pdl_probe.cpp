// Automatic choice with programmatic launch automatic vs off, where they differ.
#include <cstdio>
#include "backends/sm90_heuristic.hpp"
namespace gd = graphgemm::detail::sm90;
int main() {
  long long m, n, k;
  while (std::scanf("%lld %lld %lld", &m, &n, &k) == 3) {
    gd::SplitChoice c[2];
    for (int off = 0; off < 2; ++off) {
      gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, m, n, k, 132};
      r.max_workspace_bytes = std::size_t{32} << 20;
      r.programmatic = off ? graphgemm::ProgrammaticLaunch::off : graphgemm::ProgrammaticLaunch::automatic;
      c[off] = gd::choose_split(r);
    }
    if (c[0].index != c[1].index || c[0].slices != c[1].slices || c[0].cluster != c[1].cluster)
      std::printf("%lldx%lldx%lld pdl-auto %s x%d c%d %.2f | pdl-off %s x%d c%d %.2f\n", m, n, k, gd::kernel_info(c[0].index).name + 15,
                  c[0].slices, c[0].cluster, c[0].predicted_us, gd::kernel_info(c[1].index).name + 15, c[1].slices, c[1].cluster,
                  c[1].predicted_us);
  }
}
