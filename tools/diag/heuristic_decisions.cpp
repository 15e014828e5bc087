// heuristic_decisions: what the sm90 heuristic chooses, shape by shape, without a GPU. The one
// shared copy of the offline decision dumps that sessions 20-22 carried per experiment folder.
//
//   graphgemm_heuristic_decisions [nk|kn] [bf16|fp32] [SMS] < shapes     ("M N K" per line)
//
// B stored N x K (nk, default) or K x N (kn); bf16 inputs, D bf16 (default) or fp32; SMS streaming
// multiprocessors (default 132, the H100 SXM); a 32 MiB workspace. Per shape, one line for the
// automatic choice (c0), one per split_k_cluster request of 2 / 4 / 8 (parallel) and one for serial
// split-K in 2 slices (s2: the kernel the model takes for it):
//   cC MxNxK KERNEL MODE slices S cluster C predicted US | EXPLANATION
// tools/diag/compare_decisions.py diffs two dumps' automatic choices (e.g. before / after a model
// change: build this target at both commits, or link another sm90_heuristic.cpp ahead of the
// library).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backends/sm90_heuristic.hpp"
#include "kernels/sm90_gemm_instances.hpp"

namespace gd = graphgemm::detail::sm90;
namespace gk = graphgemm::kernels::sm90;

int main(int argc, char** argv) {
  bool b_k_major = true;
  gd::DTypeOut out = gd::DTypeOut::bf16;
  int sms = 132;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "nk")) b_k_major = true;
    else if (!std::strcmp(argv[i], "kn")) b_k_major = false;
    else if (!std::strcmp(argv[i], "bf16")) out = gd::DTypeOut::bf16;
    else if (!std::strcmp(argv[i], "fp32")) out = gd::DTypeOut::fp32;
    else if (std::atoi(argv[i]) > 0) sms = std::atoi(argv[i]);
    else {
      std::fprintf(stderr, "usage: %s [nk|kn] [bf16|fp32] [SMS] < shapes (\"M N K\" lines)\n", argv[0]);
      return 2;
    }
  }
  long long m, n, k;
  while (std::scanf("%lld %lld %lld", &m, &n, &k) == 3) {
    for (int cl : {0, 2, 4, 8, -1}) {
      gd::SplitRequest r{gd::DTypeIn::bf16, out, b_k_major, m, n, k, sms};
      r.max_workspace_bytes = std::size_t{32} << 20;
      if (cl > 0) {
        r.cluster = cl;
        r.mode = graphgemm::SplitKMode::parallel;
      } else if (cl < 0) {
        r.mode = graphgemm::SplitKMode::serial;
        r.slices = 2;
      }
      const gd::SplitChoice c = gd::choose_split(r);
      const char* mode = gk::split_mode_name(c.mode);
      std::printf("%s%d %lldx%lldx%lld %s %s slices %d cluster %d predicted %.2f | %s\n", cl < 0 ? "s" : "c",
                  cl < 0 ? 2 : cl, m, n, k,
                  c.index >= 0 ? gd::kernel_info(c.index).name : "ERR", mode, c.slices, c.cluster, c.predicted_us,
                  c.index >= 0 ? c.explanation.c_str() : c.error.message().c_str());
    }
  }
  return 0;
}
