// l2_intake_probe: how fast one SM takes in operand bytes that are already in L2, stage by stage
// (diagnostics, issue 3).
//
// At llm M = 128 / 256 every CTA of a GEMM reads its A rows and its B rows over all of K, and most
// of those bytes are L2 hits (A is shared by every CTA of an M block, B by every M block): session
// 38's chain trace put the SMs' intake near 100 GB/s an SM there, and the heuristic's split model
// fits 150 GB/s (kSmBytesPerUs). Here C CTAs (at most one an SM) each stream a tile of R rows x K
// bf16 columns through a shared-memory ring in TMA boxes of 64 columns x R rows (the kernels' B
// stage; B boxes per stage), no arithmetic, from a buffer of D distinct tiles that fits in L2 (CTA
// c reads tile c % D, starting at a k-block of its own so that the CTAs reading one tile are not in
// step), timed like graphgemm_bench (a CUDA graph of back-to-back launches, the median of 7
// replays after a warm-up that reads the tiles into L2). Prints the GB/s each SM takes in and the
// sum over the SMs.
//
// MEASURED (H100, session 42, experiments_s42 calls 7-8): ~0.3 us a stage whatever the stage holds
// (8-32 KB), the ring's depth (3-25 stages) and the CTAs (16-132): 28 GB/s an SM with 8 KB stages,
// 51-55 with 16 KB, 97 with 32 KB (up to 66 CTAs; 132 CTAs: 7.3 TB/s in all). A fixed cost a stage
// that deeper rings do not hide, so bigger stages take in more; not yet reconciled with the GEMM
// kernels, whose main loops run 0.19 us a stage (hidden 4096 chain, session 38).
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -lcuda -o l2_intake_probe tools/diag/l2_intake_probe.cu
//   ./l2_intake_probe [K = 16384] [R = 64] [D = 8] [smem KB for the ring = 200]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"
#include "tma_ring.cuh"

namespace d = graphgemm::kernels::sm90::detail;

namespace {

__global__ void __launch_bounds__(diag::kRingConsumers + 32, 1)
    intake_kernel(const __grid_constant__ CUtensorMap map, int rows, int k, int distinct, int boxes, int stages,
                  int* sink) {
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const uint32_t box_bytes = static_cast<uint32_t>(rows) * 128u;
    const diag::Ring ring = diag::make_ring(smem_raw, box_bytes * boxes, stages);
    const int steps = k / 64 / boxes;
    if (threadIdx.x == diag::kRingConsumers) {  // producer
        const int n0 = static_cast<int>(blockIdx.x % distinct) * rows;
        const int first = static_cast<int>(blockIdx.x / distinct) * 37 % steps;  // CTAs of one tile out of step
        for (int s = 0; s < steps; ++s) {
            const uint32_t full = diag::ring_produce(ring, s, ring.stage_bytes), dst = ring.stage(s);
            const int step = (first + s) % steps;
            for (int b = 0; b < boxes; ++b) d::tma_load_2d(dst + b * box_bytes, &map, full, (step * boxes + b) * 64, n0);
        }
    } else if (threadIdx.x < diag::kRingConsumers) {
        diag::ring_consume(ring, steps, sink);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int k = argc > 1 ? std::atoi(argv[1]) : 16384;
    const int rows = argc > 2 ? std::atoi(argv[2]) : 64;
    const int distinct = argc > 3 ? std::atoi(argv[3]) : 8;
    const int smem_kb = argc > 4 ? std::atoi(argv[4]) : 200;
    if (k % 512 || rows < 8 || rows > 256 || rows % 8 || distinct < 1) {
        std::fprintf(stderr, "usage: %s [K (a multiple of 512)] [R (8..256, a multiple of 8)] [D >= 1] [ring KB]\n", argv[0]);
        return 2;
    }
    int dev = 0, sms = 0, l2 = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t tile_bytes = size_t(rows) * k * 2, bytes = tile_bytes * distinct;
    if (bytes > size_t(l2) / 2) {
        std::fprintf(stderr, "%.1f MB of tiles do not fit half of L2 (%.1f MB): fewer tiles or a shorter K\n", bytes / 1e6,
                     l2 / 1e6);
        return 2;
    }
    char* buf = nullptr;
    DIAG_CHECK(cudaMalloc(&buf, bytes));
    diag::fill_words<<<264, 256>>>(reinterpret_cast<uint32_t*>(buf), bytes / 4, 77);
    int* sink = nullptr;
    DIAG_CHECK(cudaMalloc(&sink, 4));
    DIAG_CHECK(cudaFuncSetAttribute(intake_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    cudaStream_t stream;
    DIAG_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUtensorMap map;
    DIAG_CHECK(d::encode_tma_2d(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, buf, k, uint64_t(rows) * distinct,
                                uint64_t(k) * 2, 64, rows, CU_TENSOR_MAP_L2_PROMOTION_L2_256B));
    std::printf("L2-resident tiles: %d x %d rows x K %d bf16 (%.1f MB; L2 %.1f MB), %.2f MB a CTA\n", distinct, rows, k,
                bytes / 1e6, l2 / 1e6, tile_bytes / 1e6);
    std::printf("%5s %6s %7s %9s %10s %9s\n", "CTAs", "boxes", "stages", "us", "GB/s an SM", "sum TB/s");
    std::vector<int> ctas_list = {sms, sms * 3 / 4, sms / 2, sms / 4, sms / 8};
    for (const int boxes : {1, 2}) {
        const int stage_bytes = rows * 128 * boxes;
        const int stages = std::min(smem_kb * 1024 / stage_bytes, k / 64 / boxes);
        const int smem = stages * stage_bytes + 16 * stages + 1024;
        for (const int ctas : ctas_list) {
            if (ctas < 1) continue;
            const int reps = std::max(4, static_cast<int>(2000.0 / (tile_bytes / 100e3)));  // ~2 ms a graph at 100 GB/s
            cudaGraph_t g;
            DIAG_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
            for (int r = 0; r < reps; ++r)
                intake_kernel<<<ctas, diag::kRingConsumers + 32, smem, stream>>>(map, rows, k, distinct, boxes, stages, sink);
            DIAG_CHECK(cudaStreamEndCapture(stream, &g));
            cudaGraphExec_t ge;
            DIAG_CHECK(cudaGraphInstantiate(&ge, g, 0));
            DIAG_CHECK(cudaGraphLaunch(ge, stream));  // warm-up: the tiles into L2
            const float us = replay_us_per_launch(ge, stream, reps, 7)[3];
            std::printf("%5d %6d %7d %9.2f %10.1f %9.2f\n", ctas, boxes, stages, us, tile_bytes / us / 1e3,
                        ctas * tile_bytes / us / 1e6);
            DIAG_CHECK(cudaGraphExecDestroy(ge));
            DIAG_CHECK(cudaGraphDestroy(g));
        }
    }
    return 0;
}
