// graphgemm: standalone correctness + timing check of every sm90 GEMM kernel instance.
//
// Build (from the repository root):
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc \
//        tools/sm90_gemm_check.cu src/kernels/sm90_gemm_instances.cu \
//        src/kernels/sm90_gemm_pingpong_instances.cu -o sm90_gemm_check
// Run:
//   ./sm90_gemm_check            all correctness cases, then timings
//   ./sm90_gemm_check --quick    fewer shapes, no timing
//   ./sm90_gemm_check --filter=SUBSTR   only kernels whose name contains SUBSTR
//   ./sm90_gemm_check --splitk-only      only the split-K cases and the split-K timing table
//
// Correctness: random normal inputs (NaN in every padding column of A/B so a read past K or N
// shows), fp64 reference on the GPU, relative error ||out - ref|| / ||ref|| < 1e-2 (bf16/fp16
// out) or 5e-3 (fp32 out). D is poisoned with NaN (0xFF bytes) before each run, including padding
// columns and guard rows: any NaN left inside M x N, or any padding byte overwritten, fails.
// Split-K cases (serial and parallel, several slice counts, few-CTA grids where CTAs walk many
// work units, full grids) run on every instance too; the workspace is filled with garbage first
// (the launcher must zero what it needs). Serial cases are run twice and must match bitwise.
// Instances without split-K (the ping-pong ones, "_pp") must refuse every split case
// (make_launch_args: cudaErrorInvalidValue); that refusal is what is checked for them. Stream-K
// runs on cluster kernels too (a cluster's CTAs share one range) and is checked like any case.
// Exit code: 0 all passed (or no CUDA device), 1 any failure.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/sm90_gemm_instances.hpp"

namespace gk = graphgemm::kernels::sm90;
namespace gd = graphgemm::detail::sm90;

#define CHECK_CUDA(expr)                                                                    \
    do {                                                                                    \
        const cudaError_t err_ = (expr);                                                    \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_),    \
                         __FILE__, __LINE__, #expr);                                        \
            return false;                                                                   \
        }                                                                                   \
    } while (0)

#define CHECK_CUDA_FATAL(expr)                                                              \
    do {                                                                                    \
        const cudaError_t err_ = (expr);                                                    \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "fatal CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                         __FILE__, __LINE__, #expr);                                        \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

// ---------------------------------------------------------------------------------------------
// Device helpers
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

template <class T>
__device__ __forceinline__ T from_float(float v) {
    if constexpr (std::is_same_v<T, float>) return v;
    else if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
    else return __float2bfloat16_rn(v);
}

template <class T>
__device__ __forceinline__ double to_double(T v) {
    if constexpr (std::is_same_v<T, float>) return v;
    else if constexpr (std::is_same_v<T, __half>) return __half2float(v);
    else return __bfloat162float(v);
}

// rows x ld buffer: columns < cols get N(0, scale^2) values, padding columns get NaN.
template <class T>
__global__ void fill_normal(T* p, long long rows, long long cols, long long ld, uint64_t seed,
                            float scale) {
    const long long total = rows * ld;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        if (i % ld >= cols) {
            p[i] = from_float<T>(__int_as_float(0x7fc00000));
            continue;
        }
        const uint64_t r1 = splitmix64(seed * 0x100000001B3ull + 2 * i);
        const uint64_t r2 = splitmix64(seed * 0x100000001B3ull + 2 * i + 1);
        const double u1 = fmax(static_cast<double>(r1 >> 11) * 0x1.0p-53, 1e-300);
        const double u2 = static_cast<double>(r2 >> 11) * 0x1.0p-53;
        const double z = sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
        float v = static_cast<float>(z) * scale;
        if (v == 0.0f) v = 1e-3f;  // never zeros
        p[i] = from_float<T>(v);
    }
}

