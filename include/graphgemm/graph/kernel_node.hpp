#pragma once
// Updatable kernel nodes inside a stream capture (NVIDIA's "combined approach"): the kernel is
// added as an explicit node of the capturing graph, on the stream's current dependencies, and
// becomes the stream's new dependency; after instantiation its arguments (and launch shape) are
// updated with cudaGraphExecKernelNodeSetParams: no recapture, no re-instantiation.
//
//   __global__ void scale(float* x, float s, int n);
//   graph::KernelNode node(scale);                          // typed by the kernel's parameters
//   node.record(stream, {grid, block}, x, 2.0f, n);   // inside a capture
//   ...end the capture, GraphExec exec; exec.instantiate(...)
//   node.update(exec, y, 3.0f, n);           // checked against (float*, float, int)
//   exec.launch(stream);
//
// The arguments are checked at compile time like a braced initialization of each parameter:
// the count must match and no conversion may narrow (a double for a float parameter does not
// compile; write 3.0f). Updates are validated before CUDA is called: a failed update (stale
// handle, handle of another graph) leaves the executable graph as it was.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "graphgemm/graph/graph_exec.hpp"
#include "graphgemm/status.hpp"

namespace graphgemm::graph {

// A kernel launch's shape. cluster {1,1,1}: no thread-block cluster.
struct LaunchShape {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t smem = 0;
  dim3 cluster{1, 1, 1};
};

namespace detail {
// Adds a kernel node to the graph that `stream` is capturing, on the stream's current
// dependencies (with their edge data), and makes the node the stream's only dependency.
// programmatic: the plain edges from kernel nodes become programmatic ones (the kernel may start
// while those finish; it must execute griddepcontrol.wait, i.e. cudaGridDependencySynchronize,
// before touching what they write); edges from other nodes stay as they are. `resolved` gets the
// kernel's cudaFunction_t, which updates pass to set_kernel_node_params.
[[nodiscard]] Status add_captured_kernel_node(cudaStream_t stream, const void* function, const LaunchShape& shape,
                                              void** args, cudaGraphNode_t* node, NodeIdentity* id,
                                              cudaFunction_t* resolved, bool programmatic = false);
// The driver's cuGraphExecKernelNodeSetParams with the function resolved at recording, with the
// error said in words. NOTES: the runtime's cudaGraphExecKernelNodeSetParams, which maps the host
// stub to its function on every call, took 1.28-1.33 us of host time per KernelNode::update against
// 0.51-0.83 this way (H100, session 15, graphgemm_host_bench A/B in one call).
[[nodiscard]] Status set_kernel_node_params(cudaGraphExec_t exec, cudaGraphNode_t node, cudaFunction_t function,
                                            const LaunchShape& shape, void** args);
[[nodiscard]] Status check_recorded(bool recorded);
[[nodiscard]] Status check_same_cluster(const LaunchShape& recorded, const LaunchShape& next);

// `A` initializes a parameter of type `P` as a braced initialization would: no narrowing.
template <class A, class P>
concept PassesAs = requires(A&& a) { std::type_identity_t<std::decay_t<P>>{std::forward<A>(a)}; };

template <class... P>
struct ArgumentsFit {
  template <class... A>
  static constexpr bool check() {
    if constexpr (sizeof...(A) != sizeof...(P)) return false;
    else return (PassesAs<A, P> && ...);
  }
};

// Stores converted arguments and the pointer array CUDA wants (kernelParams).
template <class... P>
struct ArgumentPack {
  std::tuple<std::decay_t<P>...> values;
  void* ptrs[sizeof...(P) > 0 ? sizeof...(P) : 1] = {};
  template <class... A>
  explicit ArgumentPack(A&&... a) : values(std::decay_t<P>{std::forward<A>(a)}...) {
    fill(std::index_sequence_for<P...>{});
  }
  ArgumentPack(const ArgumentPack&) = delete;
  ArgumentPack& operator=(const ArgumentPack&) = delete;
  void** get() noexcept { return sizeof...(P) > 0 ? ptrs : nullptr; }

 private:
  template <std::size_t... I>
  void fill(std::index_sequence<I...>) {
    ((ptrs[I] = static_cast<void*>(&std::get<I>(values))), ...);
  }
};
}  // namespace detail

template <class... P>
class KernelNode {
 public:
  using Kernel = void (*)(P...);
  // Whether arguments of types A... can be passed for the kernel's parameters P...
  template <class... A>
  static constexpr bool fits = detail::ArgumentsFit<P...>::template check<A...>();

