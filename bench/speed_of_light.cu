// graphgemm_bench's speeds of light (see speed_of_light.hpp).
#include "speed_of_light.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "graphgemm/kernels/sm90/sm90_primitives.cuh"
#include "graphgemm/kernels/sm90/sm90_wgmma.cuh"

namespace graphgemm::bench {
namespace {

namespace prim = graphgemm::kernels::sm90::detail;

constexpr int kLoadThreads = 256;
constexpr int kLoadUnroll = 8;      // 16-byte loads in flight per thread
constexpr int kBulkThreads = 128;
constexpr int kBulkStages = 4;
// math: a CTA step is one k-block (64) of a 128 x 256 tile: each of two warpgroups issues four
// m64n256k16 on its 64 rows, as the cooperative 128x256 GEMM kernel does a k-block. Shared memory
// as that kernel's ring of 4 stages (192 KB), which keeps the CTAs one per SM; one stage is used.
constexpr int kMathThreads = 256;
constexpr int kMathStages = 4;
constexpr int kMathTileM = 128, kMathTileN = 256, kMathBlockK = 64;
constexpr int kMathAStage = kMathTileM * kMathBlockK * 2;  // bytes
constexpr int kMathBStage = kMathTileN * kMathBlockK * 2;
constexpr int kMathSmem = kMathStages * (kMathAStage + kMathBStage) + 1024;  // + the 1024-byte round-up

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

// The math speed of light. Each CTA fills one stage with 16-byte words of the shape's A and B
// (random operands: the tensor cores' power depends on the bits they multiply; CTA c starts at word
// 97 c so the CTAs differ; an operand smaller than its share of the stage repeats), then issues its
// share of the k16 steps (k16_total dealt evenly: the first k16_total % grid CTAs take one more) in
// k-blocks of 4 per warpgroup, one commit group in flight as the GEMM kernels' main loops keep it,
// all from that stage (where the operands lie in shared memory does not change the work). Each
// thread then folds its accumulators into one float of D (the first d_floats threads): the wgmma
// work is not dropped whatever the compiler sees.
template <bool IsBf16>
__global__ void __launch_bounds__(kMathThreads, 1) sol_math_kernel(const uint4* a, std::size_t a_words, const uint4* b,
                                                                    std::size_t b_words, float* d, std::size_t d_floats,
                                                                    long long k16_total) {
  using Mma = graphgemm::kernels::sm90::detail::Wgmma<kMathTileN, IsBf16, 0>;
  extern __shared__ __align__(16) unsigned char math_smem[];
  const std::uint32_t base = (prim::smem_u32(math_smem) + 1023u) & ~1023u;  // 128B-swizzle atoms: 1024-aligned
  const std::uint32_t smem_a = base, smem_b = base + kMathAStage;
  // Every load first, then every store: one round trip to memory, as a GEMM's first stage.
  constexpr int kAWords = kMathAStage / 16, kBWords = kMathBStage / 16, kPerThread = (kAWords + kBWords) / kMathThreads;
  static_assert(kAWords % kMathThreads == 0 && kBWords % kMathThreads == 0, "whole words a thread");
  uint4 v[kPerThread];
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int i = j * kMathThreads + static_cast<int>(threadIdx.x);
    constexpr int kAJ = kAWords / kMathThreads;  // j < kAJ: A's words
    const std::size_t words = j < kAJ ? a_words : b_words;
    std::size_t w = static_cast<std::size_t>(blockIdx.x) * 97 + (j < kAJ ? i : i - kAWords);
    if (w >= words) w %= words;
    v[j] = j < kAJ ? a[w] : b[w];
  }
#pragma unroll
  for (int j = 0; j < kPerThread; ++j)
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(base + 16 * (j * kMathThreads + threadIdx.x)),
                 "r"(v[j].x), "r"(v[j].y), "r"(v[j].z), "r"(v[j].w)
                 : "memory");
  prim::fence_proxy_async_shared();  // the generic-proxy stores, visible to wgmma's operand reads
  __syncthreads();