template <class TAB, class TD>
__global__ void reference_gemm(int M, int N, int K, const TAB* A, long long lda, const TAB* B,
                               long long ldb, bool b_k_major, const TD* C, long long ldc,
                               double beta, const void* bias, int bias_type, const float* sa,
                               const float* sb, double alpha, double* ref) {
    const long long idx = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (idx >= static_cast<long long>(M) * N) return;
    const int m = static_cast<int>(idx / N), n = static_cast<int>(idx % N);
    double acc = 0.0;
    for (int k = 0; k < K; ++k) {
        const double a = to_double(A[m * lda + k]);
        const double b = to_double(b_k_major ? B[n * ldb + k] : B[k * ldb + n]);
        acc += a * b;
    }
    double v = alpha * acc;
    if (sa != nullptr) v *= sa[m];
    if (sb != nullptr) v *= sb[n];
    if (bias_type == 1) v += to_double(static_cast<const __nv_bfloat16*>(bias)[n]);
    if (bias_type == 2) v += to_double(static_cast<const __half*>(bias)[n]);
    if (bias_type == 3) v += static_cast<const float*>(bias)[n];
    if (C != nullptr && beta != 0.0) v += beta * to_double(C[m * ldc + n]);
    ref[idx] = v;
}

// sums[0] += (out-ref)^2, sums[1] += ref^2; counts[0]: NaN inside M x N; counts[1]: padding or
// guard elements that are no longer all-ones bit patterns.
template <class TD>
__global__ void compare(int M, int N, long long rows_alloc, const TD* D, long long ldd,
                        const double* ref, double* sums, unsigned long long* counts) {
    double diff2 = 0.0, ref2 = 0.0;
    unsigned long long nan_count = 0, pad_count = 0;
    const long long total = rows_alloc * ldd;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const long long r = i / ldd, c = i % ldd;
        if (r < M && c < N) {
            const double o = to_double(D[i]);
            if (isnan(o) || isinf(o)) {
                ++nan_count;
            } else {
                const double e = o - ref[r * N + c];
                diff2 += e * e;
                ref2 += ref[r * N + c] * ref[r * N + c];
            }
        } else {
            bool poisoned;
            if constexpr (sizeof(TD) == 4) poisoned = __float_as_uint(D[i]) == 0xFFFFFFFFu;
            else poisoned = *reinterpret_cast<const unsigned short*>(&D[i]) == 0xFFFFu;
            if (!poisoned) ++pad_count;
        }
    }
    if (diff2 != 0.0) atomicAdd(&sums[0], diff2);
    if (ref2 != 0.0) atomicAdd(&sums[1], ref2);
    if (nan_count) atomicAdd(&counts[0], nan_count);
    if (pad_count) atomicAdd(&counts[1], pad_count);
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------
struct DeviceBuffer {
    void* ptr = nullptr;
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (ptr) (void)cudaFree(ptr);
    }
    cudaError_t alloc(size_t bytes) { return cudaMalloc(&ptr, std::max<size_t>(bytes, 16)); }
};

struct Case {
    int m, n, k;
    int variant;       // 0 plain (C poisoned, beta 0), 1 full epilogue, 2 bias + C
    bool padded_ld;    // leading dims larger than the dims (still 16-byte multiples)
    int num_sms;       // 0: device SM count
    bool full_grid;
    gk::SplitMode split_mode = gk::SplitMode::none;
    int splits = 1;
};

struct Result {
    double rel_err = 0;
    unsigned long long nans = 0, pad = 0;
    bool ok = false;
    std::string error;
};

static long long round_up(long long x, long long a) { return (x + a - 1) / a * a; }
static size_t in_size(const gd::KernelInfo& ki) { (void)ki; return 2; }
static size_t out_size(const gd::KernelInfo& ki) { return ki.dtype_out == gd::DTypeOut::fp32 ? 4 : 2; }

template <class T>
static void launch_fill(void* p, long long rows, long long cols, long long ld, uint64_t seed,
                        float scale) {
    const long long total = rows * ld;
    const int blocks = static_cast<int>(std::min<long long>((total + 255) / 256, 4096));
    fill_normal<T><<<std::max(blocks, 1), 256>>>(static_cast<T*>(p), rows, cols, ld, seed, scale);
}

static void fill_in(const gd::KernelInfo& ki, void* p, long long rows, long long cols, long long ld,
                    uint64_t seed) {
    if (ki.dtype_in == gd::DTypeIn::bf16) launch_fill<__nv_bfloat16>(p, rows, cols, ld, seed, 1.0f);
    else launch_fill<__half>(p, rows, cols, ld, seed, 1.0f);
}

