// graphgemm_bench's memory speed of light (see speed_of_light.hpp).
#include "speed_of_light.hpp"

#include <algorithm>
#include <cstdint>

#include "graphgemm/kernels/sm90/sm90_primitives.cuh"

namespace graphgemm::bench {
namespace {

namespace prim = graphgemm::kernels::sm90::detail;

constexpr int kLoadThreads = 256;
constexpr int kLoadUnroll = 8;      // 16-byte loads in flight per thread
constexpr int kBulkThreads = 128;
constexpr int kBulkStages = 4;

__device__ __forceinline__ std::size_t min_size(std::size_t x, std::size_t y) { return x < y ? x : y; }

__device__ __forceinline__ void bulk_prefetch_l2(const void* src, std::uint32_t bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
}

// Walks the byte range [begin, end) of A ++ B in pieces of at most max_piece bytes, none spanning
// A and B: piece(src, bytes) for each, in order (16-byte multiples in, 16-byte multiples out).
template <class Piece>
__device__ __forceinline__ void for_each_piece(const unsigned char* a, std::size_t a_bytes, const unsigned char* b,
                                               std::size_t begin, std::size_t end, std::size_t max_piece,
                                               Piece&& piece) {
  for (std::size_t pos = begin; pos < end;) {
    const std::size_t limit = pos < a_bytes ? min_size(end, a_bytes) : end;
    const std::size_t bytes = min_size(max_piece, limit - pos);
    piece(pos < a_bytes ? a + pos : b + (pos - a_bytes), static_cast<std::uint32_t>(bytes));
    pos += bytes;
  }
}

// One thread pulls the byte range [begin, end) of A ++ B into L2, 64 KB per request.
__device__ void prefetch_share_l2(const unsigned char* a, std::size_t a_bytes, const unsigned char* b, std::size_t begin,
                                  std::size_t end) {
  for_each_piece(a, a_bytes, b, begin, end, 65536, [](const unsigned char* src, std::uint32_t bytes) {
    bulk_prefetch_l2(src, bytes);
  });
}

struct Tails {  // the bytes past the last whole 16-byte word of A, B and D (fewer than 16 each)
  const unsigned char *a, *b;
  unsigned char* d;
  std::uint32_t a_bytes, b_bytes, d_bytes;
};

// One thread of the grid moves the tails: byte loads and stores, so every byte counts once.
__device__ void move_tails(const Tails& t, std::uint32_t seed) {
  std::uint32_t x = seed;
  for (std::uint32_t i = 0; i < t.a_bytes; ++i) x ^= t.a[i];
  for (std::uint32_t i = 0; i < t.b_bytes; ++i) x ^= t.b[i];
  for (std::uint32_t i = 0; i < t.d_bytes; ++i) t.d[i] = static_cast<unsigned char>(x >> (i % 4 * 8));
}

// Every thread loads 16-byte words of the range A ++ B (each CTA a contiguous share), folds them
// into one value, and the grid then writes D's words with it: the loads cannot be dropped.
__global__ void __launch_bounds__(kLoadThreads) sol_loads_kernel(const uint4* a, std::size_t a_words, const uint4* b,
                                                                  std::size_t b_words, uint4* d, std::size_t d_words,
                                                                  std::size_t per_cta, bool prefetch, Tails tails) {
  prim::griddep_launch_dependents();
  const std::size_t total = a_words + b_words;
  const std::size_t begin = blockIdx.x * per_cta, end = min_size(total, begin + per_cta);
  if (prefetch && threadIdx.x == 0 && begin < end)
    prefetch_share_l2(reinterpret_cast<const unsigned char*>(a), a_words * 16, reinterpret_cast<const unsigned char*>(b),
                      begin * 16, end * 16);
  prim::griddep_wait();
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (std::size_t base = begin + threadIdx.x; base < end; base += kLoadThreads * kLoadUnroll) {
    uint4 v[kLoadUnroll];
#pragma unroll
    for (int u = 0; u < kLoadUnroll; ++u) {
      const std::size_t i = base + static_cast<std::size_t>(u) * kLoadThreads;
      v[u] = i < end ? prim::ld_stream(i < a_words ? a + i : b + (i - a_words)) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kLoadUnroll; ++u) {
      acc.x ^= v[u].x;
      acc.y ^= v[u].y;
      acc.z ^= v[u].z;
      acc.w ^= v[u].w;
    }
  }
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kLoadThreads;
  for (std::size_t j = blockIdx.x * kLoadThreads + threadIdx.x; j < d_words; j += stride) d[j] = acc;
  if (blockIdx.x == 0 && threadIdx.x == 0) move_tails(tails, acc.x);
}

// One thread per CTA streams the CTA's contiguous share of A ++ B into a ring of shared-memory
// stages with bulk copies (a stage is refilled as soon as its previous copy has landed); once all
// have landed, the CTA's threads write their share of D.
__global__ void __launch_bounds__(kBulkThreads) sol_bulk_kernel(const unsigned char* a, std::size_t a_bytes,
                                                                 const unsigned char* b, std::size_t b_bytes, uint4* d,
                                                                 std::size_t d_words, std::size_t per_cta,
                                                                 std::uint32_t chunk, bool prefetch, Tails tails) {
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kBulkStages];
  prim::griddep_launch_dependents();
  if (threadIdx.x == 0) {
    for (int s = 0; s < kBulkStages; ++s) prim::mbar_init(prim::smem_u32(&full[s]), 1);
    prim::fence_mbarrier_init();
  }
  __syncthreads();
  const std::size_t total = a_bytes + b_bytes;
  const std::size_t begin = blockIdx.x * per_cta, end = min_size(total, begin + per_cta);
  if (prefetch && threadIdx.x == 0 && begin < end) prefetch_share_l2(a, a_bytes, b, begin, end);
  prim::griddep_wait();
  if (threadIdx.x == 0) {
    std::uint32_t copies = 0;
    for_each_piece(a, a_bytes, b, begin, end, chunk, [&](const unsigned char* src, std::uint32_t bytes) {
      const std::uint32_t s = copies % kBulkStages, use = copies / kBulkStages;
      const std::uint32_t bar = prim::smem_u32(&full[s]);
      if (use > 0) prim::mbar_wait<false>(bar, (use - 1) & 1);  // the stage's previous copy has landed
      prim::mbar_arrive_expect_tx(bar, bytes);
      prim::bulk_load_1d(prim::smem_u32(ring + s * chunk), src, bytes, bar);
      ++copies;
    });
    for (std::uint32_t c = copies > kBulkStages ? copies - kBulkStages : 0; c < copies; ++c)
      prim::mbar_wait<false>(prim::smem_u32(&full[c % kBulkStages]), (c / kBulkStages) & 1);
  }
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kBulkThreads;
  for (std::size_t j = blockIdx.x * kBulkThreads + threadIdx.x; j < d_words; j += stride)
    d[j] = make_uint4(j, 0, 0, 0);
  if (blockIdx.x == 0 && threadIdx.x == 0) move_tails(tails, 0);
}

int sm_count() {
  static const int count = [] {
    int device = 0, n = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
      return 132;
    return n;
  }();
  return count;
}

}  // namespace

