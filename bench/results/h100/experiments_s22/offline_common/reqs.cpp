// For every splitk shape and every request the split-K table makes (bench backends sm90:<mode>:<slices>:c<cluster>,
// "auto" = 0 slices), the kernel / slices / cluster / estimate choose_split returns (bf16, B N x K, 132 SMs, 32 MiB).
#include <cstdio>
#include <string>
#include "backends/sm90_heuristic.hpp"
namespace gd = graphgemm::detail::sm90;
namespace gk = graphgemm::kernels::sm90;
int main() {
  const long long shapes[][3] = {{128, 128, 16384}, {64, 64, 65536}, {128, 256, 32768}, {256, 256, 16384},
                                 {16, 4096, 14336}, {128, 1536, 7168}, {32, 7168, 16384}, {64, 2112, 7168}};
  struct Req { graphgemm::SplitKMode mode; int slices; int cluster; const char* name; };
  const Req reqs[] = {
      {graphgemm::SplitKMode::serial, 2, 0, "serial:2"}, {graphgemm::SplitKMode::serial, 4, 0, "serial:4"},
      {graphgemm::SplitKMode::serial, 8, 0, "serial:8"}, {graphgemm::SplitKMode::serial, 16, 0, "serial:16"},
      {graphgemm::SplitKMode::serial, 0, 0, "serial:auto"},
      {graphgemm::SplitKMode::parallel, 2, 1, "parallel:2:c1"}, {graphgemm::SplitKMode::parallel, 3, 1, "parallel:3:c1"},
      {graphgemm::SplitKMode::parallel, 4, 1, "parallel:4:c1"}, {graphgemm::SplitKMode::parallel, 8, 1, "parallel:8:c1"},
      {graphgemm::SplitKMode::parallel, 16, 1, "parallel:16:c1"}, {graphgemm::SplitKMode::parallel, 32, 1, "parallel:32:c1"},
      {graphgemm::SplitKMode::parallel, 64, 1, "parallel:64:c1"}, {graphgemm::SplitKMode::parallel, 0, 1, "parallel:auto:c1"},
      {graphgemm::SplitKMode::parallel, 2, 2, "parallel:2:c2"}, {graphgemm::SplitKMode::parallel, 4, 4, "parallel:4:c4"},
      {graphgemm::SplitKMode::parallel, 8, 8, "parallel:8:c8"}, {graphgemm::SplitKMode::parallel, 16, 8, "parallel:16:c8"},
      {graphgemm::SplitKMode::parallel, 32, 8, "parallel:32:c8"}, {graphgemm::SplitKMode::parallel, 0, 8, "parallel:auto:c8"},
      {graphgemm::SplitKMode::parallel, 0, 2, "parallel:auto:c2"}, {graphgemm::SplitKMode::parallel, 0, 4, "parallel:auto:c4"},
      {graphgemm::SplitKMode::automatic, 0, 0, "auto"}};
  for (auto& s : shapes)
    for (auto& q : reqs) {
      gd::SplitRequest r{gd::DTypeIn::bf16, gd::DTypeOut::bf16, true, s[0], s[1], s[2], 132};
      r.max_workspace_bytes = std::size_t{32} << 20;
      r.mode = q.mode;
      r.slices = q.slices;
      r.cluster = q.cluster;
      const gd::SplitChoice c = gd::choose_split(r);
      std::printf("%lldx%lldx%lld %s -> %s x%d c%d est %.2f\n", s[0], s[1], s[2], q.name,
                  c.index >= 0 ? gd::kernel_info(c.index).name : "ERR", c.slices, c.cluster, c.predicted_us);
    }
}
