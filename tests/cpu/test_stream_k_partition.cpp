// Stream-K's partition (StreamKPartition, shared with the kernel's scheduler), walked per CTA
// exactly as the kernel walks it, over many (tiles, k-blocks, CTAs, tile rows): every (tile,
// k-block) is done exactly once; whole tiles come before a CTA's range; a segment that starts
// mid-tile is always its CTA's first; the owner's segment (k-block 0) is its CTA's last; the CTAs
// the kernel's owner waits on (StreamKPartition::waits_end: later ranges that begin inside the
// tile, their CTA of the owner's row) are exactly the other holders of the tile; and where the
// ranges are grouped (every tile shared, several tile rows), the CTAs of a group walk the same
// columns and k-blocks, one tile row each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "graphgemm/kernels/sm90/sm90_gemm_types.hpp"

namespace {

using graphgemm::kernels::sm90::StreamKPartition;

struct Segment {
  long long tile;
  int lo, hi;
};

// CTA c's walk: the scheduler's next_stream_k (data-parallel tiles c, c + P, ..., then its range;
// grouped, its row of the range's tile columns). Linear tile t = column * rows + row when grouped.
std::vector<Segment> walk(const StreamKPartition& p, int c) {
  std::vector<Segment> out;
  for (long long t = c; t < p.dp_tiles; t += p.ctas) out.push_back({t, 0, p.kb});
  const int g = p.range_of(c);
  if (g >= p.ranges) return out;  // past the last whole group: idle
  for (long long it = p.range_begin(g), end = p.range_begin(g + 1); it < end;) {
    const long long u = it / p.kb, first = u * p.kb;
    const int lo = static_cast<int>(it - first);
    const int hi = static_cast<int>(std::min<long long>(p.kb, end - first));
    out.push_back({p.tile_of(static_cast<int>(u), c), lo, hi});
    it = first + hi;
  }
  return out;
}

void check(long long tiles, int kb, int ctas, int tiles_m = 1) {
  SCOPED_TRACE(::testing::Message() << tiles << " tiles (" << tiles_m << " rows) x " << kb << " k-blocks on " << ctas << " CTAs");
  const StreamKPartition p(static_cast<int>(tiles), kb, ctas, tiles_m);
  const bool grouped = tiles_m > 1 && tiles_m <= 8 && tiles < ctas && ctas % tiles_m * 16 <= ctas;
  ASSERT_EQ(p.group, grouped ? tiles_m : 1);
  ASSERT_EQ(p.ranges, ctas / p.group);
  ASSERT_EQ(p.range_begin(p.ranges) * static_cast<long long>(p.group), tiles * kb);
  ASSERT_GE(p.share(), 0);
  ASSERT_EQ(p.dp_tiles % ctas, 0);
  // The shared part: the last, partial wave; with the wave before it where the partial wave has
  // fewer k-blocks than CTAs; nothing where the waves are whole.
  const long long tail = tiles % ctas;
  if (tail == 0) EXPECT_EQ(p.dp_tiles, tiles);
  else if (tail * kb >= ctas) EXPECT_EQ(tiles - p.dp_tiles, tail);
  else EXPECT_EQ(tiles - p.dp_tiles, std::min(tiles, ctas + tail));
  if (p.dp_tiles < tiles) EXPECT_GE(p.share(), 1) << "every CTA of a shared part gets a k-block";
  std::vector<int> done(static_cast<std::size_t>(tiles * kb), 0);
  std::vector<int> owner(static_cast<std::size_t>(tiles), -1);
  std::vector<std::vector<int>> holders(static_cast<std::size_t>(tiles));
  std::vector<char> partial_owner(static_cast<std::size_t>(tiles), 0);  // the owner holds k-block 0 only
  for (int g = 0; g < p.ranges; ++g) {
    const int length = p.range_begin(g + 1) - p.range_begin(g);  // balanced: q or q + 1
    EXPECT_TRUE(length == p.share() || length == p.share() + 1) << "range " << g << ": " << length;
  }
  for (int c = 0; c < ctas; ++c) {
    const std::vector<Segment> segs = walk(p, c);
    const int g = p.range_of(c);
    if (g >= p.ranges) {
      EXPECT_TRUE(segs.empty()) << "CTA " << c << " is past the last whole group";
      continue;
    }
    if (grouped && c % tiles_m > 0) {  // the same columns and k-blocks as its group's first CTA, one row down
      const std::vector<Segment> first = walk(p, c - c % tiles_m);
      ASSERT_EQ(segs.size(), first.size());
      for (std::size_t i = 0; i < segs.size(); ++i)
        EXPECT_TRUE(segs[i].tile == first[i].tile + c % tiles_m && segs[i].lo == first[i].lo && segs[i].hi == first[i].hi);
    }
    // A CTA whose last segment is not an owner's partial tile waits on nobody.
    if (segs.empty() || segs.back().lo > 0 || segs.back().hi == kb) EXPECT_EQ(p.waits_end(g), g + 1) << "CTA " << c;
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const Segment& s = segs[i];
      ASSERT_LT(s.lo, s.hi);
      for (int k = s.lo; k < s.hi; ++k) ++done[static_cast<std::size_t>(s.tile * kb + k)];
      if (i > 0) ASSERT_GE(s.tile, segs[i - 1].tile);
      if (s.lo > 0) EXPECT_EQ(static_cast<long long>(i), p.dp_tiles / ctas)
          << "a segment starting mid-tile must be the first of the CTA's range (CTA " << c << ")";
      if (s.lo == 0 && s.hi < kb) EXPECT_EQ(i + 1, segs.size()) << "an owner's partial tile must be its last segment";
      if (s.lo == 0) owner[static_cast<std::size_t>(s.tile)] = c;
      else holders[static_cast<std::size_t>(s.tile)].push_back(c);
      if (s.lo == 0 && s.hi < kb) partial_owner[static_cast<std::size_t>(s.tile)] = 1;
    }
  }
  for (std::size_t i = 0; i < done.size(); ++i) ASSERT_EQ(done[i], 1) << "iteration " << i;
  for (long long t = 0; t < tiles; ++t) {
    const int o = owner[static_cast<std::size_t>(t)];
    ASSERT_GE(o, 0);
    // The kernel's owner loop, for the owner of a partial tile (its range's last segment): ranges
    // g + 1, ..., waits_end(g) - 1, their CTA of the owner's row.
    std::vector<int> waited;
    if (partial_owner[static_cast<std::size_t>(t)])
      for (int w = p.range_of(o) + 1; w < p.waits_end(p.range_of(o)); ++w) waited.push_back(w * p.group + p.row_of(o));
    EXPECT_EQ(waited, holders[static_cast<std::size_t>(t)]) << "tile " << t;
  }
}

