// sm90_trace: where the time of one sm90 GEMM launch goes, CTA by CTA (diagnostics).
//
// Builds the kernel (cooperative, or swap-AB: tiles sw16x64...) with GRAPHGEMM_SM90_TRACE, which
// makes every CTA record %globaltimer at 8 events (sm90_gemm.cuh: entry, barriers ready, first TMA
// issued, first stage arrived, last main loop done, last unit stored / handed off, split-K
// reduction done, stores drained). Times a CUDA graph of back-to-back launches over operand sets
// larger than L2 (as graphgemm_bench does), then prints, for the last launch, each event's min /
// median / max over the CTAs in µs after the earliest CTA entry, beside the per-launch time of the
// graph. SM90_TRACE_SETS=N in the environment sets the number of operand sets (1: operands and code
// stay in L2); SM90_TRACE_CTAS=1 also lists every CTA with work by SM (first stage, last main
// loop, last hand-off; in stream-K also when its first shared unit's main loop began and ended:
// experiments_s53/tail.py reads them); SM90_TRACE_KB=FILE writes the producers' k-block issue
// times (every 8th k-block of the first unit) and prints how far apart the CTAs sharing an A tile
// issue them.
// SM90_TRACE_PAD_A=R / SM90_TRACE_PAD_D=R encode A's (for swap-AB the tokens') / D's tensor map over
// R >= M rows of a buffer that has them (no out-of-bounds box).
//
//   nvcc -std=c++20 -arch=sm_90a -O3 --expt-relaxed-constexpr -Iinclude -lcuda -o sm90_trace tools/diag/sm90_trace.cu
//   ./sm90_trace M N K [64|128 (cooperative tile BM: 64x128, 128x128) | 64x64 | 128x256 | 128x256c2x1 (the library's 2x1-cluster 128x256) | 64c2x1|128c2x1|128x112c2x1 (in 2x1 clusters) | sw16x64|sw16x64x256|sw16x128 (swap-AB tile)] [none|serial|parallel|streamk] [splits (streamk: the CTAs, e.g. 132)] [pdl (programmatic launch)] [cluster (parallel: C CTAs sum their slices)] [full|- (the co-resident grid of graph nodes)] [mlp|bias|scale|w8a8|- (epilogue: bf16 bias and fp32 scale_a, one of them, or both and scale_b)] [memset|- (split-K counters zeroed by a memset node, as before session 13)]
//
// NOTES: time main-loop changes in the library's bench, not here: these trace builds compile the
// kernels differently and spill where the library's do not (session 27: 26-38 bytes in the 128x128
// kernel; a one-tile-per-CTA variant that spills 4 ran 7% faster here at the same stage count, and
// no faster in the library), so a variant can look faster here than it is.
#define GRAPHGEMM_SM90_TRACE 1

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_configs.cuh"
#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"

namespace k = graphgemm::kernels::sm90;

__global__ void fill(__nv_bfloat16* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u;
        h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
        p[i] = __float2bfloat16((static_cast<int>(h & 0xffff) - 32768) / 32768.0f);
    }
}

