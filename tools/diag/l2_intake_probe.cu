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
// MEASURED (H100, session 42, experiments_s42 calls 7-12, SM clock 1975-1996 MHz): ~0.3 us a stage
// whatever the stage holds (8-32 KB), the ring's depth (3-25 stages; one 16 KB stage alone 0.41-0.45
// us), the consumer (the warpgroup or one thread), the CTAs (16-132), the rows' spacing (8 or 32
// KB, padded by 128 / 1024 bytes), whether the tensor map was prefetched and whether each k-block
// also loads an A box from a second map (8 or 64 rows: 0.33 us a stage; 2 x (64 + 64) rows: 0.40,
// 82 GB/s an SM, 10.8 TB/s over 132 CTAs): 28 GB/s an SM with 8 KB stages, 51 with 2 x 8 KB, 55 with
// one 16 KB box, 97 with 2 x 16 KB (up to 66 CTAs; 132 CTAs: 7.3 TB/s in all). Not reconciled
// with the GEMM kernels, whose main loops run 0.19 us a stage of two boxes (hidden 4096 chain,
// session 38).
//
//   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -lcuda -o l2_intake_probe tools/diag/l2_intake_probe.cu
//   ./l2_intake_probe [K = 16384] [R = 64] [D = 8] [smem KB for the ring = 200] [row padding, bytes = 0]
//                     [1: the producer prefetches the tensor map (prefetch.tensormap) first = 0]
//                     [A rows: each k-block also loads a box of that many rows from a second map = 0]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"
#include "tma_ring.cuh"

namespace d = graphgemm::kernels::sm90::detail;

