// graphgemm: thin PTX wrappers for Hopper (sm_90a) used by the sm90 GEMM kernel.
//
// Everything here takes 32-bit shared-space addresses (from __cvta_generic_to_shared),
// never generic pointers, so the kernel controls address arithmetic explicitly.
#pragma once

#include <cuda.h>          // CUtensorMap (header only; no -lcuda needed)
#include <cuda_runtime.h>
#include <cstdint>

namespace graphgemm::kernels::sm90::detail {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------------------------------------
// mbarrier
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// Makes barrier initialisation visible to the async proxy and to peer CTAs of the cluster.
__device__ __forceinline__ void fence_mbarrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// Arrive on the barrier at the same CTA-relative offset in cluster CTA `cta_rank`.
// NOTES: default (.release.cta) semantics on purpose: `.release.cluster` costs a MEMBAR.GPU per
// call, and the only ordering needed (our wgmma reads of the stage completed before the peer's
// TMA overwrites it) is already given by wgmma.wait_group preceding the arrive.
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t cta_rank) {
    asm volatile(
        "{\n"
        ".reg .b32 remote_addr;\n"
        "mapa.shared::cluster.u32 remote_addr, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote_addr];\n"
        "}\n" ::"r"(bar),
        "r"(cta_rank)
        : "memory");
}

template <bool ClusterScope>
__device__ __forceinline__ bool mbar_try_wait(uint32_t bar, uint32_t parity) {
    uint32_t done;
    if constexpr (ClusterScope) {
        asm volatile(
            "{\n"
            ".reg .pred p;\n"
            "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n"
            "}\n"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
    } else {
        asm volatile(
            "{\n"
            ".reg .pred p;\n"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n"
            "}\n"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
    }
    return done != 0;
}

// Blocks until the phase with the given parity has completed.
// NOTES: waiting for parity 1 on a freshly initialised barrier returns at once (the "previous"
// phase counts as complete); the producer relies on this for its first pass over the ring.
// ClusterScope (acquire.cluster) is for data a peer CTA wrote with generic stores before its
// arrive (the swap-AB cluster sum's pushed fragments). A producer waiting for a multicast stage to
// be empty in every CTA of its cluster does not need it: there is nothing to acquire, only reads
// (the consumers' wgmmas, complete before they arrive) to order before the TMA's writes. ptxas
// follows every successful acquire.cluster wait with a CCTL.IVALL (an L1 invalidation), which the
// clustered producers paid once per k-block until session 25 (no measurable cost on H100).
template <bool ClusterScope = false>
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    while (!mbar_try_wait<ClusterScope>(bar, parity)) {
    }
}

// ---------------------------------------------------------------------------------------------
// Programmatic dependent launch (griddepcontrol). Both are no-ops in a grid launched without a
// programmatic dependency (cudaLaunchAttributeProgrammaticStreamSerialization).
// ---------------------------------------------------------------------------------------------
// Waits until the grids this one depends on have completed and their writes are visible. Every
// global memory access that may touch their data must come after it in the executing thread.
__device__ __forceinline__ void griddep_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
// Lets the next grid in the stream be scheduled once every CTA of this one has said so (or
// exited); the first call in a CTA counts, later ones are no-ops. Scheduling only: the dependent
// still waits in griddep_wait() for this grid to complete.
__device__ __forceinline__ void griddep_launch_dependents() {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// 16 bytes read once (a weight stream, the speed-of-light kernel): not kept in L1.
__device__ __forceinline__ uint4 ld_stream(const void* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

// ---------------------------------------------------------------------------------------------
// TMA (cp.async.bulk.tensor)
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ void tma_prefetch_descriptor(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// Pulls one box of `map` into L2 (no smem, no barrier): a hint, it may be dropped.
__device__ __forceinline__ void tma_prefetch_l2_2d(const CUtensorMap* map, int32_t c0, int32_t c1) {
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(
                     reinterpret_cast<uint64_t>(map)),
                 "r"(c0), "r"(c1)
                 : "memory");
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                            int32_t c0, int32_t c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
        : "memory");
}

// Copies `bytes` contiguous bytes (a multiple of 16, both addresses 16-byte aligned) from global
// memory to shared memory, completing on `bar` (cp.async.bulk without a tensor map; the bench's
// speed of light and tools/diag/tma_stream_probe).
__device__ __forceinline__ void bulk_load_1d(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

// Loads one box and writes it (and signals complete_tx) at the same CTA-relative smem / mbarrier
// offsets in every CTA of `cta_mask`.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map,
                                                      uint32_t bar, int32_t c0, int32_t c1,
                                                      uint16_t cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%4, %5}], [%2], %3;" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "h"(cta_mask), "r"(c0), "r"(c1)
        : "memory");
}

