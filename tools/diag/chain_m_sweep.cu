// Where a GEMM chain's GPU time goes, M by M (issue 4, docs/sm90_notes.md "Session 30"): the MLP
// workflow draws M from 1..256 with the chain's grid fixed at max_m, so a chain tile that fills
// the SMs at M = 256 leaves most of them idle at M = 16. For each width and M this times
//   chain <tile>   GemmChain forced to each tile (and the automatic one), max_m 256, each timed
//                  --repeat times in turn (#r: the r-th repeat; the spread between them is the noise)
//   4 plans auto   the 4 layers as 4 GemmPlans built for exactly this M (automatic tile and split)
// as GPU time per chain: 20 chains captured back to back in one graph, replayed 5 times after a
// warm-up, CUDA events around each replay (the median). The weights (4 x hidden^2 bf16) stream
// from DRAM at hidden 4096 (128 MB > L2) and from L2 below it. Then: weight bytes / the least time,
// and whether every chain column's output (y poisoned first) is bit for bit the first column's.
// --pdl on: the chains and the plans launch programmatically (the plans otherwise automatic).
//
//   graphgemm_chain_sweep [--hidden 512,1024,4096] [--m 1,16,...] [--layers 4]
//                         [--tiles auto,sm90_bf16_bf16_64x64x64_s13_c1x1_bk,...] [--repeat 1]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "diag_check.cuh"
#include "gpu_support.hpp"
#include "graphgemm/chain.hpp"
#include "graphgemm/gemm.hpp"

using namespace graphgemm;
using support::DeviceBuffer;