TEST(StreamKPartition, EdgeCases) {
  for (int ctas : {1, 2, 3, 7, 132}) {
    for (long long tiles : {1LL, 2LL, ctas - 1LL, ctas + 0LL, ctas + 1LL, 2LL * ctas - 1, 2LL * ctas, 2LL * ctas + 1,
                            5LL * ctas, 5LL * ctas + 3}) {
      if (tiles < 1) continue;
      for (int kb : {1, 2, 3, 16, 112, 256}) {
        if (tiles * kb < ctas) continue;  // the launcher gives every CTA one k-block at least
        check(tiles, kb, ctas);
        for (int rows : {2, 3, 4, 7, 8, 9})
          if (tiles % rows == 0) check(tiles, kb, ctas, rows);
      }
    }
  }
}

TEST(StreamKPartition, RandomShapes) {
  std::mt19937 rng(20261121);
  for (int i = 0; i < 3000; ++i) {
    const int ctas = std::uniform_int_distribution<int>(1, 140)(rng);
    const long long tiles = std::uniform_int_distribution<long long>(1, 700)(rng);
    const int kb = std::uniform_int_distribution<int>(1, 300)(rng);
    if (tiles * kb < ctas) continue;
    check(tiles, kb, ctas);
    const int rows = std::uniform_int_distribution<int>(1, 10)(rng);
    if (tiles % rows == 0) check(tiles, kb, ctas, rows);
    if (HasFatalFailure() || HasFailure()) return;
  }
}

}  // namespace