  const long long share = k16_total / gridDim.x + (blockIdx.x < k16_total % gridDim.x ? 1 : 0);
  const int wg = __shfl_sync(0xffffffffu, threadIdx.x / 128, 0);  // warp-uniform: descriptors in uniform registers
  // K-major 128B-swizzled operands (rows of 64 k-elements, 128 B): SBO 1024 (8 rows); a warpgroup's
  // A is its 64 rows of the stage's 128; a k16 step is 32 bytes along the rows.
  const std::uint64_t desc_a0 = prim::make_smem_desc_sw128(smem_a + wg * 64 * 128, 0, 1024);
  const std::uint64_t desc_b0 = prim::make_smem_desc_sw128(smem_b, 0, 1024);
  // acc holds no value before the CTA's first wgmma, which overwrites it (scale-d 0): no instruction
  // may define it inside the wgmma pipeline (ptxas would serialize every wgmma).
  float acc[Mma::kNumAccum];
#pragma unroll
  for (int i = 0; i < Mma::kNumAccum; ++i) asm volatile("" : "=f"(acc[i]));
  bool first = true;
  // One k-block of `Steps` k16 steps (a compile-time count: wgmmas under a run-time condition make
  // ptxas fence each one).
  auto block = [&]<int Steps>(std::integral_constant<int, Steps>) {
#pragma unroll
    for (int i = 0; i < Mma::kNumAccum; ++i) prim::fence_operand(acc[i]);
    prim::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < Steps; ++kk)
      Mma::mma(acc, prim::desc_advance(desc_a0, kk * 2), prim::desc_advance(desc_b0, kk * 2), !first || kk > 0);
    first = false;
    prim::wgmma_commit();
#pragma unroll
    for (int i = 0; i < Mma::kNumAccum; ++i) prim::fence_operand(acc[i]);
    prim::wgmma_wait<1>();
  };
  for (long long blk = share / 4; blk > 0; --blk) block(std::integral_constant<int, 4>{});
  switch (share % 4) {  // uniform
    case 1: block(std::integral_constant<int, 1>{}); break;
    case 2: block(std::integral_constant<int, 2>{}); break;
    case 3: block(std::integral_constant<int, 3>{}); break;
    default: break;
  }
  prim::wgmma_wait<0>();
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < Mma::kNumAccum; ++i) {
    prim::fence_operand(acc[i]);
    sum += acc[i];
  }
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * kMathThreads + threadIdx.x;
  if (t < d_floats) d[t] = sum;
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
  if (o.method == SolMethod::math) {
    if (p.element == SolElement::other || p.m < 1 || p.n < 1 || p.k < 1 || p.a_bytes < 16 || p.b_bytes < 16 ||
        o.programmatic)
      return cudaErrorInvalidValue;
    // k16 steps of 128 x 256: the shape's M N K multiply-adds, rounded up to a whole instruction.
    const double mnk = static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
    const long long k16_total = static_cast<long long>(std::ceil(mnk / (kMathTileM * kMathTileN * 16.0)));
    const auto kernel = p.element == SolElement::bf16 ? sol_math_kernel<true> : sol_math_kernel<false>;
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMathSmem);
        e != cudaSuccess)
      return e;
    kernel<<<sm_count(), kMathThreads, kMathSmem, stream>>>(static_cast<const uint4*>(p.a), p.a_bytes / 16,
                                                             static_cast<const uint4*>(p.b), p.b_bytes / 16,
                                                             static_cast<float*>(p.d), p.d_bytes / 4, k16_total);
    return cudaGetLastError();
  }
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
  if (o.method == SolMethod::math)
    return "tensor-core speed of light (wgmma m64n256k16 by two warpgroups, 1 CTA per SM, the shape's FLOPs dealt "
           "evenly, operands resident in shared memory): issues the shape's wgmma work, moves nothing";
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
