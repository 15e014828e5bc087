// graph::Capture in every capture mode, joining a capture begun by someone else (and leaving it
// to them), abandoned captures, recapture-then-update reports and the graph cache.
#include <cstdint>
#include <vector>

#include "gpu_test.hpp"
#include "graphgemm/graph/graph.hpp"

using namespace graphgemm;

namespace {

class GraphCapture : public ::testing::TestWithParam<cudaStreamCaptureMode> {};


using graphgemm::testing::Stream;

std::vector<unsigned char> bytes_of(const support::DeviceBuffer& b) {
  std::vector<unsigned char> h(b.bytes());
  SUPPORT_CUDA(cudaMemcpy(h.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return h;
}

bool all_equal(const std::vector<unsigned char>& v, unsigned char x) {
  for (unsigned char c : v)
    if (c != x) return false;
  return true;
}

// Instantiates a graph that someone else's capture produced, replays it once on `s` and waits,
// then destroys both.
void replay_once_and_destroy(cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  SUPPORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  SUPPORT_CUDA(cudaGraphLaunch(exec, s));
  SUPPORT_CUDA(cudaStreamSynchronize(s));
  SUPPORT_CUDA(cudaGraphExecDestroy(exec));
  SUPPORT_CUDA(cudaGraphDestroy(graph));
}

cudaStreamCaptureStatus capture_status(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  SUPPORT_CUDA(cudaStreamIsCapturing(s, &st));
  return st;
}

}  // namespace

TEST_P(GraphCapture, BeginEndInstantiateReplay) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer buf(4096);
  SUPPORT_CUDA(cudaMemset(buf.get(), 0, buf.bytes()));
  graph::Capture cap;
  ASSERT_TRUE(cap.begin(stream.s, GetParam()).ok());
  EXPECT_FALSE(cap.joined());
  EXPECT_NE(cap.id(), 0u);
  SUPPORT_CUDA(cudaMemsetAsync(buf.get(), 7, buf.bytes(), stream.s));
  const Status end = cap.end();
  ASSERT_TRUE(end.ok()) << end.to_string();
  EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusNone);
  EXPECT_TRUE(all_equal(bytes_of(buf), 0)) << "capturing must not execute";
  graph::GraphExec exec;
  ASSERT_TRUE(exec.instantiate(cap).ok());
  EXPECT_EQ(cap.graph(), nullptr) << "the GraphExec took the graph";
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_TRUE(all_equal(bytes_of(buf), 7));
}

TEST_P(GraphCapture, JoinsForeignCaptureAndNeverEndsIt) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer buf(4096);
  SUPPORT_CUDA(cudaMemset(buf.get(), 0, buf.bytes()));
  SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, GetParam()));  // "another party" begins it
  {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s).ok());
    EXPECT_TRUE(cap.joined());
    SUPPORT_CUDA(cudaMemsetAsync(buf.get(), 9, buf.bytes(), stream.s));
    const Status end = cap.end();
    EXPECT_TRUE(end.ok()) << end.to_string();
    EXPECT_EQ(cap.graph(), nullptr);
    graph::GraphExec exec;
    EXPECT_FALSE(exec.instantiate(cap).ok()) << "a joined capture's graph belongs to its owner";
    EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusActive) << "Capture::end ended a foreign capture";
  }
  EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusActive) << "~Capture ended a foreign capture";
  graph::Capture refuse;
  const Status s = refuse.begin(stream.s, GetParam(), /*allow_join=*/false);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("already capturing"), std::string::npos) << s.message();
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);  // the owner ends it
  replay_once_and_destroy(graph, stream.s);
  EXPECT_TRUE(all_equal(bytes_of(buf), 9));
}

// instantiate(Capture&) uploads the executable graph on the capture's stream, and leaves the
// upload to the first launch when that stream has begun another capture meanwhile (whose graph
// must come out intact, holding only its own work). That capture is relaxed: under a global or
// thread-local one CUDA refuses the instantiation itself (cudaErrorStreamCaptureUnsupported).
TEST_P(GraphCapture, InstantiateUploadsUnlessTheStreamCaptures) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer buf(4096), other(4096);
  SUPPORT_CUDA(cudaMemset(buf.get(), 0, buf.bytes()));
  SUPPORT_CUDA(cudaMemset(other.get(), 0, other.bytes()));
  for (const bool stream_capturing : {false, true}) {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s, GetParam()).ok());
    SUPPORT_CUDA(cudaMemsetAsync(buf.get(), stream_capturing ? 5 : 3, buf.bytes(), stream.s));
    ASSERT_TRUE(cap.end().ok());
    if (stream_capturing) SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeRelaxed));  // someone else's
    graph::GraphExec exec;
    const Status inst = exec.instantiate(cap);
    ASSERT_TRUE(inst.ok()) << inst.to_string();
    if (stream_capturing) {
      EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusActive) << "the upload broke the other capture";
      SUPPORT_CUDA(cudaMemsetAsync(other.get(), 8, other.bytes(), stream.s));
      cudaGraph_t graph = nullptr;
      ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);
      size_t nodes = 0;
      SUPPORT_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
      EXPECT_EQ(nodes, 1u) << "the other capture holds only its own memset";
      replay_once_and_destroy(graph, stream.s);
      EXPECT_TRUE(all_equal(bytes_of(other), 8));
    }
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    EXPECT_TRUE(all_equal(bytes_of(buf), 0)) << "an upload must not run the graph";
    ASSERT_TRUE(exec.launch(stream.s).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    EXPECT_TRUE(all_equal(bytes_of(buf), stream_capturing ? 5 : 3));
    SUPPORT_CUDA(cudaMemset(buf.get(), 0, buf.bytes()));
  }
  graph::GraphExec empty;
  EXPECT_NE(empty.upload_unless_capturing(stream.s).message().find("instantiate it first"), std::string::npos);
}

