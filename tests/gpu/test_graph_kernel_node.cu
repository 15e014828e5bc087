// Typed kernel nodes: recorded in a capture (ours in every mode, or one begun by someone else),
// updated many times in the instantiated graph, replayed; stale and foreign handles refused with
// the graph left as it was; thread-block clusters kept across updates.
#include <cooperative_groups.h>

#include <cstdint>
#include <vector>

#include "gpu_test.hpp"
#include "graphgemm/graph/graph.hpp"

using namespace graphgemm;

namespace {

constexpr int kN = 1000;

__global__ void fill_kernel(float* out, float value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
__global__ void axpy_kernel(float* y, const float* x, float a, int n) {  // the dynamic one
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void add_kernel(float* y, float b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += b;
}
__global__ void cluster_size_kernel(int* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  out[blockIdx.x] = static_cast<int>(cooperative_groups::this_cluster().num_blocks());
#else
  out[blockIdx.x] = -1;
#endif
}

const graph::LaunchShape kShape{dim3((kN + 127) / 128), dim3(128)};

using graphgemm::testing::Stream;

// x1 = 1.5, x2 = -2 everywhere (set before capture); y is what the graph computes.
struct Buffers {
  support::DeviceBuffer x1{kN * sizeof(float)}, x2{kN * sizeof(float)}, y{kN * sizeof(float)};
  Buffers() {
    fill_kernel<<<kShape.grid, kShape.block>>>(x1.as<float>(), 1.5f, kN);
    fill_kernel<<<kShape.grid, kShape.block>>>(x2.as<float>(), -2.0f, kN);
    SUPPORT_CUDA(cudaDeviceSynchronize());
  }
};

// The captured work: y = 0; y = a*x + y (the node); y += 0.25. Static kernels on both sides
// check that the node sits on the stream's dependencies and becomes the next one's dependency.
void capture_work(cudaStream_t s, Buffers& b, graph::KernelNode<float*, const float*, float, int>& node) {
  fill_kernel<<<kShape.grid, kShape.block, 0, s>>>(b.y.as<float>(), 0.0f, kN);
  const Status rec = node.record(s, kShape, b.y.as<float>(), b.x1.as<float>(), 1.0f, kN);
  ASSERT_TRUE(rec.ok()) << rec.to_string();
  add_kernel<<<kShape.grid, kShape.block, 0, s>>>(b.y.as<float>(), 0.25f, kN);
}

float expected(float a, float x) {
  float r = a * x;
  r += 0.25f;
  return r;
}

void expect_y(const Buffers& b, float value, const char* when) {
  std::vector<float> h(kN);
  SUPPORT_CUDA(cudaMemcpy(h.data(), b.y.get(), kN * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (float v : h) bad += v != value;
  EXPECT_EQ(bad, 0) << when << ": expected " << value << ", y[0] = " << h[0];
}

class GraphKernelNode : public ::testing::TestWithParam<cudaStreamCaptureMode> {};

}  // namespace

TEST_P(GraphKernelNode, ManyUpdatesReplayCorrectly) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  Buffers b;
  graph::KernelNode node(axpy_kernel);
  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s, GetParam()).ok());
  capture_work(stream.s, b, node);
  ASSERT_TRUE(cap.end().ok());
  graph::GraphExec exec;
  ASSERT_TRUE(exec.instantiate(cap).ok());

  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  expect_y(b, expected(1.0f, 1.5f), "as recorded");
  for (int i = 0; i < 200; ++i) {
    const float a = 0.5f * static_cast<float>(i % 37) - 7.0f;
    const bool second = i % 3 == 0;
    const Status s = node.update(exec, b.y.as<float>(), (second ? b.x2 : b.x1).as<float>(), a, kN);
    ASSERT_TRUE(s.ok()) << s.to_string();
    ASSERT_TRUE(exec.launch(stream.s).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    expect_y(b, expected(a, second ? -2.0f : 1.5f), "after update");
  }
}

TEST_P(GraphKernelNode, InsideACaptureBegunByAnotherParty) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  Buffers b;
  graph::KernelNode node(axpy_kernel);
  SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, GetParam()));
  capture_work(stream.s, b, node);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 50; ++i) {
    const float a = static_cast<float>(i) * 0.25f;
    const Status s = node.update(exec, graph, b.y.as<float>(), b.x2.as<float>(), a, kN);
    ASSERT_TRUE(s.ok()) << s.to_string();
    SUPPORT_CUDA(cudaGraphLaunch(exec, stream.s));
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    expect_y(b, expected(a, -2.0f), "after update");
  }
  // The same handle with a graph it does not belong to.
  cudaGraph_t other = nullptr;
  SUPPORT_CUDA(cudaGraphCreate(&other, 0));
  const Status s = node.update(exec, other, b.y.as<float>(), b.x1.as<float>(), 3.0f, kN);
  EXPECT_NE(s.message().find("another graph"), std::string::npos) << s.to_string();
  SUPPORT_CUDA(cudaGraphLaunch(exec, stream.s));
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  expect_y(b, expected(49 * 0.25f, -2.0f), "after a refused update");
  SUPPORT_CUDA(cudaGraphDestroy(other));
  SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  SUPPORT_CUDA(cudaGraphDestroy(graph));
}

