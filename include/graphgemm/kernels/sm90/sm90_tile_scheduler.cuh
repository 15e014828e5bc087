// graphgemm: persistent tile scheduler for the sm90 GEMM kernel.
//
// The unit of work is a cluster tile ((ClusterM * BlockM) x (ClusterN * BlockN)); every CTA of a
// cluster walks the same sequence of cluster tiles and picks its own sub-tile by cluster rank, so
// the producers of a cluster always agree on what to multicast. Tile counts are derived from the
// runtime M and N, so the grid never depends on M (a grid larger than the work spreads it: below).
//
// Split-K: a work unit is (cluster tile, slice); units are numbered slice-major,
// u = slice * num_tiles + tile, and every CTA walks its units in increasing order. Slice s of a
// tile is therefore always handed out before slice s + 1 of it, which makes the serial mode's
// "wait until the slices before mine are done" deadlock-free on a co-resident persistent grid:
// the lowest unfinished unit only ever waits on lower (finished) units.
//
// Cluster split-K (KernelParams::split_cluster = C > 1, ClusterM = ClusterN = 1): the C CTAs of a
// cluster walk the same units u = group * num_tiles + tile, numbered by cluster, and CTA rank r
// takes slice group * C + r of the unit's tile, so the cluster holds C consecutive slices of one
// tile at a time (their partials are summed through distributed shared memory).
#pragma once

#include <cstdint>

#include "sm90_gemm_types.hpp"
#include "sm90_primitives.cuh"

namespace graphgemm::kernels::sm90::detail {

template <int BlockM, int BlockN, int ClusterM, int ClusterN>
struct TileScheduler {
    int tiles_m, tiles_n;  // cluster tiles
    int num_tiles;
    int num_units;         // num_tiles * splits
    int group, along_n;
    int next_tile, stride;
    int slice_shift = 0, slice_rank = 0;  // cluster split-K: slice = (u / num_tiles) << shift | rank

    // This CTA's worker (its cluster in a kernel with clusters, whose CTAs walk the same cluster
    // tiles) and the workers in the grid.
    __device__ __forceinline__ static int worker() {
        if constexpr (ClusterM * ClusterN > 1) return static_cast<int>(cluster_id_x());
        else return static_cast<int>(blockIdx.x);
    }
    __device__ __forceinline__ static int workers() {
        if constexpr (ClusterM * ClusterN > 1) return static_cast<int>(num_clusters_x());
        else return static_cast<int>(gridDim.x);
    }

    __device__ __forceinline__ TileScheduler(int m, int n, int raster_group, int raster_along_n,
                                             int splits, int split_cluster = 1) {
        tiles_m = (m + BlockM * ClusterM - 1) / (BlockM * ClusterM);
        tiles_n = (n + BlockN * ClusterN - 1) / (BlockN * ClusterN);
        num_tiles = tiles_m * tiles_n;
        num_units = num_tiles * splits;
        group = raster_group < 1 ? 1 : raster_group;
        along_n = raster_along_n;
        next_tile = worker();
        stride = workers();
        if constexpr (ClusterM * ClusterN == 1) {
            if (split_cluster > 1) {  // a power of two (the launcher checks)
                slice_shift = 31 - __clz(split_cluster);
                slice_rank = static_cast<int>(blockIdx.x) & (split_cluster - 1);
                next_tile >>= slice_shift;
                stride >>= slice_shift;
                num_units = num_tiles * (splits >> slice_shift);
            }
        }
        // Fewer units than CTAs (clusters): a grid fixed for a larger M (graph::NodeGrid::max_m,
        // the check tool's full grid). Busy CTAs spread over the grid instead of its first ones:
        // CTA c takes unit c * U / S where that is the first CTA with it ((c * U) % S < U),
        // the others none. Packed at the front, the busy CTAs share TPCs (session 8: 14% slower
        // at 32 tiles on a 132-CTA grid).
        if (num_units < stride) {
            const int cu = next_tile * num_units;  // < 2^31: both below the co-resident CTAs
            next_tile = cu % stride < num_units ? cu / stride : num_units;
        }
    }

    // Whether next() will return a unit (without taking it).
    __device__ __forceinline__ bool has_next() const { return next_tile < num_units; }