namespace {

// consumer 0: the ring's consumer warpgroup (an mbarrier wait, a shared load, a named barrier and
// an arrive a stage, diag::ring_consume); 1: one thread waits for each stage and frees it. clk:
// CTA 0's %clock64 and %globaltimer at entry and exit (the SM clock it ran at).
__global__ void __launch_bounds__(diag::kRingConsumers + 32, 1)
    intake_kernel(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap map_a, int rows, int k,
                  int distinct, int boxes, int stages, int consumer, int prefetch_map, int a_rows, int* sink,
                  unsigned long long* clk) {
    if (prefetch_map && threadIdx.x == diag::kRingConsumers) d::tma_prefetch_descriptor(&map);
    unsigned long long t0 = 0, c0 = 0;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        c0 = clock64();
    }
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const uint32_t box_bytes = static_cast<uint32_t>(rows) * 128u;
    const uint32_t a_bytes = static_cast<uint32_t>(a_rows) * 128u;  // a box of A rows a k-block (0: none)
    const diag::Ring ring = diag::make_ring(smem_raw, box_bytes * boxes + a_bytes * boxes, stages);
    const int steps = k / 64 / boxes;
    if (threadIdx.x == diag::kRingConsumers) {  // producer
        const int n0 = static_cast<int>(blockIdx.x % distinct) * rows;
        const int first = static_cast<int>(blockIdx.x / distinct) * 37 % steps;  // CTAs of one tile out of step
        for (int s = 0; s < steps; ++s) {
            const uint32_t full = diag::ring_produce(ring, s, ring.stage_bytes), dst = ring.stage(s);
            const int step = (first + s) % steps;
            for (int b = 0; b < boxes; ++b) {
                d::tma_load_2d(dst + b * box_bytes, &map, full, (step * boxes + b) * 64, n0);
                if (a_rows > 0) d::tma_load_2d(dst + boxes * box_bytes + b * a_bytes, &map_a, full, (step * boxes + b) * 64, 0);
            }
        }
    } else if (consumer == 0 && threadIdx.x < diag::kRingConsumers) {
        diag::ring_consume(ring, steps, sink);
    } else if (consumer == 1 && threadIdx.x == 0) {
        for (int s = 0; s < steps; ++s) {
            d::mbar_wait(ring.full(s), ring.parity(s));
            d::mbar_arrive(ring.empty(s));
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long t1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        clk[0] = clock64() - c0;
        clk[1] = t1 - t0;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int k = argc > 1 ? std::atoi(argv[1]) : 16384;
    const int rows = argc > 2 ? std::atoi(argv[2]) : 64;
    const int distinct = argc > 3 ? std::atoi(argv[3]) : 8;
    const int smem_kb = argc > 4 ? std::atoi(argv[4]) : 200;
    const int pad = argc > 5 ? std::atoi(argv[5]) : 0;  // bytes after each row (the leading dimension's padding)
    const int prefetch_map = argc > 6 ? std::atoi(argv[6]) : 0;  // 1: the producer prefetches the tensor map first
    const int a_rows = argc > 7 ? std::atoi(argv[7]) : 0;  // > 0: each k-block also loads an A box of that many rows
    if (a_rows < 0 || a_rows > 256 || a_rows % 8) {
        std::fprintf(stderr, "A rows: 0..256, a multiple of 8\n");
        return 2;
    }
    if (k % 512 || rows < 8 || rows > 256 || rows % 8 || distinct < 1 || pad < 0 || pad % 16) {
        std::fprintf(stderr, "usage: %s [K (a multiple of 512)] [R (8..256, a multiple of 8)] [D >= 1] [ring KB] [row padding, bytes: a multiple of 16]\n", argv[0]);
        return 2;
    }
    const size_t pitch = size_t(k) * 2 + pad;
    int dev = 0, sms = 0, l2 = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t tile_bytes = size_t(rows) * k * 2, bytes = size_t(rows) * distinct * pitch;
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
    unsigned long long* clk = nullptr;
    DIAG_CHECK(cudaMalloc(&clk, 16));
    DIAG_CHECK(cudaFuncSetAttribute(intake_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    cudaStream_t stream;
    DIAG_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    char* buf_a = nullptr;  // A: a_rows x K, its own tensor map (the GEMMs load A and B from two maps a stage)
    DIAG_CHECK(cudaMalloc(&buf_a, size_t(std::max(a_rows, 8)) * k * 2));
    diag::fill_words<<<264, 256>>>(reinterpret_cast<uint32_t*>(buf_a), size_t(std::max(a_rows, 8)) * k / 2, 78);
    CUtensorMap map_a;
    DIAG_CHECK(d::encode_tma_2d(&map_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, buf_a, k, std::max(a_rows, 8), uint64_t(k) * 2,
                                64, std::max(a_rows, 8), CU_TENSOR_MAP_L2_PROMOTION_L2_256B));
    CUtensorMap map;
    DIAG_CHECK(d::encode_tma_2d(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, buf, k, uint64_t(rows) * distinct, pitch, 64,
                                rows, CU_TENSOR_MAP_L2_PROMOTION_L2_256B));
    std::printf("L2-resident tiles: %d x %d rows x K %d bf16, rows %zu bytes apart (%.1f MB; L2 %.1f MB), %.2f MB a CTA; "
                "A rows a k-block: %d\n", distinct, rows, k, pitch, bytes / 1e6, l2 / 1e6, tile_bytes / 1e6, a_rows);
    const size_t cta_bytes = size_t(rows + a_rows) * k * 2;  // B rows and A rows a CTA takes in
    std::printf("%8s %5s %6s %7s %9s %9s %10s %9s %8s\n", "consumer", "CTAs", "boxes", "stages", "us", "us/stage", "GB/s an SM",
                "sum TB/s", "SM MHz");
    std::vector<int> ctas_list = {sms, sms * 3 / 4, sms / 2, sms / 4, sms / 8};
    for (const int consumer : {0, 1})
    for (const int boxes : {1, 2}) {
        const int stage_bytes = (rows + a_rows) * 128 * boxes;
        const int stages = std::min(smem_kb * 1024 / stage_bytes, k / 64 / boxes);
        const int smem = stages * stage_bytes + 16 * stages + 1024;
        for (const int ctas : ctas_list) {
            if (ctas < 1) continue;
            const int reps = std::max(4, static_cast<int>(2000.0 / (tile_bytes / 100e3)));  // ~2 ms a graph at 100 GB/s
            cudaGraph_t g;
            DIAG_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
            for (int r = 0; r < reps; ++r)
                intake_kernel<<<ctas, diag::kRingConsumers + 32, smem, stream>>>(map, map_a, rows, k, distinct, boxes,
                                                                                 stages, consumer, prefetch_map, a_rows,
                                                                                 sink, clk);
            DIAG_CHECK(cudaStreamEndCapture(stream, &g));
            cudaGraphExec_t ge;
            DIAG_CHECK(cudaGraphInstantiate(&ge, g, 0));
            DIAG_CHECK(cudaGraphLaunch(ge, stream));  // warm-up: the tiles into L2
            const float us = replay_us_per_launch(ge, stream, reps, 7)[3];
            unsigned long long c[2];
            DIAG_CHECK(cudaMemcpy(c, clk, sizeof c, cudaMemcpyDeviceToHost));
            std::printf("%8s %5d %6d %7d %9.2f %9.3f %10.1f %9.2f %8.0f\n", consumer == 0 ? "wg" : "thread", ctas, boxes,
                        stages, us, us / (k / 64 / boxes), cta_bytes / us / 1e3, ctas * cta_bytes / us / 1e6,
                        c[1] ? 1e3 * c[0] / c[1] : 0.0);
            DIAG_CHECK(cudaGraphExecDestroy(ge));
            DIAG_CHECK(cudaGraphDestroy(g));
        }
    }
    return 0;
}
