// Reads cells.tsv (tag M N K key kernel mode slices cluster measured pred_in_run) and prints the
// model's estimate_us for each cell beside the measurement (bf16, B N x K, 132 SMs).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include "backends/sm90_heuristic.hpp"
#include "kernels/sm90_gemm_instances.hpp"
namespace gd = graphgemm::detail::sm90;
namespace gk = graphgemm::kernels::sm90;
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream is(line);
    std::string tag, key, kern, mode, pred_run;
    int pdl_run = -1;
    long long m, n, k;
    int slices, cluster;
    double meas;
    is >> tag >> m >> n >> k >> key >> kern >> mode >> slices >> cluster >> meas >> pred_run >> pdl_run;
    const int i = gd::find_kernel(kern.c_str());
    if (i < 0) { std::printf("%s\tNOKERNEL\n", line.c_str()); continue; }
    const gk::SplitMode sm = mode == "parallel" ? gk::SplitMode::parallel
                           : mode == "serial"   ? gk::SplitMode::serial
                           : mode == "stream_k" ? gk::SplitMode::stream_k : gk::SplitMode::none;
    const double t = gd::estimate_us(gd::kernel_info(i), m, n, k, 132, sm, slices, cluster, 0);
    const bool pdl = gd::programmatic_launch(graphgemm::ProgrammaticLaunch::automatic, gd::kernel_info(i), m, n, slices,
                                             cluster, 132);
    // rank: what choose_split ranks split candidates by (a programmatic workspace split gains kSplitPdlGainUs = 1.9)
    const bool ws = sm != gk::SplitMode::none && slices > 1 && cluster <= 1;
    const double rank = t - (ws && pdl ? 1.9 : 0.0);
    std::printf("%s\t%lldx%lldx%lld\t%s\t%s\t%d\t%d\t%.3f\t%s\t%.2f\t%d\t%d\t%.2f\n", tag.c_str(), m, n, k, kern.c_str(),
                mode.c_str(), slices, cluster, meas, pred_run.c_str(), t, pdl_run, int(pdl), rank);
  }
}
