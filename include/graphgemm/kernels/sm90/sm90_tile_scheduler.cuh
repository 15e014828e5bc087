// graphgemm: persistent tile scheduler for the sm90 GEMM kernel.
//
// The unit of work is a cluster tile ((ClusterM * BlockM) x (ClusterN * BlockN)); every CTA of a
// cluster walks the same sequence of cluster tiles and picks its own sub-tile by cluster rank, so
// the producers of a cluster always agree on what to multicast. Tile counts are derived from the
// runtime M and N, so the grid never depends on M.
//
// Split-K: a work unit is (cluster tile, slice); units are numbered slice-major,
// u = slice * num_tiles + tile, and every CTA walks its units in increasing order. Slice s of a
// tile is therefore always handed out before slice s + 1 of it, which makes the serial mode's
// "wait until the slices before mine are done" deadlock-free on a co-resident persistent grid:
// the lowest unfinished unit only ever waits on lower (finished) units.
#pragma once

#include <cstdint>

#include "sm90_primitives.cuh"

namespace graphgemm::kernels::sm90::detail {

template <int BlockM, int BlockN, int ClusterM, int ClusterN>
struct TileScheduler {
    int tiles_m, tiles_n;  // cluster tiles
    int num_tiles;
    int num_units;         // num_tiles * splits
    int group, along_n;
    int next_tile, stride;

    __device__ __forceinline__ TileScheduler(int m, int n, int raster_group, int raster_along_n,
                                             int splits) {
        tiles_m = (m + BlockM * ClusterM - 1) / (BlockM * ClusterM);
        tiles_n = (n + BlockN * ClusterN - 1) / (BlockN * ClusterN);
        num_tiles = tiles_m * tiles_n;
        num_units = num_tiles * splits;
        group = raster_group < 1 ? 1 : raster_group;
        along_n = raster_along_n;
        if constexpr (ClusterM * ClusterN > 1) {
            next_tile = static_cast<int>(cluster_id_x());
            stride = static_cast<int>(num_clusters_x());
        } else {
            next_tile = static_cast<int>(blockIdx.x);
            stride = static_cast<int>(gridDim.x);
        }
    }

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
        return true;
    }

    // Skips the next work unit (the ping-pong kernel's consumer warpgroups take alternate units of
    // their CTA's sequence: each one skips the units of the other).
    __device__ __forceinline__ void skip() { next_tile += stride; }
};

}  // namespace graphgemm::kernels::sm90::detail