cudaError_t launch_speed_of_light(const SolProblem& p, const SolOptions& o, cudaStream_t stream) {
  auto misaligned = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 != 0; };
  if (misaligned(p.a) || misaligned(p.b) || misaligned(p.d) || o.ctas_per_sm < 1 || o.ctas_per_sm > 8 ||
      o.chunk_kb < 1 || o.chunk_kb > 48 || (o.prefetch && !o.programmatic))
    return cudaErrorInvalidValue;
  const auto* a = static_cast<const unsigned char*>(p.a);
  const auto* b = static_cast<const unsigned char*>(p.b);
  auto* d = static_cast<unsigned char*>(p.d);
  const std::size_t a_main = p.a_bytes / 16 * 16, b_main = p.b_bytes / 16 * 16, d_main = p.d_bytes / 16 * 16;
  const Tails tails{a + a_main, b + b_main, d + d_main, static_cast<std::uint32_t>(p.a_bytes - a_main),
                    static_cast<std::uint32_t>(p.b_bytes - b_main), static_cast<std::uint32_t>(p.d_bytes - d_main)};
  const std::size_t words = (a_main + b_main) / 16;

  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = o.programmatic ? 1 : 0;
  cfg.stream = stream;
  if (o.method == SolMethod::loads) {
    const unsigned grid = static_cast<unsigned>(sm_count() * o.ctas_per_sm);
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(kLoadThreads);
    return cudaLaunchKernelEx(&cfg, sol_loads_kernel, reinterpret_cast<const uint4*>(a), a_main / 16,
                              reinterpret_cast<const uint4*>(b), b_main / 16, reinterpret_cast<uint4*>(d), d_main / 16,
                              (words + grid - 1) / grid, o.prefetch, tails);
  }
  const unsigned grid = static_cast<unsigned>(sm_count());
  const std::uint32_t chunk = static_cast<std::uint32_t>(o.chunk_kb) * 1024;
  const std::size_t smem = std::size_t{kBulkStages} * chunk;
  if (cudaError_t e = cudaFuncSetAttribute(sol_bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
      e != cudaSuccess)
    return e;
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(kBulkThreads);
  cfg.dynamicSmemBytes = smem;
  return cudaLaunchKernelEx(&cfg, sol_bulk_kernel, a, a_main, b, b_main, reinterpret_cast<uint4*>(d), d_main / 16,
                            (words + grid - 1) / grid * 16, chunk, o.prefetch, tails);
}

std::string describe(const SolOptions& o) {
  std::string s = o.method == SolMethod::loads
                      ? "speed of light (16-byte loads, " + std::to_string(o.ctas_per_sm) + " CTAs x " +
                            std::to_string(kLoadThreads) + " threads per SM)"
                      : "speed of light (bulk copies into " + std::to_string(kBulkStages) + " x " +
                            std::to_string(o.chunk_kb) + " KB shared-memory stages, 1 CTA per SM)";
  s += ": reads A and B once, writes D, no arithmetic";
  if (o.programmatic) s += o.prefetch ? ", programmatic launch, its share prefetched into L2 before the wait" : ", programmatic launch";
  return s;
}

}  // namespace graphgemm::bench