    // Returns the next work unit: cluster tile (tile_m, tile_n) in cluster-tile units and its
    // K slice, or false when done. Grouped rasterisation: `group` consecutive indices along the
    // major dimension, then step the minor one, so the CTAs in flight share A rows / B columns in
    // L2.
    __device__ __forceinline__ bool next(int& tile_m, int& tile_n, int& slice) {
        if (next_tile >= num_units) return false;
        int t = next_tile;
        next_tile += stride;
        slice = t / num_tiles;  // NOTES: 0 without split-K; one division per unit
        t -= slice * num_tiles;
        slice = (slice << slice_shift) | slice_rank;
        coords(t, tile_m, tile_n);
        return true;
    }

    // The cluster tile of linear index t (grouped rasterisation, see next()).
    __device__ __forceinline__ void coords(int t, int& tile_m, int& tile_n) const {
        const int major = along_n ? tiles_n : tiles_m;
        const int minor = along_n ? tiles_m : tiles_n;
        const int per_group = group * minor;
        const int group_id = t / per_group;
        const int first = group_id * group;
        const int group_size = min(major - first, group);
        const int r = t - group_id * per_group;
        const int a = first + r % group_size;
        const int b = r / group_size;
        tile_m = along_n ? b : a;
        tile_n = along_n ? a : b;
    }

    // ---- Stream-K: whole tiles first, then this worker's k-block range ----
    // (StreamKPartition over P workers, the CTAs or, in a kernel with clusters, the clusters, whose
    // CTAs walk the same cluster tiles and k-blocks as always: the data-parallel tiles c, c + P, ...
    // < dp_tiles, then the iterations [range_begin(g), range_begin(g + 1)) of its range g,
    // iteration i being k-block i % kb of unit i / kb: cluster tile i / kb, or, grouped, cluster
    // tile (row_of(c), i / kb).)
    StreamKPartition sk{0, 1, 1};
    int sk_it = 0, sk_end = 0;
    int sk_range = 0, sk_row = 0;  // StreamKPartition::range_of / row_of this worker
    int sk_waits_end = 0;          // StreamKPartition::waits_end of its range
    __device__ __forceinline__ void init_stream_k(int k_blocks) {
        sk = StreamKPartition(num_tiles, k_blocks, workers(), tiles_m);
        sk_range = sk.range_of(worker());
        sk_row = sk.row_of(worker());
        if (sk_range < sk.ranges) {
            sk_it = sk.range_begin(sk_range);
            sk_end = sk.range_begin(sk_range + 1);
            sk_waits_end = sk.waits_end(sk_range);
        }
    }
    // The CTA (worker) of range g that holds this worker's row (the slot of its partial).
    __device__ __forceinline__ int sk_worker_of(int g) const { return g * sk.group + sk_row; }
    // The next segment: tile t (linear) and its k-blocks [kb_lo, kb_hi).
    __device__ __forceinline__ bool next_stream_k(int& tile_m, int& tile_n, int& t, int& kb_lo,
                                                  int& kb_hi) {
        if (next_tile < sk.dp_tiles) {  // a whole tile of the data-parallel waves
            t = next_tile;
            next_tile += stride;
            kb_lo = 0;
            kb_hi = sk.kb;
            coords(t, tile_m, tile_n);
        } else {
            if (sk_it >= sk_end) return false;
            const int u = sk_it / sk.kb;
            const int unit_first = u * sk.kb;
            kb_lo = sk_it - unit_first;
            kb_hi = min(sk.kb, sk_end - unit_first);
            sk_it = unit_first + kb_hi;
            if (sk.group > 1) {  // grouped: this worker's row of tile column u
                t = u * sk.group + sk_row;
                tile_m = sk_row;
                tile_n = u;
            } else {
                t = u;
                coords(t, tile_m, tile_n);
            }
        }
        return true;
    }

    // Skips the next work unit (the ping-pong kernel's consumer warpgroups take alternate units of
    // their CTA's sequence: each one skips the units of the other).
    __device__ __forceinline__ void skip() { next_tile += stride; }
};

}  // namespace graphgemm::kernels::sm90::detail
