// The stage ring of the TMA streaming probes (tma_stream_probe, tma_oob_probe; diagnostics): stages
// in dynamic shared memory (1024-byte aligned), a full and an empty mbarrier per stage after them,
// one producer thread (after the consumer warpgroup) and a consumer warpgroup that only waits for
// each stage, reads a word of it and frees it. Also the probes' operand fill.
#pragma once

#include <cstdint>

#include "graphgemm/kernels/sm90/sm90_gemm_launch.cuh"

namespace diag {

namespace d = graphgemm::kernels::sm90::detail;

constexpr int kRingConsumers = 128;  // threads; the producer is thread kRingConsumers

struct Ring {
    uint32_t smem;         // stage 0
    uint32_t bars;         // full[stages], then empty[stages]
    uint32_t stage_bytes;
    int stages;
    __device__ uint32_t stage(int s) const { return smem + static_cast<uint32_t>(s % stages) * stage_bytes; }
    __device__ uint32_t full(int s) const { return bars + 8u * static_cast<uint32_t>(s % stages); }
    __device__ uint32_t empty(int s) const { return bars + 8u * static_cast<uint32_t>(stages + s % stages); }
    __device__ uint32_t parity(int s) const { return static_cast<uint32_t>(s / stages) & 1u; }
};

// Every thread of the block: the ring over dynamic shared memory, barriers initialised.
__device__ inline Ring make_ring(uint8_t* smem_raw, uint32_t stage_bytes, int stages) {
    Ring r;
    r.smem = (d::smem_u32(smem_raw) + 1023u) & ~1023u;
    r.stage_bytes = stage_bytes;
    r.stages = stages;
    r.bars = r.smem + stage_bytes * static_cast<uint32_t>(stages);
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            d::mbar_init(r.full(s), 1);
            d::mbar_init(r.empty(s), 1);
        }
        d::fence_mbarrier_init();
    }
    __syncthreads();
    return r;
}

// Producer, step s: waits for the stage to be free and arms its full barrier for `bytes`; returns
// the barrier the step's copies complete on.
__device__ inline uint32_t ring_produce(const Ring& r, int s, uint32_t bytes) {
    d::mbar_wait(r.empty(s), r.parity(s) ^ 1u);
    d::mbar_arrive_expect_tx(r.full(s), bytes);
    return r.full(s);
}

// The consumer warpgroup (threads 0 .. kRingConsumers - 1): `steps` stages, each waited for,
// touched and freed; `sink` keeps the reads.
__device__ inline void ring_consume(const Ring& r, int steps, int* sink) {
    int acc = 0;
    for (int s = 0; s < steps; ++s) {
        d::mbar_wait(r.full(s), r.parity(s));
        int v;
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(r.stage(s) + 4 * threadIdx.x));
        acc ^= v;
        d::named_barrier_sync(1, kRingConsumers);
        if (threadIdx.x == 0) d::mbar_arrive(r.empty(s));
    }
    if (acc == 0x7fffffff) *sink = acc;
}

// Operand words from their index and a seed (no zeros in practice; values never checked).
__global__ void fill_words(uint32_t* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = static_cast<uint32_t>(i) * 2654435761u ^ seed;
}

}  // namespace diag
