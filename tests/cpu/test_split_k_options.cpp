// Split-K options are validated by GemmPlan::initialize before anything touches a GPU.
#include <gtest/gtest.h>

#include "fake_problem.hpp"

#include <cstdint>
#include <string>

#include "graphgemm/gemm.hpp"

using namespace graphgemm;
using graphgemm::testing::fake_address;
using graphgemm::testing::fake_linear;

namespace {


void expect_error(const GemmArgs& args, SplitKMode mode, int slices, const std::string& fragment, int cluster = 0) {
  GemmOptions o;
  o.split_k_mode = mode;
  o.split_k_slices = slices;
  o.split_k_cluster = cluster;
  graphgemm::testing::expect_initialize_error(args, o, fragment);
}

}  // namespace

TEST(SplitKOptions, Names) {
  EXPECT_STREQ(to_string(SplitKMode::none), "none");
  EXPECT_STREQ(to_string(SplitKMode::serial), "serial");
  EXPECT_STREQ(to_string(SplitKMode::parallel), "parallel");
  EXPECT_STREQ(to_string(SplitKMode::automatic), "automatic");
  EXPECT_STREQ(to_string(SplitKMode::stream_k), "stream_k");
  const GemmOptions defaults;
  EXPECT_EQ(defaults.split_k_mode, SplitKMode::automatic);
  EXPECT_EQ(defaults.split_k_slices, 0);
  EXPECT_EQ(defaults.split_k_cluster, 0);
}

TEST(SplitKOptions, NegativeSlices) {
  expect_error(fake_linear(128, 128, 4096), SplitKMode::parallel, -2,
               "split_k_slices must be >= 1, or 0 to let the heuristic choose (got -2)");
}

TEST(SplitKOptions, SlicesWithModeNone) {
  expect_error(fake_linear(128, 128, 4096), SplitKMode::none, 4,
               "split_k_slices = 4 needs split_k_mode serial, parallel or automatic (it is none");
}

TEST(SplitKOptions, MoreSlicesThanK) {
  expect_error(fake_linear(128, 128, 16), SplitKMode::serial, 17,
               "split_k_slices = 17 exceeds K = 16: every slice needs at least one element of K");
}

TEST(SplitKOptions, UnknownMode) {
  expect_error(fake_linear(128, 128, 64), static_cast<SplitKMode>(9), 0, "split_k_mode has an unknown value 9");
}

TEST(SplitKOptions, StreamKTakesNoSliceCount) {
  expect_error(fake_linear(1024, 2112, 7168), SplitKMode::stream_k, 8,
               "split_k_slices = 8 with split_k_mode stream_k: stream-K shares the k-blocks among all SMs");
}

TEST(SplitKOptions, ClusterSizes) {
  for (int c : {-1, 3, 6, 16})
    expect_error(fake_linear(128, 128, 16384), SplitKMode::parallel, 16,
                 "split_k_cluster must be 0 (the backend decides), 1 (no cluster sums), 2, 4 or 8 (got " + std::to_string(c) + ")", c);
}

TEST(SplitKOptions, ClusterSumsAreForParallelSlices) {
  expect_error(fake_linear(128, 128, 16384), SplitKMode::serial, 16,
               "split_k_cluster = 4 sums parallel split-K slices; split_k_mode is serial", 4);
  expect_error(fake_linear(128, 128, 16384), SplitKMode::stream_k, 0,
               "split_k_cluster = 2 sums parallel split-K slices; split_k_mode is stream_k", 2);
}

TEST(SplitKOptions, ClusterSumsNeedWholeClustersOfSlices) {
  expect_error(fake_linear(128, 128, 16384), SplitKMode::parallel, 12,
               "split_k_slices = 12 is not a multiple of split_k_cluster = 8: every cluster sums that many consecutive slices", 8);
}