__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, uint32_t src, int32_t c0,
                                             int32_t c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
            reinterpret_cast<uint64_t>(map)),
        "r"(src), "r"(c0), "r"(c1)
        : "memory");
}

__device__ __forceinline__ void tma_store_commit() {
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Wait until at most N committed store groups still have to READ their shared memory source.
template <int N>
__device__ __forceinline__ void tma_store_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// Wait until at most N committed store groups are still in flight (writes complete).
template <int N>
__device__ __forceinline__ void tma_store_wait() {
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

// Orders this thread's generic-proxy shared memory writes before later async-proxy (TMA) reads.
__device__ __forceinline__ void fence_proxy_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Orders this thread's async-proxy (TMA) global accesses with its generic-proxy ones: after a TMA
// store completed, before a release; after an acquire, before TMA loads of what others stored.
__device__ __forceinline__ void fence_proxy_async_global() {
    asm volatile("fence.proxy.async.global;" ::: "memory");
}

// Before the first TMA use of a tensor map another grid wrote to global memory with generic stores.
__device__ __forceinline__ void fence_tensormap_acquire(const CUtensorMap* map) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Cluster / CTA synchronisation
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t cluster_cta_rank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ uint32_t cluster_id_x() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return r;
}
__device__ __forceinline__ uint32_t num_clusters_x() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
    return r;
}

// Full cluster barrier; every thread of every CTA in the cluster must call it.
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
}

// cluster_sync in two halves, for barriers that publish nothing themselves: after mbarrier inits
// that peers will use (released by the initialising thread's fence_mbarrier_init before it
// arrives), or a rendezvous before exit whose data is ordered otherwise. Every thread of every CTA
// in the cluster calls cluster_arrive_relaxed, then cluster_wait (acquire) before the next arrive.
// (sm90_trace, H100, session 19: an arrive with .release took ~0.35 µs at the head of every
// clustered launch, the fence little.)
__device__ __forceinline__ void cluster_arrive_relaxed() {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// Both halves back to back: a full cluster barrier that publishes nothing (see above).
__device__ __forceinline__ void cluster_sync_relaxed() {
    cluster_arrive_relaxed();
    cluster_wait();
}

// Distributed shared memory: the address of `addr` (this CTA's shared window) in the CTA of
// cluster rank `rank`, for ld.shared::cluster.
__device__ __forceinline__ uint32_t map_shared_rank(uint32_t addr, uint32_t rank) {
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}
__device__ __forceinline__ float4 ld_shared_cluster_f32x4(uint32_t addr) {
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}
// 16 bytes into a peer CTA's shared memory (`remote_addr`, from map_shared_rank): a weak store;
// order it before a peer's reads with mbar_arrive_remote_release.
// NOTES: f32 operands on purpose: passing accumulators through __float_as_uint made the compiler
// carry the wgmma accumulators as b32 through the main loop and inject a wgmma.wait 0 into every
// k-block (ptxas C7517). st.async (stores completing bytes on the peer's mbarrier) was tried
// first: correct and ~0.6 us faster at 1x2112x7168, but that version's sum hung under
// compute-sanitizer racecheck, together with a partial entry barrier (session 9; the hang's
// cause between the two is not isolated).
__device__ __forceinline__ void st_shared_cluster_f32x4(uint32_t remote_addr, float4 v) {
    asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(remote_addr), "f"(v.x), "f"(v.y),
                 "f"(v.z), "f"(v.w)
                 : "memory");
}
// Arrive on a peer CTA's mbarrier (`remote_bar`, mapped), releasing this thread's earlier writes
// (e.g. st_shared_cluster_f32x4) at cluster scope to whoever waits on it with acquire.cluster.
__device__ __forceinline__ void mbar_arrive_remote_release(uint32_t remote_bar) {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_bar) : "memory");
}
__device__ __forceinline__ float4 ld_shared_f32x4(uint32_t addr) {
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}
__device__ __forceinline__ uint4 ld_shared_u32x4(uint32_t addr) {
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}
__device__ __forceinline__ void st_shared_f32x2(uint32_t addr, float x, float y) {
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(x), "f"(y) : "memory");
}

