// Diagnostic (issue 3): sustained GEMM throughput with the GPU's clock and power beside it.
// Compute-bound GEMMs on an H100 run into its power limit and the SM clock drops; the bench's
// graph replays time them at whatever clock that gives. This probe runs each backend's GEMM back to
// back for `seconds` per turn (the backends take turns, `rounds` times), while nvidia-smi samples
// the SM clock, power and the clock-event reasons every 50 ms; each turn prints its achieved TFLOP/s
// and the samples' medians inside it (the first 30% of a turn dropped: the clock settles). Equal
// clocks and power with unequal TFLOP/s: the kernels differ in cycles per FLOP; equal power with
// unequal clocks: in energy per FLOP.
//
//   graphgemm_clock_probe MxNxK[,MxNxK...] [backend,...] [seconds=3] [rounds=2]
//   backends: cublaslt, sm90 (automatic), or sm90=<kernel name>; default cublaslt,sm90
//   (bench/CMakeLists.txt builds it; needs nvidia-smi on PATH)
#include <signal.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "gpu_support.hpp"
#include "graphgemm/gemm.hpp"

#include "diag_check.cuh"

namespace gg = graphgemm;
using graphgemm::bench::split_list;
using graphgemm::support::DeviceBuffer;

namespace {

// nvidia-smi's pid while it samples: ended at any exit, also DIAG_CHECK's std::exit on an error.
long g_smi_pid = 0;
void end_sampling() {
  if (g_smi_pid) kill(static_cast<pid_t>(g_smi_pid), SIGTERM);
  g_smi_pid = 0;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Uniform in [-0.5, 0.5) (not support::fill_random's normal values: the inputs of session 33's
// figures; a tensor core's power depends on its operands' bits).
__global__ void fill_uniform(__nv_bfloat16* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    p[i] = __float2bfloat16(((x & 0xffff) / 65536.0f - 0.5f));
  }
}

struct Sample {
  double t_ms, sm_mhz, watts;
  std::string reasons;
};

// nvidia-smi's CSV lines "sm MHz, W, reasons" until the pipe ends. nvidia-smi's own timestamp has
// one-second resolution, so each line is stamped when this process reads it.
std::vector<Sample> read_samples(FILE* pipe) {
  std::vector<Sample> out;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    auto f = split_list(line);
    if (f.size() < 3) continue;
    Sample s{now_ms(), std::atof(f[0].c_str()), std::atof(f[1].c_str()), f[2]};
    if (!s.reasons.empty() && s.reasons.back() == '\n') s.reasons.pop_back();
    out.push_back(s);
  }
  return out;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MxNxK[,MxNxK...] [backend,...] [seconds=3] [rounds=2]\n", argv[0]);
    return 2;
  }
  const auto shapes = split_list(argv[1]);
  const auto backends = split_list(argc > 2 ? argv[2] : "cublaslt,sm90");
  const double seconds = argc > 3 ? std::atof(argv[3]) : 3.0;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 2;
  for (const auto& be : backends)
    if (be != "cublaslt" && be != "sm90" && be.rfind("sm90=", 0) != 0) {
      std::fprintf(stderr, "unknown backend %s: cublaslt, sm90 or sm90=<kernel name>\n", be.c_str());
      return 2;
    }

  // nvidia-smi samples in the background (a shell that prints its pid first, so that it can be
  // ended); a reader thread stamps the lines as they arrive, until the pipe ends.
  FILE* smi = popen("nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.active "
                    "--format=csv,noheader,nounits -lms 50 & echo \"pid $!\"; wait", "r");
  char line[512];
  // The pid line may come after nvidia-smi's first samples: skip those.
  for (int i = 0; smi && g_smi_pid == 0 && i < 16 && std::fgets(line, sizeof line, smi); ++i)
    std::sscanf(line, "pid %ld", &g_smi_pid);
  if (g_smi_pid == 0) {
    std::fprintf(stderr, "cannot start nvidia-smi\n");
    return 1;
  }
  // From here on errors leave through std::exit (as DIAG_CHECK does): a return would destroy the
  // running reader thread (std::terminate) and skip end_sampling.
  std::atexit(end_sampling);
  std::vector<Sample> samples;
  std::thread reader([&] { samples = read_samples(smi); });

