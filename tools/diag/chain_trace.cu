// chain_trace: where a GEMM chain's time goes, layer by layer and CTA by CTA (diagnostics, issue 4).
//
// Builds the chain kernel (sm90_gemm_chain.cuh) with GRAPHGEMM_SM90_TRACE, which makes every CTA
// record %globaltimer per layer l (< 4): the producer starting to wait for the layer before (4l),
// the wait over (4l + 1), the consumers' main loop done (4l + 2), the tile handed over (4l + 3).
// Times a CUDA graph of back-to-back chains (setup + chain kernel each, the weights from DRAM where
// 4 x hidden^2 bf16 exceeds L2), then prints, for the last chain, each event's spread over the CTAs
// with a tile in that layer, in µs after the first CTA acquired the table, and per hand-over: the
// last tile handed over -> the producers' waits over, and the main loops' length; and, one chain a
// graph launch (as the graph bench's pipelined steps), the setup kernel's cost a step (the chain
// with and without it).
//
//   nvcc -std=c++20 -arch=sm_90a -O3 --expt-relaxed-constexpr -Iinclude -lcuda -o chain_trace tools/diag/chain_trace.cu
//   ./chain_trace HIDDEN M [64x64|64x128|pair (64x64 at M <= small_max_m, else 64x128)] [max_m (256)] [pdl|-]
//
// Before timing, it runs the chain once with x_0's box as the library encodes it (M rounded up to 8
// rows where M < 64) and once with the full 64-row box, and says whether the outputs are bit for bit
// equal and fully written; CHAIN_FULL_BOX=1 in the environment times and traces the full box
// (session 38's A/B).
//
// NOTES: trace builds compile the kernels differently from the library (sm90_trace's NOTES); time
// changes with graphgemm_chain_sweep, use this for where the time goes.
#define GRAPHGEMM_SM90_TRACE 1

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_chain.cuh"
#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"

#include "diag_check.cuh"

namespace k = graphgemm::kernels::sm90;

namespace {

__global__ void fill(__nv_bfloat16* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u;
        h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
        p[i] = __float2bfloat16((static_cast<int>(h & 0xffff) - 32768) / 32768.0f * 0.05f);
    }
}

using Tile64x64 = k::GemmConfig<__nv_bfloat16, __nv_bfloat16, 64, 64, 13, 1, 1, true>;
using Tile64x128 = k::GemmConfig<__nv_bfloat16, __nv_bfloat16, 64, 128, 8, 1, 1, true>;

struct Stats {
    double min, p10, med, p90, max;
};
Stats stats(std::vector<double> v) {
    if (v.empty()) return {0, 0, 0, 0, 0};
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) { return v[static_cast<size_t>(q * (v.size() - 1) + 0.5)]; };
    return {v.front(), at(0.1), at(0.5), at(0.9), v.back()};
}

