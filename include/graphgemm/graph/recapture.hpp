#pragma once
// For changes that the node updates cannot express:
//   - recapture-then-update (same topology, other parameters): capture the work again and bring
//     the executable graph up to date with cudaGraphExecUpdate, re-instantiating only when CUDA
//     refuses; the report says which happened;
//   - GraphCache<Key>: one executable graph per key of the user's choosing, for changes of
//     topology (e.g. one graph per batch-size bucket).
//
//   graph::GraphExec exec;  graph::UpdateReport how;
//   graph::recapture(exec, stream, [&](cudaStream_t s) { return forward(s, params); }, &how);
//   exec.launch(stream);   // how.kind: instantiated | updated | reinstantiated
//
//   graph::GraphCache<int> cache;
//   cache.launch(bucket, stream, [&](cudaStream_t s) { return forward(s, bucket); });

#include <cuda_runtime_api.h>

#include <functional>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "graphgemm/graph/capture.hpp"
#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/status.hpp"

namespace graphgemm::graph {

namespace detail {
// Runs work(stream) under a new capture (never a joined one) and returns the graph.
template <class F>
Status capture_work(cudaStream_t stream, cudaStreamCaptureMode mode, F&& work, cudaGraph_t* graph) {
  Capture capture;
  if (Status s_ = capture.begin(stream, mode, /*allow_join=*/false); !s_.ok()) return s_;
  if constexpr (std::is_void_v<std::invoke_result_t<F&, cudaStream_t>>) {
    work(stream);
  } else {
    Status s = work(stream);
    if (!s.ok()) return s;  // ~Capture ends the capture and drops its graph
  }
  if (Status s_ = capture.end(); !s_.ok()) return s_;
  *graph = capture.release_graph();
  return {};
}
}  // namespace detail

// Captures work(stream) (a callable returning Status or void) and updates `exec` from it (or
// instantiates it the first time, uploading it on `stream`: see GraphExec::upload). The stream
// must not be capturing already.
template <class F>
[[nodiscard]] Status recapture(GraphExec& exec, cudaStream_t stream, F&& work, UpdateReport* report = nullptr,
                               cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
  cudaGraph_t graph = nullptr;
  if (Status s_ = detail::capture_work(stream, mode, std::forward<F>(work), &graph); !s_.ok()) return s_;
  UpdateReport local;
  UpdateReport& how = report != nullptr ? *report : local;
  if (Status s_ = exec.update(graph, &how); !s_.ok()) return s_;
  return how.kind == UpdateKind::updated ? Status{} : exec.upload_unless_capturing(stream);
}

// Executable graphs by a key of the user's choosing: captured and instantiated on first use.
template <class Key, class Hash = std::hash<Key>, class Equal = std::equal_to<Key>>
class GraphCache {
 public:
  // The executable graph for `key`; on a miss, work(stream) is captured, instantiated and uploaded
  // on `stream` first (`captured` says whether that happened).
  template <class F>
  [[nodiscard]] Status get(const Key& key, cudaStream_t stream, F&& work, GraphExec*& out, bool* captured = nullptr,
                           cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
    if (captured != nullptr) *captured = false;
    if (auto it = map_.find(key); it != map_.end()) {
      out = &it->second;
      return {};
    }
    cudaGraph_t graph = nullptr;
    if (Status s_ = detail::capture_work(stream, mode, std::forward<F>(work), &graph); !s_.ok()) return s_;
    GraphExec exec;
    if (Status s_ = exec.instantiate(graph); !s_.ok()) return s_;
    if (Status s_ = exec.upload_unless_capturing(stream); !s_.ok()) return s_;
    out = &map_.insert_or_assign(key, std::move(exec)).first->second;
    if (captured != nullptr) *captured = true;
    return {};
  }
  // get() and launch on `stream`.
  template <class F>
  [[nodiscard]] Status launch(const Key& key, cudaStream_t stream, F&& work, bool* captured = nullptr) {
    GraphExec* exec = nullptr;
    if (Status s_ = get(key, stream, std::forward<F>(work), exec, captured); !s_.ok()) return s_;
    return exec->launch(stream);
  }
  [[nodiscard]] GraphExec* find(const Key& key) {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  bool erase(const Key& key) { return map_.erase(key) > 0; }
  void clear() { map_.clear(); }
  [[nodiscard]] std::size_t size() const noexcept { return map_.size(); }

 private:
  std::unordered_map<Key, GraphExec, Hash, Equal> map_;
};

}  // namespace graphgemm::graph
