// graphgemm: plain host/device structs shared by the sm90 GEMM kernel, its launcher and the
// non-template instance interface. No device code, no CUDA headers: safe to include anywhere.
#pragma once

#include <cstdint>

namespace graphgemm::kernels::sm90 {

enum class BiasType : int { none = 0, bf16 = 1, fp16 = 2, fp32 = 3 };

// D[m,n] = alpha * acc[m,n] * scale_a[m] * scale_b[n] + bias[n] + beta * C[m,n]
//   acc = sum_k A[m,k] * B[k,n] in fp32.
// A: row-major M x K (lda elements). B: see the config's BKMajor (true: stored N x K row-major,
// ldb >= K; false: stored K x N row-major, ldb >= N). C, D: row-major M x N, C has D's dtype.
// TMA requirements: a, b, d 16-byte aligned; lda, ldb, ldd * sizeof(element) % 16 == 0.
// c, bias, scale_a, scale_b: any alignment. c == nullptr or beta == 0: C is not read.
struct GemmParams {
    int m = 0, n = 0, k = 0;
    const void* a = nullptr;
    long long lda = 0;
    const void* b = nullptr;
    long long ldb = 0;
    const void* c = nullptr;
    long long ldc = 0;
    void* d = nullptr;
    long long ldd = 0;
    const void* bias = nullptr;
    BiasType bias_type = BiasType::none;
    const float* scale_a = nullptr;  // length M, may be nullptr (= 1)
    const float* scale_b = nullptr;  // length N, may be nullptr (= 1)
    float alpha = 1.0f, beta = 0.0f;
    // Tile rasterisation (L2 locality): consecutive tiles walk `raster_group` cluster-tiles along
    // M (or along N when raster_along_n), then step along the other dimension.
    int raster_group = 8;
    bool raster_along_n = false;
};

namespace detail {

// The by-value kernel parameter (besides the three CUtensorMaps). Everything that depends on M
// lives here or in the tensor maps, so a graph update only rewrites kernel parameters.
struct KernelParams {
    int m, n, k;
    int raster_group;     // >= 1
    int raster_along_n;   // 0 / 1
    int bias_type;        // BiasType
    float alpha, beta;
    const void* c;        // nullptr: C not read
    long long ldc;
    void* d;              // D: tma_d covers columns [0, n_tma); columns [n_tma, n) are
    long long ldd;        // stored with plain stores (TMA writes whole 16-byte units)
    int n_tma;            // n rounded down to a whole number of 16-byte units (may be 0)
    const void* bias;
    const float* scale_a;
    const float* scale_b;
};

}  // namespace detail
}  // namespace graphgemm::kernels::sm90