// Warp-wide store of four (x4) or two (x2) 8x8 matrices of 16-bit elements into shared memory:
// lane l gives the address of row l % 8 of matrix l / 8 (16 contiguous bytes; lanes 16-31 unused
// by x2), and register i of lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix
// i, two elements packed: the mma / wgmma accumulator fragment layout of 8 columns.
__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(m0), "r"(m1),
                 "r"(m2), "r"(m3)
                 : "memory");
}
__device__ __forceinline__ void stmatrix_x2(uint32_t addr, uint32_t m0, uint32_t m1) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(m0), "r"(m1) : "memory");
}
// ... transposed: row r of matrix i in shared memory (the address lane 8 i + r gives) receives
// column r of the fragment matrix, i.e. element (row, r) of every row, from the lanes holding it.
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(m0),
                 "r"(m1), "r"(m2), "r"(m3)
                 : "memory");
}

// Named barrier over `count` threads (multiple of 32). Id 0 is __syncthreads.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t count) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Global-memory flags between CTAs (split-K semaphores and arrival counters)
// Writer: every thread stores its data, a named barrier, then ONE thread red_release_gpu_add.
// Reader: ONE thread spins on ld_acquire_gpu, a named barrier, then every thread reads (with
// ld.global.cg: L2, never a possibly stale L1 line).
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ int ld_acquire_gpu(const int* p) {
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void red_release_gpu_add(int* p, int v) {
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Spins until *p == value (acquire). One thread only.
__device__ __forceinline__ void wait_flag_equal(const int* p, int value) {
    while (ld_acquire_gpu(p) != value) __nanosleep(40);
}

// Spins until *p >= value (acquire). One thread only.
__device__ __forceinline__ void wait_flag_at_least(const int* p, int value) {
    while (ld_acquire_gpu(p) < value) __nanosleep(32);
}

// ---------------------------------------------------------------------------------------------
// Register reconfiguration (warpgroup-wide)
// ---------------------------------------------------------------------------------------------
template <uint32_t Regs>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Regs));
}
template <uint32_t Regs>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Regs));
}

// ---------------------------------------------------------------------------------------------
// WGMMA synchronisation
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Pins an accumulator register so the compiler cannot move reads/writes of it across the
// surrounding wgmma fence / wait instructions.
__device__ __forceinline__ void fence_operand(float& r) {
    asm volatile("" : "+f"(r)::"memory");
}

// ---------------------------------------------------------------------------------------------
// WGMMA shared memory matrix descriptor (PTX ISA "Matrix Descriptor Format")
//   bits  0-13 : start address >> 4
//   bits 16-29 : leading dimension byte offset >> 4
//   bits 32-45 : stride dimension byte offset >> 4
//   bits 49-51 : base offset (0: every swizzle atom we use starts 1024-byte aligned)
//   bits 62-63 : swizzle mode (1 = 128B)
// 128B swizzle, 16-bit elements:
//   K-major : rows of 64 elements (128 B); SBO = 1024 (8 rows), LBO unused (K=16 fits one atom).
//             Advancing k by 16 elements = +32 B on the start address (the hardware applies the
//             XOR swizzle on the final address, so this matches what TMA wrote).
//   MN-major: atoms of 8 k-rows x 64 mn-elements (128 B); SBO = 1024 (next 8 k-rows),
//             LBO = stride between 64-element mn-chunks. Advancing k by 16 = +2048 B.
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint64_t make_smem_desc_sw128(uint32_t addr, uint32_t lbo_bytes,
                                                         uint32_t sbo_bytes) {
    uint64_t desc = 0;
    desc |= static_cast<uint64_t>((addr & 0x3FFFFu) >> 4);
    desc |= static_cast<uint64_t>((lbo_bytes & 0x3FFFFu) >> 4) << 16;
    desc |= static_cast<uint64_t>((sbo_bytes & 0x3FFFFu) >> 4) << 32;
    desc |= static_cast<uint64_t>(1) << 62;
    return desc;
}

// `desc` with its start address advanced by `units` x 16 bytes. Only the low word changes: the start
// address field (bits 0-13, address >> 4) holds any shared memory address (< 228 KB) and the
// advanced one is one too, so the add never carries out of the field. The high word (SBO, swizzle)
// stays a constant ptxas can see: one 32-bit add per operand and wgmma in the main loops.
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, uint32_t units) {
    uint64_t r;
    asm("mov.b64 %0, {%1, %2};"
        : "=l"(r)
        : "r"(static_cast<uint32_t>(desc) + units), "r"(static_cast<uint32_t>(desc >> 32)));
    return r;
}

}  // namespace graphgemm::kernels::sm90::detail
