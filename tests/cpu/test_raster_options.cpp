// The sm90 tile-order options are validated by GemmPlan::initialize before anything touches a GPU.
#include <gtest/gtest.h>

#include "fake_problem.hpp"

#include <string>

#include "graphgemm/gemm.hpp"

using namespace graphgemm;
using graphgemm::testing::fake_linear;

namespace {

void expect_error(RasterOrder order, int group, const std::string& fragment) {
  GemmOptions o;
  o.sm90_raster_order = order;
  o.sm90_raster_group = group;
  graphgemm::testing::expect_initialize_error(fake_linear(1024, 1024, 1024), o, fragment);
}

}  // namespace

TEST(RasterOptions, NamesAndDefaults) {
  EXPECT_STREQ(to_string(RasterOrder::automatic), "automatic");
  EXPECT_STREQ(to_string(RasterOrder::along_m), "along M");
  EXPECT_STREQ(to_string(RasterOrder::along_n), "along N");
  const GemmOptions defaults;
  EXPECT_EQ(defaults.sm90_raster_order, RasterOrder::automatic);
  EXPECT_EQ(defaults.sm90_raster_group, 0);
}

TEST(RasterOptions, GroupOutOfRange) {
  for (int g : {-1, 65537})
    expect_error(RasterOrder::along_n, g,
                 "sm90_raster_group must be 0 (the backend decides) or 1 .. 65536 tiles (got " + std::to_string(g) + ")");
}

TEST(RasterOptions, UnknownOrder) {
  expect_error(static_cast<RasterOrder>(7), 0, "sm90_raster_order has an unknown value 7 (automatic, along_m or along_n)");
}