  cudaStream_t st;
  DIAG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  struct Turn { std::string shape, backend; int round; double t0, t1, tflops; long long launches; };
  std::vector<Turn> turns;
  for (const auto& shape : shapes) {
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(shape.c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3) { std::fprintf(stderr, "bad shape %s\n", shape.c_str()); std::exit(2); }
    const DeviceBuffer a(m * k * 2), b(n * k * 2), d(m * n * 2);
    fill_uniform<<<528, 256, 0, st>>>(a.as<__nv_bfloat16>(), m * k, 1);
    fill_uniform<<<528, 256, 0, st>>>(b.as<__nv_bfloat16>(), n * k, 2);
    gg::GemmArgs args;
    args.a = gg::MatrixView::row_major(a.get(), gg::DType::bf16, m, k);
    args.b = gg::MatrixView::transposed_weight(b.get(), gg::DType::bf16, n, k);
    args.d = gg::MatrixView::row_major(d.get(), gg::DType::bf16, m, n);
    std::vector<gg::GemmPlan> plans(backends.size());
    std::vector<DeviceBuffer> ws(backends.size());
    for (size_t i = 0; i < backends.size(); ++i) {
      gg::GemmOptions o;
      const auto& be = backends[i];
      o.backend = be == "cublaslt" ? gg::Backend::cublaslt : gg::Backend::sm90;
      if (be.rfind("sm90=", 0) == 0) o.sm90_kernel = be.substr(5);
      if (auto s = plans[i].initialize(args, o); !s.ok()) { std::fprintf(stderr, "%s: %s\n", be.c_str(), s.message().c_str()); std::exit(1); }
      ws[i] = DeviceBuffer(plans[i].workspace_size(args));
      std::printf("%s %s: %s\n", shape.c_str(), be.c_str(), plans[i].describe().c_str());
    }
    const double flop = 2.0 * m * n * k;
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < backends.size(); ++i) {
        const gg::Workspace w{ws[i].get(), ws[i].bytes()};
        DIAG_CHECK(cudaStreamSynchronize(st));
        const double t0 = now_ms();
        long long launches = 0;
        // Batches of launches, synchronized per batch so the host never runs far ahead.
        while (now_ms() - t0 < seconds * 1000) {
          for (int j = 0; j < 8; ++j, ++launches)
            if (auto s = plans[i].run(args, w, st); !s.ok()) { std::fprintf(stderr, "%s\n", s.message().c_str()); std::exit(1); }
          DIAG_CHECK(cudaStreamSynchronize(st));
        }
        const double t1 = now_ms();
        turns.push_back({shape, backends[i], r, t0, t1, flop * launches / ((t1 - t0) * 1e-3) / 1e12, launches});
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a short cool-down between turns
      }
  }
  end_sampling();  // nvidia-smi ends, the shell's wait returns, the pipe ends
  reader.join();
  pclose(smi);

  std::printf("\n%-18s %-46s %5s %9s %9s %8s %7s  %s\n", "shape", "backend", "round", "TFLOP/s", "launches", "sm MHz", "W", "clock-event reasons (most frequent)");
  for (const auto& t : turns) {
    const double from = t.t0 + 0.3 * (t.t1 - t.t0);
    std::vector<double> mhz, w;
    std::vector<std::string> why;
    for (const auto& s : samples)
      if (s.t_ms >= from && s.t_ms <= t.t1) { mhz.push_back(s.sm_mhz); w.push_back(s.watts); why.push_back(s.reasons); }
    std::sort(why.begin(), why.end());
    std::string common;
    size_t best = 0;
    for (size_t i = 0; i < why.size();) {
      size_t j = i;
      while (j < why.size() && why[j] == why[i]) ++j;
      if (j - i > best) { best = j - i; common = why[i]; }
      i = j;
    }
    std::printf("%-18s %-46s %5d %9.1f %9lld %8.0f %7.1f  %s (%zu samples)\n", t.shape.c_str(), t.backend.c_str(), t.round,
                t.tflops, t.launches, median(mhz), median(w), common.c_str(), mhz.size());
  }
  return 0;
}