static void fill_out(const gd::KernelInfo& ki, void* p, long long rows, long long cols, long long ld,
                     uint64_t seed) {
    switch (ki.dtype_out) {
        case gd::DTypeOut::bf16: launch_fill<__nv_bfloat16>(p, rows, cols, ld, seed, 1.0f); break;
        case gd::DTypeOut::fp16: launch_fill<__half>(p, rows, cols, ld, seed, 1.0f); break;
        case gd::DTypeOut::fp32: launch_fill<float>(p, rows, cols, ld, seed, 1.0f); break;
    }
}

template <class TAB, class TD>
static void launch_reference(const Case& cs, const gd::KernelInfo& ki, const gk::GemmParams& p,
                             double* ref) {
    const long long total = static_cast<long long>(p.m) * p.n;
    reference_gemm<TAB, TD><<<static_cast<unsigned>((total + 127) / 128), 128>>>(
        p.m, p.n, p.k, static_cast<const TAB*>(p.a), p.lda, static_cast<const TAB*>(p.b), p.ldb,
        ki.b_k_major, static_cast<const TD*>(p.c), p.ldc, p.beta, p.bias,
        static_cast<int>(p.bias_type), p.scale_a, p.scale_b, p.alpha, ref);
    (void)cs;
}

template <class TAB>
static void reference_dispatch_out(const Case& cs, const gd::KernelInfo& ki,
                                   const gk::GemmParams& p, double* ref) {
    switch (ki.dtype_out) {
        case gd::DTypeOut::bf16: launch_reference<TAB, __nv_bfloat16>(cs, ki, p, ref); break;
        case gd::DTypeOut::fp16: launch_reference<TAB, __half>(cs, ki, p, ref); break;
        case gd::DTypeOut::fp32: launch_reference<TAB, float>(cs, ki, p, ref); break;
    }
}

static void launch_compare(const gd::KernelInfo& ki, const gk::GemmParams& p, long long rows_alloc,
                           const double* ref, double* sums, unsigned long long* counts) {
    const long long total = rows_alloc * p.ldd;
    const unsigned blocks = static_cast<unsigned>(std::min<long long>((total + 255) / 256, 2048));
    switch (ki.dtype_out) {
        case gd::DTypeOut::bf16:
            compare<__nv_bfloat16><<<blocks, 256>>>(p.m, p.n, rows_alloc,
                                                    static_cast<const __nv_bfloat16*>(p.d), p.ldd,
                                                    ref, sums, counts);
            break;
        case gd::DTypeOut::fp16:
            compare<__half><<<blocks, 256>>>(p.m, p.n, rows_alloc, static_cast<const __half*>(p.d),
                                             p.ldd, ref, sums, counts);
            break;
        case gd::DTypeOut::fp32:
            compare<float><<<blocks, 256>>>(p.m, p.n, rows_alloc, static_cast<const float*>(p.d),
                                            p.ldd, ref, sums, counts);
            break;
    }
}

