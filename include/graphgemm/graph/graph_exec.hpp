#pragma once
// An executable graph that knows which graph it was instantiated from, so that node handles can
// be checked before they are used (CUDA cannot tell a stale or foreign handle from a good one),
// and that can be brought up to date from a recaptured graph (recapture-then-update).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <string>

#include "graphgemm/status.hpp"

namespace graphgemm::graph {

class Capture;

namespace detail {
// Which capture (and graph) a node was recorded into. capture_id is CUDA's capture sequence id,
// unique in the process, so a graph handle that CUDA reuses after a destroy is not mistaken for
// the old graph.
struct NodeIdentity {
  cudaGraph_t graph = nullptr;
  unsigned long long capture_id = 0;
};
// The capture the nodes of `graph` were recorded in (0: none recorded by graphgemm).
[[nodiscard]] unsigned long long recorded_capture(cudaGraph_t graph) noexcept;
// Checks a node recorded as `id` against a raw executable graph instantiated from `graph`.
[[nodiscard]] Status check_node_of_graph(cudaGraph_t instantiated_from, const NodeIdentity& id);
}  // namespace detail

// cudaGraphUpload of an executable graph (one a framework instantiated, say) on `stream`, unless
// `stream` is capturing; GraphExec::upload says why a graph whose nodes will be updated wants it.
[[nodiscard]] Status upload_unless_capturing(cudaGraphExec_t exec, cudaStream_t stream);

// What GraphExec::update did.
enum class UpdateKind : std::uint8_t {
  instantiated,    // the GraphExec was empty: instantiated from the graph
  updated,         // cudaGraphExecUpdate changed the executable graph in place (same topology)
  reinstantiated,  // CUDA refused the in-place update (topology or node type changed): instantiated anew
};
[[nodiscard]] const char* to_string(UpdateKind kind) noexcept;

struct UpdateReport {
  UpdateKind kind = UpdateKind::instantiated;
  std::string reason;  // why the in-place update was refused (for reinstantiated)
};

class GraphExec {
 public:
  GraphExec() noexcept = default;
  ~GraphExec();
  GraphExec(GraphExec&& other) noexcept;
  GraphExec& operator=(GraphExec&& other) noexcept;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  // Instantiates `graph` and takes ownership of it, in all cases: CUDA addresses the nodes of an
  // executable graph through the graph it was instantiated from, so that graph lives as long as
  // the executable one. Does not upload it: call upload(stream) before the first launch when its
  // nodes will be updated (see below).
  [[nodiscard]] Status instantiate(cudaGraph_t graph, unsigned long long flags = 0);
  // Instantiates the graph of an ended capture that we began (takes it from `capture`) and uploads
  // it on the capture's stream (upload_unless_capturing).
  [[nodiscard]] Status instantiate(Capture& capture, unsigned long long flags = 0);

  // Recapture-then-update: brings this executable graph up to date with `graph` (a recapture of
  // the same work with other parameters), taking ownership of it. Tries cudaGraphExecUpdate
  // first; when CUDA refuses (topology changed...), instantiates anew. `report` says which.
  // Node handles: after `updated`, the handles recorded into the first graph stay the valid ones
  // (CUDA keeps addressing nodes through it) and those of the recapture are refused; after
  // `reinstantiated`, only the handles recorded into `graph` are valid.
  [[nodiscard]] Status update(cudaGraph_t graph, UpdateReport* report = nullptr);

  [[nodiscard]] Status launch(cudaStream_t stream) const;
  // Uploads the executable graph's work to the device in stream order (cudaGraphUpload). Do it once
  // before the first launch of a graph whose nodes will be updated. Measured on H100 (driver 580,
  // session 37, graphgemm_graph_bench's tiny workflow): graphs first launched without an upload
  // replayed 4-7% slower with node updates (one node of four updated before each launch was
  // enough) than without, not every such graph but the first two the bench records, in every run;
  // the same graphs uploaded after instantiation replayed as fast updated as not (1.000-1.002x).
  // The recapture and graph-cache helpers and instantiate(Capture&) upload for you.
  [[nodiscard]] Status upload(cudaStream_t stream) const;
  // upload(stream), unless `stream` is capturing (CUDA takes no uncaptured work on a capturing
  // stream, and a failed call would invalidate that capture): the graph is then uploaded at its
  // first launch, as without this call.
  [[nodiscard]] Status upload_unless_capturing(cudaStream_t stream) const;

  [[nodiscard]] bool empty() const noexcept { return exec_ == nullptr; }
  [[nodiscard]] cudaGraphExec_t get() const noexcept { return exec_; }
  [[nodiscard]] cudaGraph_t graph() const noexcept { return current_.graph; }  // instantiated from
  // Bumped at every (re-)instantiation.
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  void reset() noexcept;

  // Whether a node recorded as `id` can be updated in this executable graph; the message says
  // why not (stale handle after re-instantiation, handle of another graph, empty executable).
  [[nodiscard]] Status check_node(const detail::NodeIdentity& id) const;

 private:
  struct Retired {
    detail::NodeIdentity id;
    bool updated_in_place = false;  // a recapture merged by cudaGraphExecUpdate
    std::uint64_t generation = 0;
  };
  void retire(const detail::NodeIdentity& id, bool in_place);
  cudaGraphExec_t exec_ = nullptr;
  detail::NodeIdentity current_;
  std::uint64_t generation_ = 0;
  std::deque<Retired> retired_;  // the last few, for error messages
};

}  // namespace graphgemm::graph
