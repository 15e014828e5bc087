// tma_stream_probe: how fast a GEMM's weight tiles stream from DRAM, by access pattern (diagnostics).
//
// A decode-sized GEMM (M <= 256) is a stream of B (N x K, row-major): each CTA reads R rows x all
// of K, one k-block (64 columns = 128 bytes of each row) per pipeline stage. This probe reads
// exactly those bytes with the same CTAs and the same shared-memory ring, no arithmetic, in four
// orders, and times each like graphgemm_bench (a CUDA graph of back-to-back launches over operand
// sets larger than 3x L2; median of 7 replays after a warm-up):
//   tma/B/P   stages of B boxes of 64 columns x R rows (128B swizzle), L2 promotion P (0, 128, 256)
//             bytes: the order of our kernels (B = 1), or B consecutive k-blocks per stage;
//   bulk      the CTA's R rows as one contiguous range (the tile spans all of K), in stage-sized
//             cp.async.bulk copies: same bytes, DRAM-friendly order; no GEMM can consume it so.
// Usage: tma_stream_probe N K [R = 64] [smem KB for the ring = 200]
//   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -o tma_stream_probe tools/diag/tma_stream_probe.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"
#include "tma_ring.cuh"

namespace d = graphgemm::kernels::sm90::detail;

namespace {

// mode 0: TMA boxes (boxes per stage `boxes`); mode 1: contiguous bulk copies of `stage_bytes`.
__global__ void __launch_bounds__(diag::kRingConsumers + 32, 1)
    stream_kernel(const __grid_constant__ CUtensorMap map, const char* base, int mode, int rows, int k,
                  int boxes, int stages, int* sink) {
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const uint32_t box_bytes = static_cast<uint32_t>(rows) * 128u;
    const diag::Ring ring = diag::make_ring(smem_raw, box_bytes * boxes, stages);
    const int steps = k / 64 / boxes;  // stages per CTA
    if (threadIdx.x == diag::kRingConsumers) {  // producer
        const int n0 = blockIdx.x * rows;
        const char* tile = base + static_cast<size_t>(n0) * k * 2;
        for (int s = 0; s < steps; ++s) {
            const uint32_t full = diag::ring_produce(ring, s, ring.stage_bytes), dst = ring.stage(s);
            if (mode == 0) {
                for (int b = 0; b < boxes; ++b) d::tma_load_2d(dst + b * box_bytes, &map, full, (s * boxes + b) * 64, n0);
            } else {
                d::bulk_load_1d(dst, tile + static_cast<size_t>(s) * ring.stage_bytes, ring.stage_bytes, full);
            }
        }
    } else if (threadIdx.x < diag::kRingConsumers) {
        diag::ring_consume(ring, steps, sink);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N K [R = 64] [smem KB for the ring = 200]\n", argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]), k = std::atoi(argv[2]);
    const int rows = argc > 3 ? std::atoi(argv[3]) : 64;
    const int smem_kb = argc > 4 ? std::atoi(argv[4]) : 200;
    if (n % rows || k % 256 || rows > 256) {
        std::fprintf(stderr, "N must be a multiple of R (<= 256), K of 256\n");
        return 2;
    }
    int dev = 0, l2 = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t bytes = size_t(n) * k * 2;
    const int sets = static_cast<int>(std::clamp<size_t>(3 * size_t(l2) / bytes + 1, 2, 64));
    std::vector<char*> buf(sets);
    for (int s = 0; s < sets; ++s) {
        DIAG_CHECK(cudaMalloc(&buf[s], bytes));
        diag::fill_words<<<264, 256>>>(reinterpret_cast<uint32_t*>(buf[s]), bytes / 4, 77 + s);
    }
    int* sink = nullptr;
    DIAG_CHECK(cudaMalloc(&sink, 4));
    DIAG_CHECK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    cudaStream_t stream;
    DIAG_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::printf("N %d K %d R %d: %d CTAs, %.1f MB, %d sets\n", n, k, rows, n / rows, bytes / 1e6, sets);
    std::printf("%-16s %6s %7s %9s %8s\n", "pattern", "stages", "stageKB", "us", "TB/s");

    // pattern: mode, boxes per stage, L2 promotion
    struct Pattern {
        int mode, boxes, promo;
    };
    std::vector<Pattern> patterns = {{0, 1, 256}, {0, 1, 128}, {0, 1, 0}, {0, 2, 256}, {0, 4, 256}, {0, 8, 256},
                                     {0, 4, 0},   {1, 1, 0},   {1, 4, 0}};
    for (const Pattern& pt : patterns) {
        const int stage_bytes = rows * 128 * pt.boxes;
        const int stages = std::min(smem_kb * 1024 / stage_bytes, k / 64 / pt.boxes);
        if (stages < 2) continue;
        std::vector<CUtensorMap> maps(sets);
        const CUtensorMapL2promotion promo = pt.promo == 256   ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                             : pt.promo == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                                                               : CU_TENSOR_MAP_L2_PROMOTION_NONE;
        for (int s = 0; s < sets; ++s)  // the kernels' own encoding (B stored N x K), this promotion
            DIAG_CHECK(d::encode_tma_2d(&maps[s], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, buf[s], k, n, uint64_t(k) * 2, 64,
                                        rows, promo));
        const int smem = stages * stage_bytes + 16 * stages + 1024;
        const int reps = std::max(sets, static_cast<int>(2000e3 / (bytes / 3e3)) / sets * sets);  // ~2 ms a graph
        cudaGraph_t g;
        DIAG_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        for (int r = 0; r < reps; ++r)
            stream_kernel<<<n / rows, diag::kRingConsumers + 32, smem, stream>>>(maps[r % sets], buf[r % sets], pt.mode, rows, k,
                                                                     pt.boxes, stages, sink);
        DIAG_CHECK(cudaStreamEndCapture(stream, &g));
        cudaGraphExec_t ge;
        DIAG_CHECK(cudaGraphInstantiate(&ge, g, 0));
        DIAG_CHECK(cudaGraphLaunch(ge, stream));  // warm-up
        const float us = replay_us_per_launch(ge, stream, reps, 7)[3];
        char name[32];
        if (pt.mode == 0) std::snprintf(name, sizeof name, "tma/%d/%d", pt.boxes, pt.promo);
        else std::snprintf(name, sizeof name, "bulk/%dKB", stage_bytes / 1024);
        std::printf("%-16s %6d %7.1f %9.2f %8.3f\n", name, stages, stage_bytes / 1024.0, us, bytes / us / 1e6);
        DIAG_CHECK(cudaGraphExecDestroy(ge));
        DIAG_CHECK(cudaGraphDestroy(g));
    }
    return 0;
}
