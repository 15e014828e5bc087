// GraphExec: an executable graph with the identity of the graph it was instantiated from, node
// checks, and recapture-then-update. Also the registry of graphs holding graphgemm nodes.
#include "graphgemm/graph/graph_exec.hpp"

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/cuda_check.hpp"
#include "graph/graph_internal.hpp"
#include "graphgemm/graph/capture.hpp"

namespace graphgemm::graph {
namespace detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<cudaGraph_t, unsigned long long> captures;
};
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void note_graph(cudaGraph_t graph, unsigned long long capture_id) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.captures[graph] = capture_id;
}

void forget_graph(cudaGraph_t graph) noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.captures.erase(graph);
}

unsigned long long recorded_capture(cudaGraph_t graph) noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.captures.find(graph);
  return it == r.captures.end() ? 0 : it->second;
}

Status invalidated_capture_error(const std::string& what) {
  return {StatusCode::cuda_error,
          what + " was invalidated by an earlier call that is illegal under stream capture (e.g. cudaMalloc, a "
                 "synchronization, or a query such as cudaStreamGetDevice in global mode). Whoever began the capture "
                 "must end it (cudaStreamEndCapture, which then fails) and capture again without that call"};
}

Status require_capturing(cudaStream_t stream, const char* recorder, const char* eager) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  GRAPHGEMM_CUDA_TRY(cudaStreamIsCapturing(stream, &status));
  if (status == cudaStreamCaptureStatusInvalidated) return invalidated_capture_error("the stream's capture");
  if (status != cudaStreamCaptureStatusActive)
    return {StatusCode::invalid_argument, std::string(recorder) +
                                              " needs a capturing stream: begin a capture first (graph::Capture::begin, "
                                              "or cudaStreamBeginCapture by anyone), or call " + eager};
  return {};
}

std::string capture_status_name(cudaStreamCaptureStatus status) {
  switch (status) {
    case cudaStreamCaptureStatusNone: return "not capturing";
    case cudaStreamCaptureStatusActive: return "capturing";
    case cudaStreamCaptureStatusInvalidated: return "capture invalidated";
  }
  return "unknown capture status";
}

Status check_node_of_graph(cudaGraph_t instantiated_from, const NodeIdentity& id) {
  if (instantiated_from == nullptr)
    return {StatusCode::invalid_argument, "the graph the executable graph was instantiated from is null: pass it "
                                          "(it must still exist: CUDA addresses nodes through it)"};
  if (id.graph != instantiated_from || recorded_capture(instantiated_from) != id.capture_id)
    return {StatusCode::invalid_argument,
            "this node handle belongs to another graph (recorded in capture #" + std::to_string(id.capture_id) +
                ") than the one given as the executable graph's source; update it in an executable graph "
                "instantiated from the graph of that capture, or record the node again in this graph's capture"};
  return {};
}

}  // namespace detail

const char* to_string(UpdateKind kind) noexcept {
  switch (kind) {
    case UpdateKind::instantiated: return "instantiated";
    case UpdateKind::updated: return "updated";
    case UpdateKind::reinstantiated: return "reinstantiated";
  }
  return "unknown";
}

namespace {

const char* update_result_name(cudaGraphExecUpdateResult r) {
  switch (r) {
    case cudaGraphExecUpdateSuccess: return "success";
    case cudaGraphExecUpdateError: return "update error";
    case cudaGraphExecUpdateErrorTopologyChanged: return "topology changed";
    case cudaGraphExecUpdateErrorNodeTypeChanged: return "a node's type changed";
    case cudaGraphExecUpdateErrorFunctionChanged: return "a kernel node's function changed";
    case cudaGraphExecUpdateErrorParametersChanged: return "a node's parameters changed in an unsupported way";
    case cudaGraphExecUpdateErrorNotSupported: return "a node is not supported by in-place update";
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange: return "a kernel node's function changed in an unsupported way";
    case cudaGraphExecUpdateErrorAttributesChanged: return "a node's attributes changed in an unsupported way";
  }
  return "unknown reason";
}

void destroy_graph(cudaGraph_t g) noexcept {
  if (g == nullptr) return;
  detail::forget_graph(g);
  (void)cudaGraphDestroy(g);
}

constexpr std::size_t kRetiredKept = 16;

}  // namespace

GraphExec::~GraphExec() { reset(); }

GraphExec::GraphExec(GraphExec&& o) noexcept
    : exec_(o.exec_), current_(o.current_), generation_(o.generation_), retired_(std::move(o.retired_)) {
  o.exec_ = nullptr;
  o.current_ = {};
}

GraphExec& GraphExec::operator=(GraphExec&& o) noexcept {
  if (this != &o) {
    reset();
    exec_ = o.exec_;
    current_ = o.current_;
    generation_ = o.generation_;
    retired_ = std::move(o.retired_);
    o.exec_ = nullptr;
    o.current_ = {};
  }
  return *this;
}

void GraphExec::reset() noexcept {
  if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
  destroy_graph(current_.graph);
  exec_ = nullptr;
  current_ = {};
  retired_.clear();
}

void GraphExec::retire(const detail::NodeIdentity& id, bool in_place) {
  if (id.capture_id == 0) return;  // no graphgemm node was recorded in that graph
  retired_.push_back({id, in_place, generation_});
  if (retired_.size() > kRetiredKept) retired_.pop_front();
}

