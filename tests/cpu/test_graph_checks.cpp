// The graph layer's checks that need no GPU: which argument changes a GEMM node accepts, the
// compile-time typing of kernel node arguments, and handles used before they are valid.
#include <gtest/gtest.h>

#include "fake_problem.hpp"

#include <cstdint>
#include <string>

#include "gemm/validate.hpp"
#include "graphgemm/graph/graph.hpp"

using namespace graphgemm;
using graphgemm::testing::fake_address;
using graphgemm::testing::fake_linear;
using graphgemm::detail::check_updatable_problem;

namespace {

GemmArgs linear(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmArgs g = fake_linear(m, n, k);
  g.bias = VectorView{fake_address(0x40000), DType::bf16, n};
  g.scale_a = VectorView{fake_address(0x50000), DType::fp32, m};
  return g;
}

void expect_error(const Status& s, const std::string& fragment) {
  graphgemm::testing::expect_error(s, StatusCode::invalid_argument, fragment);
}

// Host functions with kernel-like signatures: only their types matter here.
void two_args(float*, float) {}
void no_args() {}

}  // namespace

TEST(GraphChecks, UpdatableProblemAcceptsNewMAndLeadingDimensions) {
  const GemmArgs planned = linear(256, 4096, 4096);
  EXPECT_TRUE(check_updatable_problem(planned, planned).ok());
  EXPECT_TRUE(check_updatable_problem(planned, linear(1, 4096, 4096)).ok());
  EXPECT_TRUE(check_updatable_problem(planned, linear(300, 4096, 4096)).ok()) << "max_m is the graph layer's check";
  GemmArgs padded = linear(17, 4096, 4096);
  padded.a.ld = 4104;
  padded.d.ld = 4160;
  EXPECT_TRUE(check_updatable_problem(planned, padded).ok());
}

TEST(GraphChecks, UpdatableProblemRefusesOtherProblems) {
  const GemmArgs planned = linear(256, 4096, 4096);
  expect_error(check_updatable_problem(planned, linear(16, 4096 + 8, 4096)), "N is 4104 here but 4096");
  expect_error(check_updatable_problem(planned, linear(16, 4096, 2048)), "K is 2048 here but 4096");
  GemmArgs b_ld = linear(16, 4096, 4096);
  b_ld.b.ld = 4160;
  expect_error(check_updatable_problem(planned, b_ld), "B's leading dimension");
  GemmArgs no_bias = linear(16, 4096, 4096);
  no_bias.bias.reset();
  expect_error(check_updatable_problem(planned, no_bias), "bias is absent here but given");
  GemmArgs short_scale = linear(16, 4096, 4096);
  short_scale.scale_a->size = 8;
  expect_error(check_updatable_problem(planned, short_scale), "scale_a's length is 8");
  GemmArgs fp32_out = linear(16, 4096, 4096);
  fp32_out.d.dtype = DType::fp32;
  expect_error(check_updatable_problem(planned, fp32_out), "D's dtype");
  GemmArgs with_c = linear(16, 4096, 4096);
  with_c.c = MatrixView::row_major(fake_address(0x60000), DType::bf16, 16, 4096);
  expect_error(check_updatable_problem(planned, with_c), "C is given here but absent");
}

TEST(GraphChecks, KernelNodeArgumentsAreTypedAtCompileTime) {
  using Node = decltype(graph::KernelNode(two_args));
  static_assert(std::is_same_v<Node, graph::KernelNode<float*, float>>);
  static_assert(Node::fits<float*, float>);
  static_assert(Node::fits<float*&, const float&>);
  static_assert(Node::fits<std::nullptr_t, float>);
  static_assert(!Node::fits<float*, double>, "a double narrows to float: must not compile");
  static_assert(!Node::fits<float*>, "too few arguments");
  static_assert(!Node::fits<float*, float, int>, "too many arguments");
  static_assert(!Node::fits<int*, float>, "wrong pointer type");
  static_assert(!Node::fits<int, float>, "an integer is not a pointer");
  static_assert(graph::KernelNode<>::fits<>);
  (void)no_args;
  SUCCEED();
}

TEST(GraphChecks, HandlesBeforeRecordingOrInstantiation) {
  graph::GraphExec exec;
  graph::KernelNode node(two_args);
  float* x = nullptr;
  expect_error(node.update(exec, x, 1.0f), "record it inside a capture first");
  graph::GemmNode gemm;
  expect_error(gemm.update(exec, linear(1, 8, 8)), "record it inside a capture first");
  expect_error(exec.check_node({}), "the executable graph is empty");
  expect_error(exec.launch(nullptr), "instantiate it first");
  graph::KernelNode<float*, float> empty;
  expect_error(empty.record(nullptr, {}, x, 1.0f), "has no kernel");
}