  KernelNode() noexcept = default;
  explicit KernelNode(Kernel kernel) noexcept : kernel_(kernel) {}

  // Inside a capture on `stream` (ours, or one begun by someone else): adds the kernel as an
  // explicit node with these arguments, after everything captured so far on the stream.
  template <class... A>
    requires(fits<A...>)
  [[nodiscard]] Status record(cudaStream_t stream, const LaunchShape& shape, A&&... args) {
    if (kernel_ == nullptr)
      return {StatusCode::invalid_argument, "KernelNode has no kernel: construct it as KernelNode node(my_kernel)"};
    detail::ArgumentPack<P...> pack(std::forward<A>(args)...);
    cudaGraphNode_t node = nullptr;
    detail::NodeIdentity id;
    cudaFunction_t function = nullptr;
    if (Status s_ = detail::add_captured_kernel_node(stream, reinterpret_cast<const void*>(kernel_), shape, pack.get(),
                                                   &node, &id, &function); !s_.ok()) return s_;
    node_ = node;
    function_ = function;
    id_ = id;
    shape_ = shape;
    return {};
  }

  // New arguments for this node in `exec` (which must have been instantiated from the graph the
  // node was recorded in). The launch shape stays as recorded.
  template <class... A>
    requires(fits<A...>)
  [[nodiscard]] Status update(const GraphExec& exec, A&&... args) const {
    if (Status s_ = detail::check_recorded(node_ != nullptr); !s_.ok()) return s_;
    if (Status s_ = exec.check_node(id_); !s_.ok()) return s_;
    detail::ArgumentPack<P...> pack(std::forward<A>(args)...);
    return detail::set_kernel_node_params(exec.get(), node_, function_, shape_, pack.get());
  }

  // New launch shape (grid, block, shared memory; the cluster shape cannot change) and arguments.
  template <class... A>
    requires(fits<A...>)
  [[nodiscard]] Status update_with_shape(const GraphExec& exec, const LaunchShape& shape, A&&... args) {
    if (Status s_ = detail::check_recorded(node_ != nullptr); !s_.ok()) return s_;
    if (Status s_ = exec.check_node(id_); !s_.ok()) return s_;
    if (Status s_ = detail::check_same_cluster(shape_, shape); !s_.ok()) return s_;
    detail::ArgumentPack<P...> pack(std::forward<A>(args)...);
    if (Status s_ = detail::set_kernel_node_params(exec.get(), node_, function_, shape, pack.get()); !s_.ok()) return s_;
    shape_ = shape;
    return {};
  }

  // For an executable graph that is not a GraphExec (e.g. one a framework instantiated):
  // `instantiated_from` is the graph it was instantiated from, which must hold this node.
  template <class... A>
    requires(fits<A...>)
  [[nodiscard]] Status update(cudaGraphExec_t exec, cudaGraph_t instantiated_from, A&&... args) const {
    if (Status s_ = detail::check_recorded(node_ != nullptr); !s_.ok()) return s_;
    if (exec == nullptr) return {StatusCode::invalid_argument, "the executable graph is null: instantiate the graph first"};
    if (Status s_ = detail::check_node_of_graph(instantiated_from, id_); !s_.ok()) return s_;
    detail::ArgumentPack<P...> pack(std::forward<A>(args)...);
    return detail::set_kernel_node_params(exec, node_, function_, shape_, pack.get());
  }

  [[nodiscard]] bool recorded() const noexcept { return node_ != nullptr; }
  [[nodiscard]] cudaGraphNode_t node() const noexcept { return node_; }
  [[nodiscard]] const LaunchShape& shape() const noexcept { return shape_; }
  [[nodiscard]] const detail::NodeIdentity& identity() const noexcept { return id_; }

 private:
  Kernel kernel_ = nullptr;
  cudaFunction_t function_ = nullptr;  // kernel_ resolved at recording
  cudaGraphNode_t node_ = nullptr;
  detail::NodeIdentity id_;
  LaunchShape shape_;
};

template <class... P>
KernelNode(void (*)(P...)) -> KernelNode<P...>;

// The same as KernelNode(kernel).record(stream, shape, args...), into `out`.
template <class... P, class... A>
  requires(KernelNode<P...>::template fits<A...>)
[[nodiscard]] Status add_kernel_node(KernelNode<P...>& out, cudaStream_t stream, void (*kernel)(P...),
                                     const LaunchShape& shape, A&&... args) {
  KernelNode<P...> node(kernel);
  if (Status s_ = node.record(stream, shape, std::forward<A>(args)...); !s_.ok()) return s_;
  out = node;
  return {};
}

}  // namespace graphgemm::graph
