#pragma once
// Stream capture helpers: begin and end a capture on a stream (RAII), or join a capture that
// someone else began on it (a framework, another library) without ever beginning or ending it.
//
// Every call returns a Status (check .ok(); the message says what to do):
//
//   graph::Capture cap;
//   cap.begin(stream);      // begins a capture, or joins the one already active
//   ... plan.run(...), graph::record_gemm(...), kernel launches ...
//   cap.end();              // ends it if we began it; a joined capture is left alone
//   graph::GraphExec exec;
//   exec.instantiate(cap);  // (only when we began it: cap.joined() == false)
//
// Global, thread-local and relaxed modes all work. Only APIs that are legal under capture are
// called between begin and end (cudaStreamGetCaptureInfo, cudaStreamIsCapturing, graph APIs).

#include <cuda_runtime_api.h>

#include "graphgemm/status.hpp"

namespace graphgemm::graph {

class Capture {
 public:
  Capture() noexcept = default;
  // A capture we began and did not end is ended here and its graph destroyed; a graph that was
  // ended but not released (release_graph, GraphExec::instantiate) is destroyed.
  ~Capture();
  Capture(Capture&& other) noexcept;
  Capture& operator=(Capture&& other) noexcept;
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  // Begins a capture on `stream` in `mode`. If the stream is already capturing, joins that
  // capture instead (joined() == true; `mode` is then the one its owner chose), unless
  // `allow_join` is false, which makes that an error.
  [[nodiscard]] Status begin(cudaStream_t stream, cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal,
                             bool allow_join = true);
  // Ends a capture we began: the graph is then graph() (owned by this object until
  // release_graph()). For a joined capture, only checks that it is still active: its owner ends it.
  [[nodiscard]] Status end();

  [[nodiscard]] bool active() const noexcept { return active_; }  // between begin() and end()
  [[nodiscard]] bool joined() const noexcept { return joined_; }  // the capture is someone else's
  [[nodiscard]] cudaStream_t stream() const noexcept { return stream_; }
  // CUDA's id of the capture sequence (unique in the process); 0 before begin().
  [[nodiscard]] unsigned long long id() const noexcept { return id_; }
  // The captured graph after end() of a capture we began; null otherwise.
  [[nodiscard]] cudaGraph_t graph() const noexcept { return graph_; }
  // Hands the captured graph over to the caller, who must destroy it.
  [[nodiscard]] cudaGraph_t release_graph() noexcept {
    cudaGraph_t g = graph_;
    graph_ = nullptr;
    return g;
  }

 private:
  void reset() noexcept;
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  unsigned long long id_ = 0;
  bool active_ = false;
  bool joined_ = false;
};

}  // namespace graphgemm::graph