TEST_P(GraphCapture, AbandonedCaptureIsEnded) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer buf(256);
  {
    graph::Capture cap;
    ASSERT_TRUE(cap.begin(stream.s, GetParam()).ok());
    SUPPORT_CUDA(cudaMemsetAsync(buf.get(), 1, buf.bytes(), stream.s));
  }
  EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusNone);
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));  // the stream is usable again
}

INSTANTIATE_TEST_SUITE_P(AllModes, GraphCapture,
                         ::testing::Values(cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                           cudaStreamCaptureModeRelaxed),
                         [](const auto& info) { return ::graphgemm::testing::capture_mode_name(info.param); });

TEST(GraphRecapture, ReportsInstantiatedUpdatedReinstantiated) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer a(4096), b(4096);
  auto one_memset = [&](unsigned char v) {
    return [&a, v](cudaStream_t s) { SUPPORT_CUDA(cudaMemsetAsync(a.get(), v, a.bytes(), s)); };
  };
  graph::GraphExec exec;
  graph::UpdateReport how;
  ASSERT_TRUE(graph::recapture(exec, stream.s, one_memset(3), &how).ok());
  EXPECT_EQ(how.kind, graph::UpdateKind::instantiated);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_TRUE(all_equal(bytes_of(a), 3));
  const std::uint64_t generation = exec.generation();

  ASSERT_TRUE(graph::recapture(exec, stream.s, one_memset(5), &how).ok());
  EXPECT_EQ(how.kind, graph::UpdateKind::updated) << how.reason;
  EXPECT_EQ(exec.generation(), generation);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_TRUE(all_equal(bytes_of(a), 5));

  auto two_memsets = [&](cudaStream_t s) -> Status {
    SUPPORT_CUDA(cudaMemsetAsync(a.get(), 6, a.bytes(), s));
    SUPPORT_CUDA(cudaMemsetAsync(b.get(), 8, b.bytes(), s));
    return {};
  };
  ASSERT_TRUE(graph::recapture(exec, stream.s, two_memsets, &how).ok());
  EXPECT_EQ(how.kind, graph::UpdateKind::reinstantiated);
  EXPECT_FALSE(how.reason.empty());
  EXPECT_GT(exec.generation(), generation);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
  EXPECT_TRUE(all_equal(bytes_of(a), 6));
  EXPECT_TRUE(all_equal(bytes_of(b), 8));

  // A failing body: the capture is dropped, the executable graph kept as it was.
  const Status failed = graph::recapture(exec, stream.s, [](cudaStream_t) {
    return Status{StatusCode::invalid_argument, "body failed"};
  });
  EXPECT_EQ(failed.message(), "body failed");
  EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusNone);
  ASSERT_TRUE(exec.launch(stream.s).ok());
  SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
}

TEST(GraphRecapture, RefusesAStreamThatIsAlreadyCapturing) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  SUPPORT_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeGlobal));
  graph::GraphExec exec;
  const Status s = graph::recapture(exec, stream.s, [](cudaStream_t) {});
  EXPECT_NE(s.message().find("already capturing"), std::string::npos) << s.to_string();
  EXPECT_EQ(capture_status(stream.s), cudaStreamCaptureStatusActive);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);
  SUPPORT_CUDA(cudaGraphDestroy(graph));
}

TEST(GraphCache, CapturesOncePerKey) {
  GRAPHGEMM_REQUIRE_GPU();
  Stream stream;
  support::DeviceBuffer buf(1024);
  graph::GraphCache<int> cache;
  int captures = 0;
  auto work_for = [&](int key) {
    return [&, key](cudaStream_t s) {
      ++captures;
      SUPPORT_CUDA(cudaMemsetAsync(buf.get(), key, buf.bytes(), s));
    };
  };
  bool captured = false;
  for (int key : {1, 2, 1, 1, 2, 3}) {
    ASSERT_TRUE(cache.launch(key, stream.s, work_for(key), &captured).ok());
    SUPPORT_CUDA(cudaStreamSynchronize(stream.s));
    EXPECT_TRUE(all_equal(bytes_of(buf), static_cast<unsigned char>(key)));
  }
  EXPECT_EQ(captures, 3);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_NE(cache.find(2), nullptr);
  EXPECT_EQ(cache.find(4), nullptr);
}