Status GraphExec::instantiate(cudaGraph_t graph, unsigned long long flags) {
  if (graph == nullptr) return {StatusCode::invalid_argument, "the graph to instantiate is null: end a capture first"};
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, graph, flags);
  if (err != cudaSuccess) {
    destroy_graph(graph);
    return ::graphgemm::detail::cuda_status(err, "cudaGraphInstantiate(&exec, graph, flags)", __FILE__, __LINE__);
  }
  if (exec_ != nullptr) {  // the old nodes become stale
    retire(current_, false);
    (void)cudaGraphExecDestroy(exec_);
    destroy_graph(current_.graph);
  }
  exec_ = exec;
  current_ = {graph, detail::recorded_capture(graph)};
  ++generation_;
  return {};
}

Status GraphExec::instantiate(Capture& capture, unsigned long long flags) {
  if (capture.joined())
    return {StatusCode::invalid_argument, "this Capture joined a capture begun by someone else: its graph is theirs "
                                          "to end and instantiate"};
  if (capture.active()) return {StatusCode::invalid_argument, "the capture is still active: end() it first"};
  if (capture.graph() == nullptr)
    return {StatusCode::invalid_argument, "the Capture holds no graph: begin() and end() it first (or its graph was released)"};
  const cudaStream_t stream = capture.stream();
  GRAPHGEMM_TRY(instantiate(capture.release_graph(), flags));
  return upload_unless_capturing(stream);
}

Status GraphExec::update(cudaGraph_t graph, UpdateReport* report) {
  if (graph == nullptr) return {StatusCode::invalid_argument, "the graph to update from is null: end a capture first"};
  if (exec_ == nullptr) {
    GRAPHGEMM_TRY(instantiate(graph));
    if (report != nullptr) *report = {UpdateKind::instantiated, {}};
    return {};
  }
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t err = cudaGraphExecUpdate(exec_, graph, &info);
  if (err == cudaSuccess) {
    retire({graph, detail::recorded_capture(graph)}, /*in_place=*/true);
    destroy_graph(graph);
    if (report != nullptr) *report = {UpdateKind::updated, {}};
    return {};
  }
  (void)cudaGetLastError();
  if (err != cudaErrorGraphExecUpdateFailure) {
    destroy_graph(graph);
    return ::graphgemm::detail::cuda_status(err, "cudaGraphExecUpdate(exec, graph, &info)", __FILE__, __LINE__);
  }
  std::string reason = update_result_name(info.result);
  GRAPHGEMM_TRY(instantiate(graph));
  if (report != nullptr) *report = {UpdateKind::reinstantiated, std::move(reason)};
  return {};
}

Status GraphExec::launch(cudaStream_t stream) const {
  if (exec_ == nullptr) return {StatusCode::invalid_argument, "the executable graph is empty: instantiate it first"};
  GRAPHGEMM_CUDA_TRY(cudaGraphLaunch(exec_, stream));
  return {};
}

Status GraphExec::upload(cudaStream_t stream) const {
  if (exec_ == nullptr) return {StatusCode::invalid_argument, "the executable graph is empty: instantiate it first"};
  GRAPHGEMM_CUDA_TRY(cudaGraphUpload(exec_, stream));
  return {};
}

Status GraphExec::upload_unless_capturing(cudaStream_t stream) const {
  if (exec_ == nullptr) return upload(stream);  // its error
  return graph::upload_unless_capturing(exec_, stream);
}

Status upload_unless_capturing(cudaGraphExec_t exec, cudaStream_t stream) {
  if (exec == nullptr) return {StatusCode::invalid_argument, "the executable graph is null: instantiate it first"};
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t err = cudaStreamIsCapturing(stream, &status);
  if (err == cudaErrorStreamCaptureImplicit) {  // the legacy stream while a blocking stream captures
    (void)cudaGetLastError();
    return {};
  }
  GRAPHGEMM_CUDA_TRY(err);
  if (status != cudaStreamCaptureStatusNone) return {};
  GRAPHGEMM_CUDA_TRY(cudaGraphUpload(exec, stream));
  return {};
}

Status GraphExec::check_node(const detail::NodeIdentity& id) const {
  if (exec_ == nullptr)
    return {StatusCode::invalid_argument, "the executable graph is empty: instantiate it (GraphExec::instantiate) "
                                          "from the graph the node was recorded in, then update"};
  if (id.capture_id != 0 && id.capture_id == current_.capture_id && id.graph == current_.graph) return {};
  for (const Retired& r : retired_) {
    if (r.id.capture_id != id.capture_id || r.id.graph != id.graph) continue;
    if (r.updated_in_place)
      return {StatusCode::invalid_argument,
              "stale node handle: it was recorded in a recapture (#" + std::to_string(id.capture_id) +
                  ") that updated this executable graph in place (cudaGraphExecUpdate). CUDA keeps addressing the "
                  "nodes through the graph it was instantiated from: update through the handles recorded in that "
                  "first capture (#" + std::to_string(current_.capture_id) + ")"};
    return {StatusCode::invalid_argument,
            "stale node handle: it was recorded in capture #" + std::to_string(id.capture_id) +
                ", but this executable graph has since been re-instantiated (now generation " +
                std::to_string(generation_) + ", from capture #" + std::to_string(current_.capture_id) +
                "). Use the handles recorded in the capture it was re-instantiated from"};
  }
  return {StatusCode::invalid_argument,
          "this node handle belongs to another graph: it was recorded in capture #" + std::to_string(id.capture_id) +
              ", but this executable graph was instantiated from " +
              (current_.capture_id != 0 ? "capture #" + std::to_string(current_.capture_id)
                                        : std::string("a graph without graphgemm nodes")) +
              ". Update it through the GraphExec instantiated from its own capture"};
}

}  // namespace graphgemm::graph
