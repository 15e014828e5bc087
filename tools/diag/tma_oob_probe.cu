// tma_oob_probe: does a TMA load whose box hangs past the tensor's last row cost more than a full
// box (diagnostics, session 32)?
//
// A GEMM whose M is just past a multiple of the tile's rows has a last M tile with few valid rows:
// its A box (64 or 128 rows x 64 columns, 128B swizzle) is mostly out of bounds and zero-filled by
// the TMA unit. Session 31 measured such GEMMs up to 1.4x slower, the fewer valid rows the slower.
// This probe streams the main loop's loads with no arithmetic: every CTA reads, per stage, one A
// box (64 columns x `box_rows` rows at row 0 of a tensor with `valid` rows, all CTAs the same A as
// in a GEMM's M tile) and, optionally, its own B box (64 columns x 128 rows of an N x K tensor
// larger than L2, as a 64x128 tile's CTA does). Per pattern it prints the time per launch (a CUDA
// graph of back-to-back launches, median of 7 replays) and the time per stage of one CTA.
// Usage: tma_oob_probe [K = 4096] [CTAs = 96]
//   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -lcuda -o tma_oob_probe tools/diag/tma_oob_probe.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

#include "diag_check.cuh"
#include "tma_ring.cuh"

namespace d = graphgemm::kernels::sm90::detail;

namespace {

constexpr int kBRows = 128;

__global__ void __launch_bounds__(diag::kRingConsumers + 32, 1)
    oob_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, int box_rows,
               int with_b, int k, int stages, int* sink) {
    extern __shared__ __align__(16) uint8_t smem_raw[];
    const uint32_t a_bytes = static_cast<uint32_t>(box_rows) * 128u;
    const diag::Ring ring = diag::make_ring(smem_raw, a_bytes + (with_b ? kBRows * 128u : 0u), stages);
    const int steps = k / 64;
    if (threadIdx.x == diag::kRingConsumers) {  // producer
        for (int s = 0; s < steps; ++s) {
            // out-of-bounds bytes count as delivered
            const uint32_t full = diag::ring_produce(ring, s, ring.stage_bytes), dst = ring.stage(s);
            d::tma_load_2d(dst, &map_a, full, s * 64, 0);
            if (with_b) d::tma_load_2d(dst + a_bytes, &map_b, full, s * 64, blockIdx.x * kBRows);
        }
    } else if (threadIdx.x < diag::kRingConsumers) {
        diag::ring_consume(ring, steps, sink);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int k = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int ctas = argc > 2 ? std::atoi(argv[2]) : 96;
    if (k % 64 || ctas < 1) {
        std::fprintf(stderr, "usage: %s [K (multiple of 64) = 4096] [CTAs = 96]\n", argv[0]);
        return 2;
    }
    int dev = 0, l2 = 0;
    DIAG_CHECK(cudaGetDevice(&dev));
    DIAG_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t a_bytes = size_t(128) * k * 2;
    const size_t b_bytes = size_t(ctas) * kBRows * k * 2;
    const int sets = static_cast<int>(std::clamp<size_t>(3 * size_t(l2) / b_bytes + 1, 2, 64));
    char* a = nullptr;
    DIAG_CHECK(cudaMalloc(&a, a_bytes));
    diag::fill_words<<<264, 256>>>(reinterpret_cast<uint32_t*>(a), a_bytes / 4, 5);
    std::vector<char*> b(sets);
    for (int s = 0; s < sets; ++s) {
        DIAG_CHECK(cudaMalloc(&b[s], b_bytes));
        diag::fill_words<<<264, 256>>>(reinterpret_cast<uint32_t*>(b[s]), b_bytes / 4, 77 + s);
    }
    int* sink = nullptr;
    DIAG_CHECK(cudaMalloc(&sink, 4));
    DIAG_CHECK(cudaFuncSetAttribute(oob_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    cudaStream_t stream;
    DIAG_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::vector<CUtensorMap> maps_b(sets);
    for (int s = 0; s < sets; ++s)
        DIAG_CHECK(d::encode_tma_2d(&maps_b[s], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, b[s], k, size_t(ctas) * kBRows,
                                    uint64_t(k) * 2, 64, kBRows));
    std::printf("K %d, %d CTAs, B %.1f MB x %d sets\n", k, ctas, b_bytes / 1e6, sets);
    std::printf("%5s %6s %4s %10s %12s\n", "box", "valid", "B", "us/launch", "ns/stage");
    for (int with_b = 0; with_b < 2; ++with_b) {
        for (int box_rows : {64, 128}) {
            const std::vector<int> valids = box_rows == 64 ? std::vector<int>{64, 48, 32, 16, 8, 2, 1}
                                                           : std::vector<int>{128, 64, 32, 16, 8, 1};
            for (int valid : valids) {
                CUtensorMap map_a;
                DIAG_CHECK(d::encode_tma_2d(&map_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, k, valid, uint64_t(k) * 2, 64,
                                            box_rows));
                const int stage_bytes = box_rows * 128 + (with_b ? kBRows * 128 : 0);
                const int stages = std::min(200 * 1024 / stage_bytes, k / 64);
                const int smem = stages * stage_bytes + 16 * stages + 1024;
                const int reps = std::max(sets, 200 / sets * sets);
                cudaGraph_t g;
                DIAG_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
                for (int r = 0; r < reps; ++r)
                    oob_kernel<<<ctas, diag::kRingConsumers + 32, smem, stream>>>(map_a, maps_b[r % sets], box_rows, with_b, k,
                                                                       stages, sink);
                DIAG_CHECK(cudaStreamEndCapture(stream, &g));
                cudaGraphExec_t ge;
                DIAG_CHECK(cudaGraphInstantiate(&ge, g, 0));
                DIAG_CHECK(cudaGraphLaunch(ge, stream));  // warm-up
                const float us = replay_us_per_launch(ge, stream, reps, 7)[3];
                std::printf("%5d %6d %4d %10.2f %12.1f\n", box_rows, valid, with_b, us,
                            us * 1e3 / (k / 64));
                DIAG_CHECK(cudaGraphExecDestroy(ge));
                DIAG_CHECK(cudaGraphDestroy(g));
            }
        }
    }
    return 0;
}
