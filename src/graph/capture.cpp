// Capture: begin/end a stream capture, or join one begun by someone else (never ending it).
#include "graphgemm/graph/capture.hpp"

#include <string>
#include <utility>

#include "common/cuda_check.hpp"
#include "graph/graph_internal.hpp"

namespace graphgemm::graph {

Capture::~Capture() { reset(); }

Capture::Capture(Capture&& o) noexcept
    : stream_(o.stream_), graph_(o.graph_), id_(o.id_), active_(o.active_), joined_(o.joined_) {
  o.graph_ = nullptr;
  o.active_ = false;
}

Capture& Capture::operator=(Capture&& o) noexcept {
  if (this != &o) {
    reset();
    stream_ = o.stream_;
    graph_ = o.graph_;
    id_ = o.id_;
    active_ = o.active_;
    joined_ = o.joined_;
    o.graph_ = nullptr;
    o.active_ = false;
  }
  return *this;
}

void Capture::reset() noexcept {
  if (active_ && !joined_) {  // abandoned: end our capture, drop what it recorded
    cudaGraph_t g = nullptr;
    if (cudaStreamEndCapture(stream_, &g) == cudaSuccess && g != nullptr) {
      detail::forget_graph(g);
      (void)cudaGraphDestroy(g);
    }
    (void)cudaGetLastError();
  }
  if (graph_ != nullptr) {
    detail::forget_graph(graph_);
    (void)cudaGraphDestroy(graph_);
  }
  graph_ = nullptr;
  active_ = false;
  joined_ = false;
  id_ = 0;
}

Status Capture::begin(cudaStream_t stream, cudaStreamCaptureMode mode, bool allow_join) {
  if (active_)
    return {StatusCode::invalid_argument, "this Capture is already active (capture #" + std::to_string(id_) +
                                              "): end() it before beginning another one"};
  reset();
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  GRAPHGEMM_CUDA_TRY(cudaStreamGetCaptureInfo(stream, &status, &id));
  if (status == cudaStreamCaptureStatusInvalidated)
    return detail::invalidated_capture_error("the stream");
  if (status == cudaStreamCaptureStatusActive) {
    if (!allow_join)
      return {StatusCode::invalid_argument,
              "the stream is already capturing (capture #" + std::to_string(id) +
                  ", begun by someone else) and this call begins and ends its own capture: run it on a stream that "
                  "is not capturing, or record into the active capture directly (Capture::begin joins it)"};
    stream_ = stream;
    id_ = id;
    active_ = true;
    joined_ = true;
    return {};
  }
  GRAPHGEMM_CUDA_TRY(cudaStreamBeginCapture(stream, mode));
  stream_ = stream;
  active_ = true;
  joined_ = false;
  GRAPHGEMM_CUDA_TRY(cudaStreamGetCaptureInfo(stream, &status, &id));
  id_ = id;
  return {};
}

Status Capture::end() {
  if (!active_) return {StatusCode::invalid_argument, "end() without an active capture: call begin() first"};
  active_ = false;
  if (joined_) {
    // Not ours to end: only say whether it is still the capture we joined.
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    GRAPHGEMM_CUDA_TRY(cudaStreamGetCaptureInfo(stream_, &status, &id));
    if (status == cudaStreamCaptureStatusInvalidated) return detail::invalidated_capture_error("the joined capture");
    if (status != cudaStreamCaptureStatusActive || id != id_)
      return {StatusCode::invalid_argument, "the capture this Capture joined (#" + std::to_string(id_) +
                                                ") is no longer active on the stream: its owner ended it before end()"};
    return {};
  }
  cudaGraph_t g = nullptr;
  const cudaError_t err = cudaStreamEndCapture(stream_, &g);
  if (err != cudaSuccess) {
    if (g != nullptr) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
    if (err == cudaErrorStreamCaptureInvalidated) return detail::invalidated_capture_error("the capture");
    return ::graphgemm::detail::cuda_status(err, "cudaStreamEndCapture(stream, &graph)", __FILE__, __LINE__);
  }
  graph_ = g;
  return {};
}

}  // namespace graphgemm::graph
