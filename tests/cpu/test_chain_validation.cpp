// GemmChain::initialize's checks that need no GPU (they run before the device is asked): every
// refusal names the layer and says what to give instead, and leaves the chain uninitialized.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fake_problem.hpp"
#include "graphgemm/chain.hpp"

using namespace graphgemm;
using graphgemm::testing::fake_address;

namespace {

// x M x widths[0] -> ... -> widths.back(), weights at fake addresses.
struct Fake {
  std::vector<ChainLayer> layers;
  ChainArgs args;
  Fake(std::int64_t m, const std::vector<std::int64_t>& widths, DType dt = DType::bf16) {
    for (std::size_t l = 0; l + 1 < widths.size(); ++l)
      layers.push_back({MatrixView::transposed_weight(fake_address(0x100000 * (l + 1)), dt, widths[l + 1], widths[l])});
    args = ChainArgs{MatrixView::row_major(fake_address(0x10000), dt, m, widths[0]),
                     MatrixView::row_major(fake_address(0x20000), dt, m, widths.back()), layers};
  }
};

void expect_refused(const ChainArgs& args, const std::string& fragment, const ChainOptions& opt = {}) {
  GemmChain chain;
  graphgemm::testing::expect_error(chain.initialize(args, opt), StatusCode::invalid_argument, fragment);
  EXPECT_FALSE(chain.initialized());
}

}  // namespace

TEST(ChainValidation, LayerCount) {
  Fake none(4, {64});
  expect_refused(none.args, "give 1 to 8");
  Fake nine(4, {64, 64, 64, 64, 64, 64, 64, 64, 64, 64});
  expect_refused(nine.args, "has 9 layers");
}

TEST(ChainValidation, WidthsMustChainAndBeMultiplesOf8) {
  Fake f(4, {64, 128, 64});
  f.layers[1].w = MatrixView::transposed_weight(fake_address(0x300000), DType::bf16, 64, 96);  // K 96 != 128
  f.args.layers = f.layers;
  expect_refused(f.args, "layer 1: the weight has K = 96 but its input has 128");
  Fake odd(4, {64, 100, 64});
  expect_refused(odd.args, "layer 0: N = 100");
  Fake y(4, {64, 128, 64});
  y.args.y.cols = 32;
  expect_refused(y.args, "y has 32 columns but the last layer's N is 64");
}

TEST(ChainValidation, DtypesAndLayouts) {
  Fake f(4, {64, 64});
  f.args.x.dtype = DType::fp32;
  expect_refused(f.args, "chains run bf16 or fp16");
  Fake y(4, {64, 64});
  y.args.y.dtype = DType::fp16;
  expect_refused(y.args, "a chain's output has its input's dtype");
  Fake w(4, {64, 64});
  w.layers[0].w = MatrixView::row_major(fake_address(0x100000), DType::bf16, 64, 64);
  w.args.layers = w.layers;
  expect_refused(w.args, "transposed_weight");
  Fake mixed(4, {64, 64});
  mixed.layers[0].w.dtype = DType::fp16;
  mixed.args.layers = mixed.layers;
  expect_refused(mixed.args, "every weight must have x's dtype");
}

TEST(ChainValidation, OptionalOperands) {
  Fake f(4, {64, 64});
  f.layers[0].bias = VectorView{fake_address(0x40000), DType::bf16, 32};
  f.args.layers = f.layers;
  expect_refused(f.args, "the bias has 32 entries; it needs N = 64");
  Fake s(4, {64, 64});
  s.layers[0].scale_a = VectorView{fake_address(0x40000), DType::bf16, 4};
  s.args.layers = s.layers;
  expect_refused(s.args, "scale_a is bf16; it must be fp32");
  Fake r(4, {64, 64});
  r.layers[0].scale_a = VectorView{fake_address(0x40000), DType::fp32, 3};
  r.args.layers = r.layers;
  expect_refused(r.args, "one per row (M = 4)");
}

TEST(ChainValidation, MaxM) {
  Fake f(300, {64, 64});
  expect_refused(f.args, "M = 300 is larger than max_m = 256", ChainOptions{.max_m = 256});
  Fake z(0, {64, 64});
  expect_refused(z.args, "give ChainOptions::max_m");
}