INSTANTIATE_TEST_SUITE_P(AllModes, GraphKernelNode,
                         ::testing::Values(cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                           cudaStreamCaptureModeRelaxed),
                         [](const auto& info) {
                           return info.param == cudaStreamCaptureModeGlobal        ? std::string("global")
                                  : info.param == cudaStreamCaptureModeThreadLocal ? std::string("thread_local")
                                                                                   : std::string("relaxed");
                         });

TEST(GraphKernelNodeErrors, StaleAndForeignHandlesLeaveTheGraphAsItWas) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  Buffers b;
  graph::KernelNode first(axpy_kernel), second(axpy_kernel), other(axpy_kernel);
  graph::GraphExec exec, other_exec;
  for (auto [node, target] : {std::pair{&first, &exec}, std::pair{&other, &other_exec}}) {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s).ok());
    capture_work(stream.s, b, *node);
    ASSERT_TRUE(cap.end().ok());
    ASSERT_TRUE(target->instantiate(cap).ok());
  }
  ASSERT_TRUE(first.update(exec, b.y.as<float>(), b.x1.as<float>(), 2.0f, kN).ok());

  // A handle of another graph: refused, and the graph still computes a = 2.
  const Status s = other.update(exec, b.y.as<float>(), b.x1.as<float>(), 5.0f, kN);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("another graph"), std::string::npos) << s.message();
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  expect_y(b, expected(2.0f, 1.5f), "after a foreign handle");

  // Re-instantiated from a new capture: the first handle is stale, the new one works.
  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s).ok());
  capture_work(stream.s, b, second);
  ASSERT_TRUE(cap.end().ok());
  ASSERT_TRUE(exec.instantiate(cap).ok());
  ASSERT_TRUE(second.update(exec, b.y.as<float>(), b.x1.as<float>(), 4.0f, kN).ok());
  const Status stale = first.update(exec, b.y.as<float>(), b.x1.as<float>(), 6.0f, kN);
  EXPECT_EQ(stale.code(), StatusCode::invalid_argument);
  EXPECT_NE(stale.message().find("stale"), std::string::npos) << stale.message();
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  expect_y(b, expected(4.0f, 1.5f), "after a stale handle");

  // Outside a capture, record refuses.
  graph::KernelNode loose(axpy_kernel);
  const Status outside = loose.record(stream.s, kShape, b.y.as<float>(), b.x1.as<float>(), 1.0f, kN);
  EXPECT_NE(outside.message().find("not capturing"), std::string::npos) << outside.to_string();
}

TEST(GraphKernelNodeCluster, ClusterShapeSurvivesUpdates) {
  GRAPHGEMM_REQUIRE_GPU();
  int major = 0;
  SUPPORT_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major < 9) GTEST_SKIP() << "skipped: thread-block clusters need compute capability 9.0 or newer";
  Stream stream;
  support::DeviceBuffer out(64 * sizeof(int));
  SUPPORT_CUDA(cudaMemset(out.get(), 0, out.bytes()));
  graph::KernelNode node(cluster_size_kernel);
  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s).ok());
  const Status rec = node.record(stream.s, {dim3(4), dim3(32), 0, dim3(2)}, out.as<int>());
  ASSERT_TRUE(rec.ok()) << rec.to_string();
  ASSERT_TRUE(cap.end().ok());
  graph::GraphExec exec;
  ASSERT_TRUE(exec.instantiate(cap).ok());
  auto check = [&](int blocks, const char* when) {
    ASSERT_TRUE(exec.launch(stream.s).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    std::vector<int> h(64);
    SUPPORT_CUDA(cudaMemcpy(h.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    for (int i = 0; i < blocks; ++i) EXPECT_EQ(h[i], 2) << when << ": block " << i << " did not run in a cluster of 2";
  };
  check(4, "as recorded");
  ASSERT_TRUE(node.update(exec, out.as<int>()).ok());
  check(4, "after an update");
  ASSERT_TRUE(node.update_with_shape(exec, {dim3(8), dim3(32), 0, dim3(2)}, out.as<int>()).ok());
  check(8, "after a grid update");
  const Status s = node.update_with_shape(exec, {dim3(8), dim3(32), 0, dim3(1)}, out.as<int>());
  EXPECT_NE(s.message().find("cluster shape cannot change"), std::string::npos) << s.to_string();
}