static bool run_case(int ki_index, const Case& cs, int device_sms, Result& res) {
    const gd::KernelInfo& ki = gd::kernel_info(ki_index);
    const long long M = cs.m, N = cs.n, K = cs.k;
    const long long in_align = 16 / static_cast<long long>(in_size(ki));
    const long long out_align = 16 / static_cast<long long>(out_size(ki));
    const long long pad_in = cs.padded_ld ? 3 * in_align : 0;
    const long long pad_out = cs.padded_ld ? 5 * out_align : 0;
    const long long lda = round_up(K, in_align) + pad_in;
    const long long ldb = round_up(ki.b_k_major ? K : N, in_align) + pad_in;
    const long long b_rows = ki.b_k_major ? N : K;
    const long long b_cols = ki.b_k_major ? K : N;
    const long long ldd = round_up(N, out_align) + pad_out;
    const long long ldc = N + (cs.padded_ld ? 3 : 0);  // C has no alignment requirement
    const long long guard_rows = 3;
    const uint64_t seed = static_cast<uint64_t>(ki_index) * 1000003ull + M * 7919 + N * 104729 + K;

    DeviceBuffer a, b, c, d, bias, sa, sb, ref, sums, counts;
    CHECK_CUDA(a.alloc(M * lda * in_size(ki)));
    CHECK_CUDA(b.alloc(b_rows * ldb * in_size(ki)));
    CHECK_CUDA(c.alloc(M * ldc * out_size(ki)));
    CHECK_CUDA(d.alloc((M + guard_rows) * ldd * out_size(ki)));
    CHECK_CUDA(bias.alloc(N * 4));
    CHECK_CUDA(sa.alloc(M * 4));
    CHECK_CUDA(sb.alloc(N * 4));
    CHECK_CUDA(ref.alloc(M * N * 8));
    CHECK_CUDA(sums.alloc(16));
    CHECK_CUDA(counts.alloc(16));

    fill_in(ki, a.ptr, M, K, lda, seed + 1);
    fill_in(ki, b.ptr, b_rows, b_cols, ldb, seed + 2);
    gk::GemmParams p;
    p.m = cs.m, p.n = cs.n, p.k = cs.k;
    p.a = a.ptr, p.lda = lda, p.b = b.ptr, p.ldb = ldb, p.d = d.ptr, p.ldd = ldd;
    p.raster_group = 1 + (cs.m + cs.n) % 8;
    p.raster_along_n = (cs.k % 2) == 1;
    if (cs.variant == 0) {
        // C given but beta == 0: must not be read (it is all NaN).
        CHECK_CUDA(cudaMemset(c.ptr, 0xFF, M * ldc * out_size(ki)));
        p.c = c.ptr, p.ldc = ldc, p.alpha = 1.0f, p.beta = 0.0f;
    } else {
        fill_out(ki, c.ptr, M, N, ldc, seed + 3);
        p.c = c.ptr, p.ldc = ldc;
        const int bias_kind = 1 + (cs.m + cs.n + cs.k + cs.variant) % 3;
        p.bias_type = static_cast<gk::BiasType>(bias_kind);
        switch (bias_kind) {
            case 1: launch_fill<__nv_bfloat16>(bias.ptr, 1, N, N, seed + 4, 1.0f); break;
            case 2: launch_fill<__half>(bias.ptr, 1, N, N, seed + 4, 1.0f); break;
            default: launch_fill<float>(bias.ptr, 1, N, N, seed + 4, 1.0f); break;
        }
        p.bias = bias.ptr;
        if (cs.variant == 1) {
            launch_fill<float>(sa.ptr, 1, M, M, seed + 5, 0.5f);
            launch_fill<float>(sb.ptr, 1, N, N, seed + 6, 0.5f);
            p.scale_a = static_cast<const float*>(sa.ptr);
            p.scale_b = static_cast<const float*>(sb.ptr);
            p.alpha = 0.75f, p.beta = 0.5f;
        } else {
            p.alpha = 2.0f, p.beta = -1.0f;
        }
    }
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemset(d.ptr, 0xFF, (M + guard_rows) * ldd * out_size(ki)));
    CHECK_CUDA(cudaMemset(sums.ptr, 0, 16));
    CHECK_CUDA(cudaMemset(counts.ptr, 0, 16));

    if (ki.dtype_in == gd::DTypeIn::bf16)
        reference_dispatch_out<__nv_bfloat16>(cs, ki, p, static_cast<double*>(ref.ptr));
    else
        reference_dispatch_out<__half>(cs, ki, p, static_cast<double*>(ref.ptr));
    CHECK_CUDA(cudaGetLastError());

    const bool stream_k = cs.split_mode == gk::SplitMode::stream_k;
    const bool split = cs.splits > 1 || stream_k;
    if (split && !gd::supports_split_k(ki)) {
        // No split-K on this instance (ping-pong): the launcher must refuse, whatever the workspace.
        DeviceBuffer big;
        CHECK_CUDA(big.alloc(size_t{1} << 20));
        p.split_mode = cs.split_mode;
        p.splits = cs.splits;
        p.workspace = big.ptr;
        p.workspace_bytes = size_t{1} << 20;
        gd::LaunchArgsStorage storage;
        const cudaError_t err = gd::kernel_make_launch_args(ki_index, p, device_sms, storage, cs.full_grid);
        res.ok = err == cudaErrorInvalidValue;
        if (!res.ok) res.error = std::string(stream_k ? "stream-K" : "split-K") + " not refused: " + cudaGetErrorName(err);
        return true;
    }

    DeviceBuffer ws;
    if (split) {
        const size_t bytes = gd::kernel_split_workspace(ki_index, p.m, p.n, cs.split_mode, cs.splits).total();
        CHECK_CUDA(ws.alloc(bytes));
        CHECK_CUDA(cudaMemset(ws.ptr, 0x7F, bytes));  // garbage: counters must be zeroed by launch
        p.split_mode = cs.split_mode;
        p.splits = cs.splits;
        p.workspace = ws.ptr;
        p.workspace_bytes = bytes;
    }

    gd::LaunchArgsStorage storage;
    const int sms = cs.num_sms > 0 ? cs.num_sms : device_sms;
    cudaError_t err = gd::kernel_make_launch_args(ki_index, p, sms, storage, cs.full_grid);
    if (err != cudaSuccess) {
        res.error = std::string("make_launch_args: ") + cudaGetErrorName(err);
        return true;
    }
    err = gd::kernel_launch(ki_index, storage, nullptr);
    if (err != cudaSuccess) {
        res.error = std::string("launch: ") + cudaGetErrorName(err);
        return true;
    }
    err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        res.error = std::string("kernel: ") + cudaGetErrorName(err);
        std::fprintf(stderr, "fatal: kernel execution failed (%s); context is lost\n",
                     cudaGetErrorString(err));
        std::exit(1);
    }
    bool repeat_differs = false;
    if (split) {  // determinism: a second run (workspace not re-poisoned) must match bitwise
        const size_t d_bytes = (M + guard_rows) * ldd * out_size(ki);
        std::vector<unsigned char> first(d_bytes), second(d_bytes);
        CHECK_CUDA(cudaMemcpy(first.data(), d.ptr, d_bytes, cudaMemcpyDeviceToHost));
        CHECK_CUDA(gd::kernel_launch(ki_index, storage, nullptr));
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(second.data(), d.ptr, d_bytes, cudaMemcpyDeviceToHost));
        repeat_differs = first != second;
        if (repeat_differs) res.error = "second run differs bitwise";
    }
    launch_compare(ki, p, M + guard_rows, static_cast<const double*>(ref.ptr),
                   static_cast<double*>(sums.ptr), static_cast<unsigned long long*>(counts.ptr));
    CHECK_CUDA(cudaGetLastError());
    double h_sums[2];
    unsigned long long h_counts[2];
    CHECK_CUDA(cudaMemcpy(h_sums, sums.ptr, 16, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_counts, counts.ptr, 16, cudaMemcpyDeviceToHost));
    res.rel_err = std::sqrt(h_sums[0] / std::max(h_sums[1], 1e-300));
    res.nans = h_counts[0];
    res.pad = h_counts[1];
    const double tol = ki.dtype_out == gd::DTypeOut::fp32 ? 5e-3 : 1e-2;
    res.ok = res.nans == 0 && res.pad == 0 && res.rel_err < tol && !repeat_differs;
    return true;
}

