// graphgemm_bench's speeds of light.
//
// Memory (loads, bulk): a kernel that moves exactly the bytes a GEMM must move (every byte of A
// and B read once, every byte of D written once) and does no arithmetic on them.
//
// Timed like the GEMM backends (back to back in a CUDA graph, operands rotated over sets larger
// than L2), it shows what one launch that only moves a shape's bytes takes in the bench's regime:
// the bytes / copy bandwidth floor plus the fixed costs every launch pays (the gap between
// launches, the ramp to full bandwidth, the tail of the last bytes). A GEMM of one launch moves at
// least those bytes, so its time on a shape is to be read against this one, not only the floor.
//
// Tensor cores (math): a kernel that issues exactly the wgmma work of the shape's 2 M N K FLOPs
// (rounded up to whole m64n256k16 instructions) dealt evenly over one CTA per SM, on operands that
// stay in shared memory (one stage of 128 x 64 A and 256 x 64 B holding the shape's own random A / B
// bytes), and moves nothing else: no loads in the loop, no barrier waits, no epilogue. Every GEMM
// built on wgmma issues at least that work and also moves its operands and output, which costs
// cycles and, at the GPU's power cap, energy: so no such GEMM runs faster than this on the shape,
// in turns or sustained, and a backend's time over it bounds the speedup any kernel could have.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace graphgemm::bench {

enum class SolMethod {
  loads,  // 16-byte loads by every thread (ld.global.nc, no L1 allocation), 8 in flight per thread
  bulk,   // bulk copies (cp.async.bulk) into a ring of 4 shared-memory stages, as TMA feeds a GEMM
  math,   // the tensor cores' work of the shape, nothing moved (16-bit inputs only)
};

struct SolOptions {
  SolMethod method = SolMethod::loads;
  int ctas_per_sm = 4;       // loads: CTAs of 256 threads per SM (1..8)
  int chunk_kb = 16;         // bulk: KB per copy and stage (1 CTA per SM; 4 stages; 1..48)
  bool programmatic = false; // programmatic dependent launch (see launch_speed_of_light)
  // With programmatic: each CTA first pulls its whole share of A and B into L2 (bulk prefetches,
  // which cannot read stale data: every real load still comes after the wait), then waits. The
  // prefetch overlaps the previous grid, as a GEMM's prefetch before griddepcontrol.wait can.
  bool prefetch = false;
};

enum class SolElement { bf16, fp16, other };

struct SolProblem {
  const void* a = nullptr;  // read: a_bytes
  std::size_t a_bytes = 0;
  const void* b = nullptr;  // read: b_bytes
  std::size_t b_bytes = 0;
  void* d = nullptr;  // written: d_bytes (its contents are meaningless)
  std::size_t d_bytes = 0;
  // math: the shape and its input type (bf16 / fp16; other is refused).
  long long m = 0, n = 0, k = 0;
  SolElement element = SolElement::other;
};

// Enqueues one launch on `stream` (capturable). `programmatic`: launched with programmatic
// dependent launch; the kernel lets its dependent launch at entry and waits for its predecessor
// before its first global access, as the sm90 GEMM kernels do.
// Pointers must be 16-byte aligned and options in range (cudaErrorInvalidValue otherwise, nothing
// launched); math needs a bf16 / fp16 shape with M, N, K >= 1 and at least 16 bytes of A and of
// B, and writes one float a thread of D (or fewer, what fits in d_bytes).
cudaError_t launch_speed_of_light(const SolProblem& p, const SolOptions& o, cudaStream_t stream);

std::string describe(const SolOptions& o);

}  // namespace graphgemm::bench