template <class Config>
int run(int m, int n, int kk, k::SplitMode mode, int splits, bool pdl, int cluster, bool full, int mlp,
        bool memset) {
    using G = k::Gemm<Config>;
    int dev = 0, sms = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DIAG_CHECK(G::initialize(dev));
    const size_t set_bytes = (size_t(m) * kk + size_t(n) * kk + size_t(m) * n) * 2;
    // SM90_TRACE_SETS=N: N operand sets instead (1: everything stays in L2, the code too).
    const char* sets_env = std::getenv("SM90_TRACE_SETS");
    const int sets = sets_env ? std::clamp(std::atoi(sets_env), 1, 32)
                              : static_cast<int>(std::clamp<size_t>(150u * 1024 * 1024 / set_bytes + 1, 1, 32));
    // SM90_TRACE_PAD_A=R / SM90_TRACE_PAD_D=R (R >= M): A's / D's tensor map spans R rows of a
    // buffer that has them, so the last M tile's box is in bounds (session 32: is a mostly
    // out-of-bounds box what makes M just past a tile multiple slow?). The kernel still sees M.
    const auto pad_rows = [m](const char* var) {
        const char* e = std::getenv(var);
        return e != nullptr ? std::max(m, std::atoi(e)) : m;
    };
    const int rows_a = pad_rows("SM90_TRACE_PAD_A"), rows_d = pad_rows("SM90_TRACE_PAD_D");
    std::vector<__nv_bfloat16*> a(sets), b(sets), d(sets);
    for (int s = 0; s < sets; ++s) {
        DIAG_CHECK(cudaMalloc(&a[s], size_t(rows_a) * kk * 2));
        DIAG_CHECK(cudaMalloc(&b[s], size_t(n) * kk * 2));
        DIAG_CHECK(cudaMalloc(&d[s], size_t(rows_d) * n * 2));
        fill<<<264, 256>>>(a[s], size_t(rows_a) * kk, 1 + s);
        fill<<<264, 256>>>(b[s], size_t(n) * kk, 100 + s);
    }
    const size_t ws_bytes = splits > 1 ? G::workspace(m, n, mode, splits, cluster).total() : 0;
    void* ws = nullptr;
    if (ws_bytes) DIAG_CHECK(cudaMalloc(&ws, ws_bytes));
    // mlp: the epilogue of the issue-4 MLP layer (bf16 bias per column, fp32 scale per row).
    __nv_bfloat16* bias = nullptr;
    float* scale = nullptr;
    float* scale_b = nullptr;
    if (mlp) {
        DIAG_CHECK(cudaMalloc(&bias, size_t(n) * 2));
        DIAG_CHECK(cudaMalloc(&scale, size_t(m) * 4));
        DIAG_CHECK(cudaMalloc(&scale_b, size_t(n) * 4));
        fill<<<8, 256>>>(bias, size_t(n), 7);
        DIAG_CHECK(cudaMemset(scale, 0, size_t(m) * 4));
        DIAG_CHECK(cudaMemset(scale_b, 0, size_t(n) * 4));
    }
    cudaStream_t st;
    DIAG_CHECK(cudaStreamCreate(&st));
    std::vector<typename G::LaunchArgs> la(sets);
    for (int s = 0; s < sets; ++s) {
        k::GemmParams p;
        p.m = m, p.n = n, p.k = kk;
        p.a = a[s], p.lda = kk, p.b = b[s], p.ldb = kk, p.d = d[s], p.ldd = n;
        p.split_mode = splits > 1 ? mode : k::SplitMode::none;
        p.splits = splits;
        p.split_cluster = cluster;
        p.workspace = ws, p.workspace_bytes = ws_bytes;
        p.programmatic = pdl;
        if (mlp & 1) p.bias = bias, p.bias_type = k::BiasType::bf16;
        if (mlp & 2) p.scale_a = scale;
        if (mlp & 4) p.scale_b = scale_b;
        DIAG_CHECK(G::make_launch_args(p, sms, la[s], full));
        if constexpr (requires { Config::kEpiCols; }) {  // A M x K and D M x N (swap-AB: D's map unused)
            if (rows_a != m)
                DIAG_CHECK(k::detail::encode_tma_2d(&la[s].tma_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a[s], kk, rows_a,
                                                    uint64_t(kk) * 2, Config::kBoxAInner, Config::kBoxAOuter));
            if (rows_d != m)
                DIAG_CHECK(k::detail::encode_tma_2d(&la[s].tma_d, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, d[s],
                                                    la[s].params.n_tma, rows_d, uint64_t(n) * 2, Config::kEpiCols, 64));
        }
        // memset: split-K counters zeroed as before session 13, by a memset the kernel follows
        // (not programmatically) instead of the launcher's zeroing kernel.
        if (memset && la[s].zero_bytes > 0) la[s].zero_bytes = 0;
    }
    const size_t memset_bytes = memset && ws_bytes ? G::workspace(m, n, mode, splits, cluster).counter_bytes : 0;
    auto launch = [&](int s) {
        if (memset_bytes) DIAG_CHECK(cudaMemsetAsync(ws, 0, memset_bytes, st));
        return G::launch(la[s], st);
    };
    for (int s = 0; s < sets; ++s) DIAG_CHECK(launch(s));  // warm-up
    const int reps = 40;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    DIAG_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int r = 0; r < reps; ++r) DIAG_CHECK(launch(r % sets));
    DIAG_CHECK(cudaStreamEndCapture(st, &graph));
    DIAG_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    const std::vector<float> per_launch = replay_us_per_launch(exec, st, reps, 7);
    // The trace of the last launch of the last replay.
    unsigned long long trace[1024][17];
    DIAG_CHECK(cudaMemcpyFromSymbol(trace, k::detail::g_sm90_trace, sizeof trace));
    const int grid = static_cast<int>(la[0].grid.x);
    unsigned long long t0 = ~0ull;
    for (int c = 0; c < grid && c < 1024; ++c)
        if (trace[c][0]) t0 = std::min(t0, trace[c][0]);
    // Whether CTA c recorded event e in the last launch (slots keep older launches' times).
    const auto recorded = [&](int c, int e) { return trace[c][e] >= t0 && trace[c][e] - t0 < 10'000'000ull; };
    // Programmatic launch: CTAs of the last launch may enter before the previous launch ends; the
    // times below stay relative to the first entry, and "previous grid done" says when it ended.
    const char* names[16] = {"entry", "barriers ready", "first TMA issued", "first stage arrived",
                             "last main loop done", "last unit stored/handed off",
                             "split-K reduction done", "stores drained (exit)",
                             "  epilogue: buffer free", "  epilogue: chunk 0 staged", "  epilogue: chunk 0 TMA issued",
                             "PDL: previous grid done", "PDL: next grid let launch",
                             "  cluster sum: partial in smem", "  cluster sum: rows summed", "  cluster sum: peers done"};
    if (mode == k::SplitMode::stream_k) {  // (no cluster sums in stream-K: the kernel reuses 13 and 14)
        names[13] = "stream-K: first shared unit's main loop begins";
        names[14] = "stream-K: first shared unit's main loop done";
    }
    std::printf("%s %dx%dx%d split %s x%d: grid %d CTAs, %d operand sets, per launch in a graph of %d: "
                "median %.2f us (min %.2f), cluster %d%s%s\n",
                G::name(), m, n, kk, k::split_mode_name(mode),
                splits, grid, sets, reps, per_launch[per_launch.size() / 2], per_launch.front(), cluster,
                full ? ", full grid (graph nodes' co-resident grid)" : "", mlp == 7 ? ", epilogue bias + scale_a + scale_b" : mlp == 3 ? ", epilogue bias + scale_a" : mlp == 1 ? ", epilogue bias" : mlp == 2 ? ", epilogue scale_a" : "");
    // Where the CTAs that had work (a main loop) ran: their SM ids, sorted.
    std::vector<int> busy_sms;
    for (int c = 0; c < grid && c < 1024; ++c)
        if (recorded(c, 4)) busy_sms.push_back(static_cast<int>(trace[c][16]));
    std::sort(busy_sms.begin(), busy_sms.end());
    std::printf("  SMs of the %zu CTAs with work:", busy_sms.size());
    for (int sm : busy_sms) std::printf(" %d", sm);
    std::printf("\n");
    // SM90_TRACE_CTAS=1: every CTA with work, by SM: first stage arrived, last main loop done, last
    // unit stored or handed off (-1: not recorded).
    if (const char* e = std::getenv("SM90_TRACE_CTAS"); e != nullptr && std::atoi(e) != 0) {
        std::vector<std::pair<int, int>> by_sm;  // (SM, CTA)
        for (int c = 0; c < grid && c < 1024; ++c)
            if (recorded(c, 4)) by_sm.push_back({static_cast<int>(trace[c][16]), c});
        std::sort(by_sm.begin(), by_sm.end());
        for (auto [sm, c] : by_sm) {
            std::printf("  cta %4d sm %3d first stage %8.2f main loop done %8.2f stored/handed off %8.2f", c, sm,
                        (trace[c][3] - t0) / 1000.0, (trace[c][4] - t0) / 1000.0,
                        recorded(c, 5) ? (trace[c][5] - t0) / 1000.0 : -1.0);
            if (mode == k::SplitMode::stream_k && recorded(c, 13))  // the first shared unit's main loop
                std::printf(" shared from %8.2f first done %8.2f", (trace[c][13] - t0) / 1000.0,
                            recorded(c, 14) ? (trace[c][14] - t0) / 1000.0 : -1.0);
            std::printf("\n");
        }
    }
    // SM90_TRACE_KB=FILE: the producers' k-block issue times of their first unit (every
    // kKbTraceStride-th k-block) to FILE as CSV (cta, sm, m0, n0, then us after the first entry),
    // and here, per traced k-block, how far apart the CTAs of one M tile (which read the same A
    // tile) issue it: spread (max - min) and the middle 80% (p90 - p10), medians over the M tiles.
    if (const char* f = std::getenv("SM90_TRACE_KB"); f != nullptr && *f) {
        static unsigned long long kbt[1024][2 + k::detail::kKbTraceSlots];
        DIAG_CHECK(cudaMemcpyFromSymbol(kbt, k::detail::g_sm90_kb_trace, sizeof kbt));
        FILE* out = std::fopen(f, "w");
        if (!out) std::fprintf(stderr, "SM90_TRACE_KB: cannot write %s; printing the spreads only\n", f);
        const int kbs = (kk + 63) / 64;
        const int slots = std::min(k::detail::kKbTraceSlots, (kbs + k::detail::kKbTraceStride - 1) / k::detail::kKbTraceStride);
        std::vector<int> ctas;
        for (int c = 0; c < grid && c < 1024; ++c)
            if (recorded(c, 4) && kbt[c][2] >= t0 && kbt[c][2] - t0 < 10'000'000ull) ctas.push_back(c);
        if (out) {
            for (int c : ctas) {
                std::fprintf(out, "%d,%d,%llu,%llu", c, static_cast<int>(trace[c][16]), kbt[c][0], kbt[c][1]);
                for (int i = 0; i < slots; ++i) std::fprintf(out, ",%.3f", (kbt[c][2 + i] - t0) / 1000.0);
                std::fprintf(out, "\n");
            }
            std::fclose(out);
        }
        std::printf("  k-block issue times (first unit), CTAs grouped by M tile (same A tile): spread in us, median over groups\n");
        std::printf("  %8s %10s %10s %10s\n", "k-block", "median t", "max-min", "p90-p10");
        for (int i = 0; i < slots; i += std::max(1, slots / 8)) {
            std::vector<std::pair<unsigned long long, double>> v;  // (m0, t)
            for (int c : ctas) v.push_back({kbt[c][0], (kbt[c][2 + i] - t0) / 1000.0});
            std::sort(v.begin(), v.end());
            std::vector<double> spreads, mids, all;
            for (size_t a = 0; a < v.size();) {
                size_t b = a;
                std::vector<double> g;
                while (b < v.size() && v[b].first == v[a].first) g.push_back(v[b++].second);
                std::sort(g.begin(), g.end());
                if (g.size() >= 4) {
                    spreads.push_back(g.back() - g.front());
                    mids.push_back(g[g.size() * 9 / 10] - g[g.size() / 10]);
                }
                all.insert(all.end(), g.begin(), g.end());
                a = b;
            }
            if (spreads.empty()) continue;
            std::sort(spreads.begin(), spreads.end());
            std::sort(mids.begin(), mids.end());
            std::sort(all.begin(), all.end());
            std::printf("  %8d %10.2f %10.2f %10.2f\n", i * k::detail::kKbTraceStride, all[all.size() / 2],
                        spreads[spreads.size() / 2], mids[mids.size() / 2]);
        }
    }
    std::printf("  %-30s %9s %9s %9s %6s   (us after the first CTA entry, last launch)\n", "event", "min", "median",
                "max", "CTAs");
    for (int e = 0; e < 16; ++e) {
        std::vector<double> v;
        for (int c = 0; c < grid && c < 1024; ++c)
            if (recorded(c, e)) v.push_back((trace[c][e] - t0) / 1000.0);
        if (v.empty()) {
            std::printf("  %-30s %9s\n", names[e], "-");
            continue;
        }
        std::sort(v.begin(), v.end());
        std::printf("  %-30s %9.2f %9.2f %9.2f %6zu\n", names[e], v.front(), v[v.size() / 2], v.back(), v.size());
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s M N K [64|64x64|128|128x256|128x256c2x1|64c2x1|128c2x1|sw16x64|sw16x64x256|sw16x128] [none|serial|parallel|streamk] [splits (streamk: the CTAs, e.g. 132)] [pdl|-] [cluster] [full|-] [mlp|bias|scale|w8a8|-] [memset|-]\n", argv[0]);
        return 2;
    }
    const int m = std::atoi(argv[1]), n = std::atoi(argv[2]), kk = std::atoi(argv[3]);
    const std::string tile = argc > 4 ? argv[4] : "64";
    const std::string ms = argc > 5 ? argv[5] : "none";
    const int splits = argc > 6 ? std::atoi(argv[6]) : 1;
    const bool pdl = argc > 7 && std::string(argv[7]) == "pdl";
    const int cluster = argc > 8 ? std::atoi(argv[8]) : 1;
    const bool full = argc > 9 && std::string(argv[9]) == "full";
    const std::string epi = argc > 10 ? argv[10] : "-";
    const bool memset = argc > 11 && std::string(argv[11]) == "memset";
    const int mlp = epi == "w8a8" ? 7 : epi == "mlp" ? 3 : epi == "bias" ? 1 : epi == "scale" ? 2 : 0;
    const k::SplitMode mode = ms == "parallel" ? k::SplitMode::parallel : ms == "serial" ? k::SplitMode::serial
                              : ms == "streamk" ? k::SplitMode::stream_k : k::SplitMode::none;
    using bf = __nv_bfloat16;
    if (tile == "128") return run<k::GemmConfig<bf, bf, 128, 128, 6, 1, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "64x64") return run<k::GemmConfig<bf, bf, 64, 64, 13, 1, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "64") return run<k::GemmConfig<bf, bf, 64, 128, 8, 1, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "128x256") return run<k::GemmConfig<bf, bf, 128, 256, 4, 1, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "128x256c2x1") return run<k::GemmConfig<bf, bf, 128, 256, 4, 2, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    // Clustered tiles (2x1: the two M tiles of a cluster share B by multicast): 128x112 and 128x128
    // are the library's pair tiles (session 27), 64x128 is not a library instance.
    if (tile == "64c2x1") return run<k::GemmConfig<bf, bf, 64, 128, 8, 2, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "128x112c2x1") return run<k::GemmConfig<bf, bf, 128, 112, 6, 2, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "128c2x1") return run<k::GemmConfig<bf, bf, 128, 128, 6, 2, 1, true>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    // Swap-AB (decode-sized M; split only as slices summed in clusters: parallel S with cluster S).
    if (tile == "sw16x64") return run<k::SwapABConfig<bf, bf, 16, 64, 20>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "sw16x64x256") return run<k::SwapABConfig<bf, bf, 16, 64, 5, 4>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    if (tile == "sw16x128") return run<k::SwapABConfig<bf, bf, 16, 128, 12>>(m, n, kk, mode, splits, pdl, cluster, full, mlp, memset);
    std::fprintf(stderr, "tile: 64, 128, 128x256, 128x256c2x1 (cooperative 64x128 / 128x128 / 128x256), sw16x64, sw16x64x256 or sw16x128 (swap-AB)\n");
    return 2;
}