// Split-K: both modes, slice counts up to the number of k-blocks, K not a multiple of 64 or of the
// slices, grids of 2-3 CTAs (each walks many units: serial waits across waves, parallel reduces
// many rows), and full grids (CTAs without units still reduce their share).
static std::vector<Case> make_split_cases(int device_sms) {
    using SM = gk::SplitMode;
    return {
        {128, 128, 4096, 1, false, 0, false, SM::serial, 8},
        {128, 128, 4096, 1, true, 0, false, SM::parallel, 64},
        {129, 257, 1031, 2, false, 0, false, SM::parallel, 5},
        {129, 257, 1031, 0, true, 0, false, SM::serial, 17},
        {7, 33, 700, 0, false, 0, false, SM::parallel, 11},
        {1, 300, 200, 1, false, 0, false, SM::serial, 4},
        {333, 1000, 1032, 1, true, 0, false, SM::serial, 3},
        {333, 1000, 1032, 2, false, 0, false, SM::parallel, 2},
        {1500, 1700, 640, 1, true, 3, false, SM::parallel, 4},
        {700, 900, 1000, 0, false, 2, false, SM::serial, 6},
        {5, 77, 2000, 1, true, 0, true, SM::parallel, 8},
        {300, 600, 2000, 2, false, device_sms, true, SM::serial, 8},
        // Stream-K (splits = the most CTAs): ranges starting and ending mid-tile, one tile over
        // dozens of CTAs (CTA 0 adds 78 partials), few CTAs over many tiles, ragged edges.
        {129, 257, 1031, 1, false, 0, false, SM::stream_k, device_sms},
        {7, 33, 5000, 0, false, 0, false, SM::stream_k, device_sms},
        {1, 300, 4000, 2, true, 0, false, SM::stream_k, 7},
        {333, 1000, 1032, 0, false, 0, false, SM::stream_k, device_sms},
        {1500, 1700, 640, 1, true, 3, false, SM::stream_k, 3},
        {520, 777, 1500, 2, false, 0, false, SM::stream_k, device_sms},
    };
}