namespace {

#define SWEEP_TRY(expr)                                                                  \
  do {                                                                                   \
    const ::graphgemm::Status s_ = (expr);                                               \
    if (!s_.ok()) throw std::runtime_error(std::string(#expr) + ": " + s_.to_string()); \
  } while (0)

std::vector<long> parse_list(const std::string& s) {
  std::vector<long> v;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, ',');) v.push_back(std::stol(t));
  return v;
}

// GPU microseconds of one `enqueue`: `reps` enqueues captured in one graph, the median replay.
double time_us(cudaStream_t s, const std::function<void(cudaStream_t)>& enqueue, int reps = 20, int replays = 5) {
  cudaGraph_t g;
  SUPPORT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < reps; ++i) enqueue(s);
  SUPPORT_CUDA(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t ge;
  SUPPORT_CUDA(cudaGraphInstantiate(&ge, g, 0));
  SUPPORT_CUDA(cudaGraphLaunch(ge, s));  // warm-up
  const std::vector<float> t = replay_us_per_launch(ge, s, reps, replays);
  SUPPORT_CUDA(cudaGraphExecDestroy(ge));
  SUPPORT_CUDA(cudaGraphDestroy(g));
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<long> hiddens = {512, 1024, 4096};
  std::vector<long> ms = {1, 16, 32, 64, 96, 128, 192, 256};
  int layers = 4;
  const long max_m = 256;
  std::vector<std::string> tiles = {"", "sm90_bf16_bf16_64x64x64_s13_c1x1_bk", "sm90_bf16_bf16_64x128x64_s8_c1x1_bk",
                                    "sm90_bf16_bf16_128x128x64_s6_c1x1_bk"};
  int repeat = 1;
  bool pdl = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--hidden") hiddens = parse_list(value());
    else if (a == "--m") ms = parse_list(value());
    else if (a == "--layers") layers = std::stoi(value());
    else if (a == "--repeat") repeat = std::max(1, std::stoi(value()));
    else if (a == "--pdl") pdl = value() == "on";
    else if (a == "--tiles") {  // names, comma-separated; "auto" for the automatic tile
      tiles.clear();
      std::stringstream ss(value());
      for (std::string t; std::getline(ss, t, ',');) tiles.push_back(t == "auto" ? "" : t);
    } else
      throw std::runtime_error("unknown argument " + a + " (--hidden LIST --m LIST --layers L --repeat N --tiles LIST --pdl on|off)");
  }
  std::string why;
  if (!support::has_cuda_device(&why)) {
    std::printf("skipped: no CUDA device (%s)\n", why.c_str());
    return 0;
  }
  // Columns: (tile, repeat); tile "" = the automatic one; the tiles take turns, repeat by repeat.
  struct Column {
    std::string tile;
    int repeat;
  };
  std::vector<Column> columns;
  for (int r = 0; r < repeat; ++r)
    for (const std::string& t : tiles) columns.push_back({t, r});
  cudaStream_t s;
  SUPPORT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  for (const long h : hiddens) {
    std::vector<DeviceBuffer> w, bias, act;
    for (int l = 0; l < layers; ++l) {
      w.emplace_back(h * h * 2);
      bias.emplace_back(h * 2);
      act.emplace_back(max_m * h * 2);
      support::fill_random(w.back().get(), DType::bf16, h * h, 11 + l, 1.0f / 64.0f);
      support::fill_random(bias.back().get(), DType::bf16, h, 31 + l, 0.1f);
    }
    DeviceBuffer x(max_m * h * 2), y(max_m * h * 2), scale(max_m * 4);
    support::fill_random(x.get(), DType::bf16, max_m * h, 5);
    support::fill_random(scale.get(), DType::fp32, max_m, 6, 0.25f);
    SUPPORT_CUDA(cudaDeviceSynchronize());
    std::vector<ChainLayer> cl(layers);
    auto chain_args = [&](long m) {
      for (int l = 0; l < layers; ++l) {
        cl[l].w = MatrixView::transposed_weight(w[l].get(), DType::bf16, h, h);
        cl[l].bias = VectorView{bias[l].get(), DType::bf16, h};
        cl[l].scale_a = VectorView{scale.get(), DType::fp32, m};
      }
      return ChainArgs{MatrixView::row_major(x.get(), DType::bf16, m, h), MatrixView::row_major(y.get(), DType::bf16, m, h), cl};
    };
    std::vector<std::unique_ptr<GemmChain>> chains;
    std::vector<DeviceBuffer> chain_ws;
    std::printf("\nhidden %ld, %d layers, max_m %ld: GPU us per chain (weights %.1f MB)\n", h, layers, max_m,
                layers * h * h * 2 / 1e6);
    std::printf("%6s", "M");
    for (const Column& col : columns) {
      auto c = std::make_unique<GemmChain>();
      ChainOptions o;
      o.max_m = max_m;
      o.sm90_kernel = col.tile;
      o.programmatic_launch = pdl;
      SWEEP_TRY(c->initialize(chain_args(max_m), o));
      chain_ws.emplace_back(c->workspace_size());
      if (col.tile.empty() && col.repeat == 0) std::printf("  [auto: %s]\n%6s", c->describe().c_str(), "");
      const std::string name = col.tile.empty() ? "auto" : col.tile.substr(15, col.tile.find("x64_s") - 15);
      std::printf(" %12s", (name + (repeat > 1 ? " #" + std::to_string(col.repeat) : "")).c_str());
      chains.push_back(std::move(c));
    }
    std::printf(" %12s %8s\n", "4 plans", "TB/s");
    for (const long m : ms) {
      std::printf("%6ld", m);
      double best = 1e30;
      std::vector<unsigned char> first;
      int differ = 0;
      for (std::size_t i = 0; i < chains.size(); ++i) {
        const ChainArgs a = chain_args(m);
        const Workspace ws{chain_ws[i].get(), chain_ws[i].bytes()};
        support::fill_poison(y.get(), DType::bf16, max_m * h, s);
        SWEEP_TRY(chains[i]->run(a, ws, s));
        SUPPORT_CUDA(cudaStreamSynchronize(s));
        const std::vector<unsigned char> out = support::download(a.y);
        if (i == 0) first = out;
        else differ += out != first;
        const double us = time_us(s, [&](cudaStream_t st) { SWEEP_TRY(chains[i]->run(a, ws, st)); });
        best = std::min(best, us);
        std::printf(" %12.2f", us);
      }
      std::vector<std::unique_ptr<GemmPlan>> plans;
      std::vector<GemmArgs> ga;
      for (int l = 0; l < layers; ++l) {
        GemmArgs g;
        g.a = MatrixView::row_major(l == 0 ? x.get() : act[l - 1].get(), DType::bf16, m, h);
        g.b = MatrixView::transposed_weight(w[l].get(), DType::bf16, h, h);
        g.d = MatrixView::row_major(act[l].get(), DType::bf16, m, h);
        g.bias = VectorView{bias[l].get(), DType::bf16, h};
        g.scale_a = VectorView{scale.get(), DType::fp32, m};
        ga.push_back(g);
        GemmOptions o;
        o.backend = Backend::sm90;
        o.programmatic_launch = pdl ? ProgrammaticLaunch::on : ProgrammaticLaunch::automatic;
        plans.push_back(std::make_unique<GemmPlan>());
        SWEEP_TRY(plans.back()->initialize(g, o));
      }
      std::size_t pws = 0;
      for (int l = 0; l < layers; ++l) pws = std::max(pws, plans[l]->workspace_size(ga[l]));
      DeviceBuffer plan_ws(std::max<std::size_t>(pws, 256));
      const double us = time_us(s, [&](cudaStream_t st) {
        for (int l = 0; l < layers; ++l) SWEEP_TRY(plans[l]->run(ga[l], {plan_ws.get(), plan_ws.bytes()}, st));
      });
      std::printf(" %12.2f %8.2f %s  plan l0: %s\n", us, layers * h * h * 2 / (std::min(best, us) * 1e6),
                  differ == 0 ? "bitwise=" : "BITS DIFFER", plans[0]->describe().c_str());
    }
  }
  SUPPORT_CUDA(cudaStreamDestroy(s));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "chain_m_sweep: %s\n", e.what());
  return 1;
}