template <class Chain>
int run(int hidden, int m, int max_m, bool pdl) {
    constexpr int kLayers = 4;
    int dev = 0, sms = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DIAG_CHECK(Chain::initialize(dev));
    const size_t w_elems = size_t(hidden) * hidden;
    std::vector<__nv_bfloat16*> w(kLayers);
    for (int l = 0; l < kLayers; ++l) {
        DIAG_CHECK(cudaMalloc(&w[l], w_elems * 2));
        fill<<<264, 256>>>(w[l], w_elems, 100 + l);
    }
    __nv_bfloat16 *x = nullptr, *y = nullptr;
    DIAG_CHECK(cudaMalloc(&x, size_t(max_m) * hidden * 2));
    DIAG_CHECK(cudaMalloc(&y, size_t(max_m) * hidden * 2));
    fill<<<264, 256>>>(x, size_t(max_m) * hidden, 1);
    int n[kLayers];
    for (int l = 0; l < kLayers; ++l) n[l] = hidden;
    const auto ws_layout = Chain::workspace_layout(max_m, kLayers, n);
    void* ws = nullptr;
    DIAG_CHECK(cudaMalloc(&ws, ws_layout.total));

    k::ChainProblem p;
    p.m = m, p.max_m = max_m;
    p.x = x, p.ldx = hidden, p.y = y, p.ldy = hidden;
    p.layers = kLayers;
    for (int l = 0; l < kLayers; ++l) {
        p.layer[l].w = w[l];
        p.layer[l].ldw = hidden;
        p.layer[l].n = hidden;
        p.layer[l].k = hidden;
    }
    p.workspace = ws, p.workspace_bytes = ws_layout.total;
    p.programmatic = pdl;
    typename Chain::LaunchArgs la;
    DIAG_CHECK(Chain::make_launch_args(p, sms, la));
    // The same chain with x_0's box of BlockM rows (as before session 38) where M < BlockM: its
    // output must be bit for bit the library's; CHAIN_FULL_BOX=1 times and traces that one.
    typename Chain::LaunchArgs full = la;
    full.step.a0_rows = Chain::Config::kBlockM;
    DIAG_CHECK(k::detail::encode_tma_2d(&full.step.tma_in, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, x, hidden, m, uint64_t(hidden) * 2,
                                        Chain::Config::kBoxAInner, Chain::Config::kBoxAOuter));
    {
        std::vector<unsigned short> y_lib(size_t(m) * hidden), y_full(size_t(m) * hidden);
        cudaStream_t s0 = nullptr;
        DIAG_CHECK(cudaMemset(y, 0xff, size_t(max_m) * hidden * 2));
        DIAG_CHECK(Chain::launch(la, s0));
        DIAG_CHECK(cudaMemcpy(y_lib.data(), y, y_lib.size() * 2, cudaMemcpyDeviceToHost));
        DIAG_CHECK(cudaMemset(y, 0xff, size_t(max_m) * hidden * 2));
        DIAG_CHECK(Chain::launch(full, s0));
        DIAG_CHECK(cudaMemcpy(y_full.data(), y, y_full.size() * 2, cudaMemcpyDeviceToHost));
        size_t poisoned = 0;
        for (unsigned short v : y_lib) poisoned += v == 0xffff;
        std::printf("x_0 box of %d rows: output bit for bit that of the %d-row box: %s (%zu of %zu elements still poison)\n",
                    la.step.a0_rows, full.step.a0_rows,
                    std::memcmp(y_lib.data(), y_full.data(), y_lib.size() * 2) == 0 ? "yes" : "NO", poisoned, y_lib.size());
    }
    if (const char* e = std::getenv("CHAIN_FULL_BOX"); e != nullptr && std::atoi(e) != 0) la = full;

    cudaStream_t st;
    DIAG_CHECK(cudaStreamCreate(&st));
    for (int i = 0; i < 3; ++i) DIAG_CHECK(Chain::launch(la, st));  // warm-up
    DIAG_CHECK(cudaStreamSynchronize(st));
    const int reps = 20;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int r = 0; r < reps; ++r) DIAG_CHECK(Chain::launch(la, st));
    DIAG_CHECK(cudaStreamEndCapture(st, &graph));
    DIAG_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    DIAG_CHECK(cudaGraphUpload(exec, st));
    const std::vector<float> per_chain = replay_us_per_launch(exec, st, reps, 7);

    // One chain a graph launch, as the graph bench's pipelined steps: `reps` executable graphs of
    // (a) the setup and the chain kernel (the library's launch) and (b) the chain kernel alone
    // (the table written once beforehand, each graph's chain with counters of its own, zeroed
    // before the round outside the timed span), launched back to back, the rounds' median per
    // chain: (a) - (b) is what the setup kernel costs a step.
    double step_us[2] = {0, 0};
    {
        int* counters = nullptr;
        const size_t cbytes = ws_layout.counter_bytes;
        DIAG_CHECK(cudaMalloc(&counters, cbytes * reps));
        cudaEvent_t e0, e1;
        DIAG_CHECK(cudaEventCreate(&e0));
        DIAG_CHECK(cudaEventCreate(&e1));
        for (int mode = 0; mode < 2; ++mode) {
            std::vector<cudaGraphExec_t> execs(reps);
            for (int r = 0; r < reps; ++r) {
                cudaGraph_t g1;
                DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
                if (mode == 0) {
                    DIAG_CHECK(Chain::launch(la, st));
                } else {
                    k::detail::ChainStepParams cp = la.step;
                    cp.counters = reinterpret_cast<int*>(reinterpret_cast<char*>(counters) + cbytes * r);
                    cudaLaunchConfig_t cfg = {};
                    cfg.gridDim = la.grid;
                    cfg.blockDim = la.block;
                    cfg.dynamicSmemBytes = la.smem;
                    cfg.stream = st;
                    void* args[1] = {&cp};
                    DIAG_CHECK(cudaLaunchKernelExC(&cfg, Chain::chain_function(), args));
                }
                DIAG_CHECK(cudaStreamEndCapture(st, &g1));
                DIAG_CHECK(cudaGraphInstantiate(&execs[r], g1, 0));
                DIAG_CHECK(cudaGraphUpload(execs[r], st));
                DIAG_CHECK(cudaGraphDestroy(g1));
            }
            DIAG_CHECK(Chain::launch(la, st));  // the table (mode 1 relies on it)
            std::vector<double> per;
            for (int round = 0; round < 8; ++round) {
                DIAG_CHECK(cudaMemsetAsync(counters, 0, cbytes * reps, st));
                DIAG_CHECK(cudaEventRecord(e0, st));
                for (int r = 0; r < reps; ++r) DIAG_CHECK(cudaGraphLaunch(execs[r], st));
                DIAG_CHECK(cudaEventRecord(e1, st));
                DIAG_CHECK(cudaEventSynchronize(e1));
                float ms = 0;
                DIAG_CHECK(cudaEventElapsedTime(&ms, e0, e1));
                if (round > 0) per.push_back(ms * 1000.0 / reps);
            }
            step_us[mode] = stats(per).med;
            for (auto e : execs) DIAG_CHECK(cudaGraphExecDestroy(e));
        }
        DIAG_CHECK(cudaEventDestroy(e0));
        DIAG_CHECK(cudaEventDestroy(e1));
        DIAG_CHECK(cudaFree(counters));
        // The trace below is the timed graph's last chain's.
        DIAG_CHECK(cudaGraphLaunch(exec, st));
        DIAG_CHECK(cudaStreamSynchronize(st));
    }

    static unsigned long long trace[1024][17];
    DIAG_CHECK(cudaMemcpyFromSymbol(trace, k::detail::g_chain_trace, sizeof trace));
    const int grid = static_cast<int>(la.grid.x);
    // Every CTA records event 0 in every chain; the last chain's lie within a few µs of each other.
    unsigned long long last_entry = 0;
    for (int c = 0; c < grid && c < 1024; ++c) last_entry = std::max(last_entry, trace[c][0]);
    unsigned long long t0 = last_entry;
    for (int c = 0; c < grid && c < 1024; ++c)
        if (trace[c][0] + 50'000ull >= last_entry) t0 = std::min(t0, trace[c][0]);
    const auto recorded = [&](int c, int e) { return trace[c][e] >= t0 && trace[c][e] - t0 < 10'000'000ull; };
    const auto us = [&](int c, int e) { return (trace[c][e] - t0) / 1000.0; };

    const int small_max_m = la.step.small_max_m;
    std::printf("%s hidden %d, M %d (max_m %d%s), %d layers, x_0 box %d rows: grid %d CTAs, %s; per chain in a graph of %d: median %.2f us "
                "(min %.2f); weights %.1f MB\n",
                Chain::name(), hidden, m, max_m, pdl ? ", programmatic" : "", kLayers, la.step.a0_rows, grid,
                Chain::kTwoTiles ? (m <= small_max_m ? "the small-M tile" : "the large tile") : "one tile", reps,
                per_chain[per_chain.size() / 2], per_chain.front(), kLayers * w_elems * 2 / 1e6);
    std::printf("  one chain a graph launch: setup + chain %.2f us, chain alone %.2f us (the setup kernel: %.2f us a step)\n",
                step_us[0], step_us[1], step_us[0] - step_us[1]);
    static const char* names[4] = {"wait for layer before", "wait over (loads go)", "main loop done", "handed over / stored"};
    std::printf("  %-6s %-24s %5s %8s %8s %8s %8s %8s   (us after the first CTA acquired the table)\n", "layer", "event",
                "CTAs", "min", "p10", "median", "p90", "max");
    for (int l = 0; l < kLayers; ++l) {
        for (int e = 0; e < 4; ++e) {
            std::vector<double> v;
            for (int c = 0; c < grid && c < 1024; ++c)
                if (recorded(c, 4 * l + 2) && recorded(c, 4 * l + e)) v.push_back(us(c, 4 * l + e));
            const Stats s = stats(v);
            std::printf("  %-6d %-24s %5zu %8.2f %8.2f %8.2f %8.2f %8.2f\n", l, names[e], v.size(), s.min, s.p10, s.med, s.p90,
                        s.max);
        }
    }
    std::printf("  per layer: main loop (wait over -> loop done), epilogue (loop done -> handed over), over the CTAs; "
                "stream = weights / (last loop done - first wait over)\n");
    std::printf("  %-6s %22s %22s %10s %26s\n", "layer", "main loop med / max", "epilogue med / max", "stream",
                "hand-over: last in -> waits over min / med / max");
    for (int l = 0; l < kLayers; ++l) {
        std::vector<double> loop, epi, go, done;
        for (int c = 0; c < grid && c < 1024; ++c) {
            if (!recorded(c, 4 * l + 2)) continue;
            loop.push_back(us(c, 4 * l + 2) - us(c, 4 * l + 1));
            epi.push_back(us(c, 4 * l + 3) - us(c, 4 * l + 2));
            go.push_back(us(c, 4 * l + 1));
            done.push_back(us(c, 4 * l + 2));
        }
        const Stats sl = stats(loop), se = stats(epi), sg = stats(go), sd = stats(done);
        const double tbs = w_elems * 2 / ((sd.max - sg.min) * 1e-6) / 1e12;
        char handover[64] = "-";
        if (l > 0) {
            double last_in = 0;
            for (int c = 0; c < grid && c < 1024; ++c)
                if (recorded(c, 4 * (l - 1) + 2)) last_in = std::max(last_in, us(c, 4 * (l - 1) + 3));
            std::snprintf(handover, sizeof handover, "%.2f -> %.2f / %.2f / %.2f", last_in, sg.min, sg.med, sg.max);
        }
        std::printf("  %-6d %10.2f / %9.2f %10.2f / %9.2f %8.2f TB/s %s\n", l, sl.med, sl.max, se.med, se.max, tbs, handover);
    }
    DIAG_CHECK(cudaGraphExecDestroy(exec));
    DIAG_CHECK(cudaGraphDestroy(graph));
    for (auto* q : w) DIAG_CHECK(cudaFree(q));
    DIAG_CHECK(cudaFree(x));
    DIAG_CHECK(cudaFree(y));
    DIAG_CHECK(cudaFree(ws));
    DIAG_CHECK(cudaStreamDestroy(st));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s HIDDEN M [64x64|64x128|pair] [max_m] [pdl|-]\n", argv[0]);
        return 2;
    }
    const int hidden = std::atoi(argv[1]), m = std::atoi(argv[2]);
    const std::string tile = argc > 3 ? argv[3] : "pair";
    const int max_m = argc > 4 ? std::atoi(argv[4]) : 256;
    const bool pdl = argc > 5 && std::strcmp(argv[5], "pdl") == 0;
    if (hidden < 64 || hidden % 64 != 0 || m < 1 || m > max_m) {
        std::fprintf(stderr, "HIDDEN a multiple of 64, 1 <= M <= max_m\n");
        return 2;
    }
    if (tile == "64x64") return run<k::GemmChain<Tile64x64>>(hidden, m, max_m, pdl);
    if (tile == "64x128") return run<k::GemmChain<Tile64x128>>(hidden, m, max_m, pdl);
    if (tile == "pair") return run<k::GemmChain<Tile64x64, Tile64x128>>(hidden, m, max_m, pdl);
    std::fprintf(stderr, "unknown tile %s\n", tile.c_str());
    return 2;
}