static std::vector<Case> make_cases(bool quick, int device_sms) {
    struct Shape { int m, n, k; };
    std::vector<Shape> shapes = {{1, 1, 1},       {1, 300, 200},   {2, 8, 8},
                                 {7, 33, 17},     {64, 64, 64},    {127, 259, 67},
                                 {128, 256, 64},  {129, 257, 65},  {255, 513, 130},
                                 {333, 1000, 1031}, {200, 136, 4096}, {1024, 1024, 1024}};
    if (quick) shapes = {{1, 1, 1}, {7, 33, 17}, {127, 259, 67}, {129, 257, 65}, {333, 1000, 1031}};
    std::vector<Case> cases;
    int idx = 0;
    for (const Shape& s : shapes) {
        for (int variant = 0; variant < 3; ++variant) {
            if (quick && variant == 2) continue;
            cases.push_back({s.m, s.n, s.k, variant, (idx++ % 2) == 1, 0, false});
        }
    }
    // Persistence: few CTAs walk many tiles (mbarrier phases across tiles, D buffer reuse).
    cases.push_back({1500, 1700, 160, 1, true, 2, false});
    cases.push_back({700, 900, 300, 0, false, 3, false});
    // Ping-pong turns: odd and even tile counts per CTA, k-blocks per tile fewer than, equal to
    // and not a multiple of the stage count (ring positions of the two consumer warpgroups
    // interleave), ragged N whose last column chunk has no TMA store.
    cases.push_back({1000, 1000, 1000, 2, false, 5, false});
    cases.push_back({2000, 520, 64, 1, true, 3, false});
    cases.push_back({777, 1283, 130, 0, false, 7, false});
    cases.push_back({520, 777, 384, 1, false, 1, false});
    cases.push_back({1031, 2049, 257, 2, true, 0, false});
    // Grid independent of M: co-resident maximum, most CTAs (clusters) have no tile.
    cases.push_back({5, 77, 129, 1, true, 0, true});
    cases.push_back({300, 600, 200, 2, false, device_sms, true});
    for (const Case& c : make_split_cases(device_sms))
        if (!quick || c.splits <= 8 || c.split_mode == gk::SplitMode::stream_k) cases.push_back(c);
    return cases;
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------
static bool time_kernel(int ki_index, int m, int n, int k, int device_sms, double& tflops,
                        gk::SplitMode split_mode = gk::SplitMode::none, int splits = 1,
                        double* median_us = nullptr) {
    const gd::KernelInfo& ki = gd::kernel_info(ki_index);
    DeviceBuffer a, b, d;
    CHECK_CUDA(a.alloc(static_cast<size_t>(m) * k * 2));
    CHECK_CUDA(b.alloc(static_cast<size_t>(n) * k * 2));
    CHECK_CUDA(d.alloc(static_cast<size_t>(m) * n * out_size(ki)));
    fill_in(ki, a.ptr, m, k, k, 11);
    fill_in(ki, b.ptr, ki.b_k_major ? n : k, ki.b_k_major ? k : n, ki.b_k_major ? k : n, 12);
    gk::GemmParams p;
    p.m = m, p.n = n, p.k = k;
    p.a = a.ptr, p.lda = k, p.b = b.ptr, p.ldb = ki.b_k_major ? k : n, p.d = d.ptr, p.ldd = n;
    DeviceBuffer ws;
    if (splits > 1) {
        const size_t bytes = gd::kernel_split_workspace(ki_index, m, n, split_mode, splits).total();
        CHECK_CUDA(ws.alloc(bytes));
        p.split_mode = split_mode, p.splits = splits, p.workspace = ws.ptr, p.workspace_bytes = bytes;
    }
    gd::LaunchArgsStorage storage;
    CHECK_CUDA(gd::kernel_make_launch_args(ki_index, p, device_sms, storage));
    for (int i = 0; i < 5; ++i) CHECK_CUDA(gd::kernel_launch(ki_index, storage, nullptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    constexpr int kIters = 20;
    cudaEvent_t ev[kIters + 1];
    for (auto& e : ev) CHECK_CUDA(cudaEventCreate(&e));
    CHECK_CUDA(cudaEventRecord(ev[0]));
    for (int i = 0; i < kIters; ++i) {
        CHECK_CUDA(gd::kernel_launch(ki_index, storage, nullptr));
        CHECK_CUDA(cudaEventRecord(ev[i + 1]));
    }
    CHECK_CUDA(cudaEventSynchronize(ev[kIters]));
    std::vector<float> ms(kIters);
    for (int i = 0; i < kIters; ++i) CHECK_CUDA(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
    for (auto& e : ev) CHECK_CUDA(cudaEventDestroy(e));
    std::sort(ms.begin(), ms.end());
    const double median_ms = ms[kIters / 2];
    tflops = 2.0 * m * n * static_cast<double>(k) / (median_ms * 1e-3) / 1e12;
    if (median_us) *median_us = median_ms * 1e3;
    return true;
}

int main(int argc, char** argv) {
    bool quick = false, splitk_only = false;
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) quick = true;
        else if (std::strcmp(argv[i], "--splitk-only") == 0) splitk_only = true;
        else if (std::strncmp(argv[i], "--filter=", 9) == 0) filter = argv[i] + 9;
    }
    int device_count = 0;
    if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
        std::printf("skipped: no CUDA device\n");
        return 0;
    }
    cudaDeviceProp prop;
    CHECK_CUDA_FATAL(cudaGetDeviceProperties(&prop, 0));
    if (prop.major != 9 || prop.minor != 0) {
        std::printf("skipped: device 0 (%s) is sm_%d%d, kernels need sm_90a\n", prop.name,
                    prop.major, prop.minor);
        return 0;
    }
    const int sms = prop.multiProcessorCount;
    std::printf("device: %s, %d SMs; %d kernel instances\n", prop.name, sms, gd::kernel_count());

    const std::vector<Case> cases = splitk_only ? make_split_cases(sms) : make_cases(quick, sms);
    int total_failures = 0;
    std::printf("%-40s %6s %6s %10s  %s\n", "kernel", "cases", "fail", "max_rel", "regs/smem");
    for (int i = 0; i < gd::kernel_count(); ++i) {
        const gd::KernelInfo& ki = gd::kernel_info(i);
        if (!filter.empty() && std::string(ki.name).find(filter) == std::string::npos) continue;
        const cudaError_t init = gd::kernel_initialize(i, 0);
        if (init != cudaSuccess) {
            std::printf("%-40s initialize failed: %s\n", ki.name, cudaGetErrorName(init));
            ++total_failures;
            continue;
        }
        cudaFuncAttributes attr;
        CHECK_CUDA_FATAL(cudaFuncGetAttributes(&attr, gd::kernel_function(i)));
        int fails = 0;
        double max_rel = 0;
        for (const Case& cs : cases) {
            Result r;
            if (!run_case(i, cs, sms, r)) {
                std::printf("  [%s] m=%d n=%d k=%d: CUDA setup error\n", ki.name, cs.m, cs.n, cs.k);
                ++fails;
                continue;
            }
            max_rel = std::max(max_rel, r.rel_err);
            if (!r.ok) {
                ++fails;
                std::printf("  FAIL [%s] m=%d n=%d k=%d variant=%d padded=%d sms=%d full_grid=%d "
                            "split=%d x%d: rel_err=%.3e nan=%llu pad_overwritten=%llu %s\n",
                            ki.name, cs.m, cs.n, cs.k, cs.variant, cs.padded_ld, cs.num_sms,
                            cs.full_grid, static_cast<int>(cs.split_mode), cs.splits, r.rel_err,
                            r.nans, r.pad, r.error.c_str());
            }
        }
        total_failures += fails;
        std::printf("%-40s %6zu %6d %10.2e  %d regs, %d B smem, %s\n", ki.name, cases.size(), fails,
                    max_rel, attr.numRegs, ki.smem_bytes, gd::schedule_name(ki.schedule));
    }

    if (!quick && !splitk_only) {
        struct Shape { int m, n, k; };
        const Shape perf_shapes[] = {{8192, 8192, 8192}, {4096, 4096, 4096}, {2048, 2048, 2048},
                                     {128, 8192, 8192},  {16, 4096, 4096}};
        std::printf("\ntiming (bf16 in, bf16 out, median of 20): TFLOP/s\n%-40s", "kernel");
        for (const Shape& s : perf_shapes) std::printf(" %17s", (std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k)).c_str());
        std::printf("\n");
        for (int i = 0; i < gd::kernel_count(); ++i) {
            const gd::KernelInfo& ki = gd::kernel_info(i);
            if (ki.dtype_in != gd::DTypeIn::bf16 || ki.dtype_out != gd::DTypeOut::bf16) continue;
            if (!filter.empty() && std::string(ki.name).find(filter) == std::string::npos) continue;
            std::printf("%-40s", ki.name);
            for (const Shape& s : perf_shapes) {
                double tf = 0;
                if (time_kernel(i, s.m, s.n, s.k, sms, tf)) std::printf(" %17.1f", tf);
                else std::printf(" %17s", "error");
                std::fflush(stdout);
            }
            std::printf("\n");
        }
    }

    if (!quick) {
        // Split-K timing (kernel only, memset included, no plan): the splitk suite, time in µs
        // against slices, for the two tiles a skinny problem wants, both modes.
        struct Shape { int m, n, k; };
        const Shape split_shapes[] = {{128, 128, 16384}, {64, 64, 65536},   {128, 256, 32768},
                                      {256, 256, 16384}, {16, 4096, 14336}, {128, 1536, 7168},
                                      {32, 7168, 16384}, {64, 2112, 7168},  {1, 2112, 7168}};
        const int slice_counts[] = {1, 2, 4, 8, 16, 32, 64, 128};
        std::printf("\nsplit-K timing (bf16 in, bf16 out, B K-major, median of 20): us\n%-18s %-30s %-8s",
                    "shape", "kernel", "mode");
        for (int s : slice_counts) std::printf(" %8d", s);
        std::printf("\n");
        for (const Shape& sh : split_shapes) {
            for (int i = 0; i < gd::kernel_count(); ++i) {
                const gd::KernelInfo& ki = gd::kernel_info(i);
                if (ki.dtype_in != gd::DTypeIn::bf16 || ki.dtype_out != gd::DTypeOut::bf16 || !ki.b_k_major) continue;
                if (!gd::supports_split_k(ki)) continue;  // ping-pong: no split-K
                if (!(ki.block_m == 64 || (ki.block_m == 128 && ki.block_n == 128 && ki.cluster_n == 1))) continue;
                if (!filter.empty() && std::string(ki.name).find(filter) == std::string::npos) continue;
                for (gk::SplitMode mode : {gk::SplitMode::serial, gk::SplitMode::parallel}) {
                    std::printf("%-18s %-30s %-8s",
                                (std::to_string(sh.m) + "x" + std::to_string(sh.n) + "x" + std::to_string(sh.k)).c_str(),
                                ki.name + 5, mode == gk::SplitMode::serial ? "serial" : "parallel");
                    for (int s : slice_counts) {
                        double tf = 0, us = 0;
                        if (s > (sh.k + 63) / 64) std::printf(" %8s", "-");
                        else if (time_kernel(i, sh.m, sh.n, sh.k, sms, tf, s > 1 ? mode : gk::SplitMode::none, s, &us))
                            std::printf(" %8.2f", us);
                        else std::printf(" %8s", "error");
                        std::fflush(stdout);
                    }
                    std::printf("\n");
                }
            }
        }
    }

    std::printf("\n%s: %d failure(s)\n", total_failures == 0 ? "PASSED" : "FAILED", total_failures);
    return total_failures == 0 ? 0 : 1;
}
