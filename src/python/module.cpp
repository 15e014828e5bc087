// graphgemm._C: the C++ plan API for Python, over DLPack arrays (torch, CuPy, JAX, Warp, ...).
//
// Arrays are read through nanobind's DLPack import: no copy, no synchronization. The stream is an
// integer handle chosen by the Python layer (graphgemm/__init__.py resolves torch's or CuPy's
// current stream). Errors: invalid arguments raise ValueError, unsupported ones TypeError, CUDA
// and library failures RuntimeError, each with the C++ message; nothing is launched on error.

#include <cuda_runtime_api.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphgemm/graph/graph.hpp"
#include "graphgemm/graphgemm.hpp"

namespace nb = nanobind;
using namespace graphgemm;

namespace {

using Array = nb::ndarray<nb::ro>;  // any framework, any device; checked below

constexpr int kDLCUDA = 2, kDLCUDAManaged = 13;

[[noreturn]] void raise(const Status& s) {
  switch (s.code()) {
    case StatusCode::invalid_argument: throw nb::value_error(s.message().c_str());
    case StatusCode::not_supported: throw nb::type_error(s.message().c_str());
    default: throw std::runtime_error(s.to_string());
  }
}
void check(const Status& s) {
  if (!s.ok()) raise(s);
}

DType dtype_of(const Array& a, const char* name) {
  const auto dt = a.dtype();
  using C = nb::dlpack::dtype_code;
  if (dt.lanes == 1) {
    if (dt.code == static_cast<uint8_t>(C::Bfloat) && dt.bits == 16) return DType::bf16;
    if (dt.code == static_cast<uint8_t>(C::Float) && dt.bits == 16) return DType::fp16;
    if (dt.code == static_cast<uint8_t>(C::Float) && dt.bits == 32) return DType::fp32;
    if (dt.code == static_cast<uint8_t>(C::Int) && dt.bits == 8) return DType::int8;
    if (dt.code == static_cast<uint8_t>(C::Int) && dt.bits == 32) return DType::int32;
    if (dt.code == static_cast<uint8_t>(C::Float8_E4M3FN) && dt.bits == 8) return DType::fp8_e4m3;
  }
  throw nb::type_error((std::string(name) + " has an unsupported dtype (DLPack code " + std::to_string(dt.code) +
                        ", " + std::to_string(dt.bits) + " bits); graphgemm takes bfloat16, float16, float32, "
                        "int8, int32 and float8_e4m3fn")
                           .c_str());
}

// `device` < 0: no CUDA device is usable here; only the kind of memory is checked.
void check_device(const Array& a, const char* name, int device) {
  if (a.device_type() != kDLCUDA && a.device_type() != kDLCUDAManaged)
    throw nb::value_error((std::string(name) + " is not in CUDA device memory (DLPack device type " +
                           std::to_string(a.device_type()) + "); move it to the GPU first")
                              .c_str());
  if (device >= 0 && a.device_id() != device)
    throw nb::value_error((std::string(name) + " is on CUDA device " + std::to_string(a.device_id()) +
                           " but the plan is for device " + std::to_string(device) +
                           "; use arrays on one device (and cudaSetDevice / torch.cuda.set_device before building the plan)")
                              .c_str());
}

MatrixView matrix_of(const Array& a, const char* name, int device) {
  if (a.ndim() != 2)
    throw nb::value_error((std::string(name) + " must be a 2-D array (got " + std::to_string(a.ndim()) + " dimensions)").c_str());
  const DType dtype = dtype_of(a, name);
  check_device(a, name, device);
  const std::optional<MatrixView> v = MatrixView::from_strides(a.data(), dtype, static_cast<std::int64_t>(a.shape(0)),
                                                               static_cast<std::int64_t>(a.shape(1)), a.stride(0), a.stride(1));
  if (!v)
    throw nb::value_error((std::string(name) + " has strides (" + std::to_string(a.stride(0)) + ", " +
                           std::to_string(a.stride(1)) + "): one dimension must be contiguous (stride 1); make a contiguous copy first")
                              .c_str());
  return *v;
}

std::optional<VectorView> vector_of(const std::optional<Array>& a, const char* name, int device) {
  if (!a) return std::nullopt;
  if (a->ndim() != 1)
    throw nb::value_error((std::string(name) + " must be a 1-D array (got " + std::to_string(a->ndim()) + " dimensions)").c_str());
  check_device(*a, name, device);
  if (a->shape(0) > 1 && a->stride(0) != 1)
    throw nb::value_error((std::string(name) + " must be contiguous (stride 1)").c_str());
  return VectorView{a->data(), dtype_of(*a, name), static_cast<std::int64_t>(a->shape(0))};
}

struct Operands {
  Array a, b, d;
  std::optional<Array> c, bias, scale_a, scale_b;
};

GemmArgs args_of(const Operands& o, float alpha, float beta, int device) {
  GemmArgs g;
  g.a = matrix_of(o.a, "a", device);
  g.b = matrix_of(o.b, "b", device);
  g.d = matrix_of(o.d, "d", device);
  if (o.c) g.c = matrix_of(*o.c, "c", device);
  g.bias = vector_of(o.bias, "bias", device);
  g.scale_a = vector_of(o.scale_a, "scale_a", device);
  g.scale_b = vector_of(o.scale_b, "scale_b", device);
  g.alpha = alpha;
  g.beta = beta;
  return g;
}

SplitKMode split_mode_of(const std::string& s) {
  if (s == "auto") return SplitKMode::automatic;
  if (s == "none") return SplitKMode::none;
  if (s == "serial") return SplitKMode::serial;
  if (s == "parallel") return SplitKMode::parallel;
  if (s == "stream_k") return SplitKMode::stream_k;
  throw nb::value_error(("split_k_mode must be \"auto\", \"none\", \"serial\", \"parallel\" or \"stream_k\" (got \"" + s + "\")").c_str());
}

Backend backend_of(const std::string& s) {
  if (s == "auto") return Backend::automatic;
  if (s == "cublaslt") return Backend::cublaslt;
  if (s == "sm90") return Backend::sm90;
  throw nb::value_error(("backend must be \"auto\", \"cublaslt\" or \"sm90\" (got \"" + s + "\")").c_str());
}

ProgrammaticLaunch programmatic_of(const std::string& s) {
  if (s == "auto") return ProgrammaticLaunch::automatic;
  if (s == "on") return ProgrammaticLaunch::on;
  if (s == "off") return ProgrammaticLaunch::off;
  throw nb::value_error(("programmatic_launch must be \"auto\", \"on\" or \"off\" (got \"" + s + "\")").c_str());
}

RasterOrder raster_order_of(const std::string& s) {
  if (s == "auto") return RasterOrder::automatic;
  if (s == "m") return RasterOrder::along_m;
  if (s == "n") return RasterOrder::along_n;
  throw nb::value_error(("raster_order must be \"auto\", \"m\" or \"n\" (got \"" + s + "\")").c_str());
}

graph::NodeGrid node_grid_of(const std::string& s) {
  if (s == "max_m") return graph::NodeGrid::max_m;
  if (s == "follows_m") return graph::NodeGrid::follows_m;
  throw nb::value_error(("grid must be \"max_m\" or \"follows_m\" (got \"" + s + "\")").c_str());
}

// The current CUDA device, or -1 where none is usable (the error cleared): plans and chains check
// their arguments first, then say there is no device.
int usable_device() {
  int device = 0;
  if (cudaGetDevice(&device) == cudaSuccess) return device;
  (void)cudaGetLastError();
  return -1;
}

// Device memory a plan or chain owns for its lifetime: its workspace, allocated once when it is
// built (never on the run path), freed with it.
class DeviceWorkspace {
 public:
  DeviceWorkspace() = default;
  ~DeviceWorkspace() {
    if (ptr_) (void)cudaFree(ptr_);
  }
  DeviceWorkspace(const DeviceWorkspace&) = delete;
  DeviceWorkspace& operator=(const DeviceWorkspace&) = delete;
  // `owner` names it in the error ("plan", "chain").
  void allocate(std::size_t bytes, const char* owner) {
    if (bytes == 0) return;
    const cudaError_t err = cudaMalloc(&ptr_, bytes);
    if (err != cudaSuccess)
      throw std::runtime_error(std::string("allocating the ") + owner + "'s " + std::to_string(bytes) +
                               "-byte workspace failed: " + cudaGetErrorString(err));
    bytes_ = bytes;
  }
  Workspace get() const { return {ptr_, bytes_}; }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A plan plus its device workspace, allocated once when the plan is built (never on the run path).
class PyPlan {
 public:
  PyPlan(const Operands& o, float alpha, float beta, const std::string& backend, const std::string& sm90_kernel,
         const std::string& split_k_mode, int split_k_slices, const std::string& programmatic_launch,
         int split_k_cluster, const std::string& raster_order, int raster_group) {
    device_ = usable_device();
    GemmOptions options;
    options.backend = backend_of(backend);
    options.sm90_kernel = sm90_kernel;
    options.split_k_mode = split_mode_of(split_k_mode);
    options.split_k_slices = split_k_slices;
    options.programmatic_launch = programmatic_of(programmatic_launch);
    options.split_k_cluster = split_k_cluster;
    options.sm90_raster_order = raster_order_of(raster_order);
    options.sm90_raster_group = raster_group;
    const GemmArgs args = args_of(o, alpha, beta, device_);  // argument errors first
    if (device_ < 0) throw std::runtime_error("no CUDA device is usable here: graphgemm plans need an NVIDIA GPU");
    check(plan_.initialize(args, options));
    problem_ = args;
    workspace_.allocate(plan_.workspace_size(args), "plan");
  }

  void run(const Operands& o, float alpha, float beta, std::uintptr_t stream) const {
    const GemmArgs args = args_of(o, alpha, beta, device_);
    check(plan_.run(args, workspace_.get(), reinterpret_cast<cudaStream_t>(stream)));
  }
  // The planned problem with new buffers: for callers that have checked that shapes, strides,
  // dtypes and devices are the planned ones (graphgemm.Plan does, for torch tensors). The plan
  // still validates pointers (null, alignment) before launching.
  void run_pointers(std::uintptr_t a, std::uintptr_t b, std::uintptr_t d, std::uintptr_t c, std::uintptr_t bias,
                    std::uintptr_t scale_a, std::uintptr_t scale_b, float alpha, float beta, std::uintptr_t stream) const {
    GemmArgs args = problem_;
    args.a.data = reinterpret_cast<const void*>(a);
    args.b.data = reinterpret_cast<const void*>(b);
    args.d.data = reinterpret_cast<const void*>(d);
    if (args.c) args.c->data = reinterpret_cast<const void*>(c);
    if (args.bias) args.bias->data = reinterpret_cast<const void*>(bias);
    if (args.scale_a) args.scale_a->data = reinterpret_cast<const void*>(scale_a);
    if (args.scale_b) args.scale_b->data = reinterpret_cast<const void*>(scale_b);
    args.alpha = alpha;
    args.beta = beta;
    check(plan_.run(args, workspace_.get(), reinterpret_cast<cudaStream_t>(stream)));
  }
  std::string describe() const { return plan_.describe(); }
  const GemmPlan& plan() const { return plan_; }
  Workspace workspace() const { return workspace_.get(); }
  GemmArgs args(const Operands& o, float alpha, float beta) const { return args_of(o, alpha, beta, device_); }
  std::string backend() const { return to_string(plan_.backend()); }
  std::size_t workspace_size() const { return workspace_.size(); }
  int device() const { return device_; }

 private:
  GemmPlan plan_;
  GemmArgs problem_;  // as planned (pointers of the arrays the plan was built with)
  int device_ = 0;
  DeviceWorkspace workspace_;
};

// A GEMM recorded as an updatable node of a graph being captured (by graphgemm or by another
// library, e.g. torch.cuda.graph). The plan must outlive it (the binding keeps it alive).
class PyGemmNode {
 public:
  PyGemmNode(const PyPlan& plan, const Operands& o, float alpha, float beta, std::int64_t max_m, const std::string& grid,
             std::uintptr_t stream)
      : plan_(plan) {
    const GemmArgs args = plan.args(o, alpha, beta);
    graph::GemmNodeOptions options;
    options.max_m = max_m > 0 ? max_m : args.m();
    options.grid = node_grid_of(grid);
    check(graph::record_gemm(plan.plan(), args, plan.workspace(), reinterpret_cast<cudaStream_t>(stream), node_, options));
    recorded_ = args;
  }
  // Updates the node in an executable graph instantiated from `graph` (raw handles, as
  // torch.cuda.CUDAGraph.raw_cuda_graph_exec() / raw_cuda_graph() return them).
  void update(std::uintptr_t exec, std::uintptr_t graph, const Operands& o, float alpha, float beta) const {
    check(node_.update(reinterpret_cast<cudaGraphExec_t>(exec), reinterpret_cast<cudaGraph_t>(graph),
                       plan_.args(o, alpha, beta)));
  }
  // The recorded problem with new buffers and M rows: for callers that have checked that every
  // operand has the recorded dtype, device and strides, and shape but for M (graphgemm.graph.update
  // does, for torch tensors). The node still validates everything before CUDA is called.
  void update_pointers(std::uintptr_t exec, std::uintptr_t graph, std::int64_t m, std::uintptr_t a, std::uintptr_t b,
                       std::uintptr_t d, std::uintptr_t c, std::uintptr_t bias, std::uintptr_t scale_a,
                       std::int64_t scale_a_size, std::uintptr_t scale_b, float alpha, float beta) const {
    GemmArgs args = recorded_;
    args.a.data = reinterpret_cast<const void*>(a);
    args.a.rows = m;
    args.b.data = reinterpret_cast<const void*>(b);
    args.d.data = reinterpret_cast<const void*>(d);
    args.d.rows = m;
    if (args.c) {
      args.c->data = reinterpret_cast<const void*>(c);
      args.c->rows = m;
    }
    if (args.bias) args.bias->data = reinterpret_cast<const void*>(bias);
    if (args.scale_a) {
      args.scale_a->data = reinterpret_cast<const void*>(scale_a);
      args.scale_a->size = scale_a_size;
    }
    if (args.scale_b) args.scale_b->data = reinterpret_cast<const void*>(scale_b);
    args.alpha = alpha;
    args.beta = beta;
    check(node_.update(reinterpret_cast<cudaGraphExec_t>(exec), reinterpret_cast<cudaGraph_t>(graph), args));
  }
  bool updatable() const { return node_.updatable(); }
  std::string why_fixed() const { return node_.why_fixed(); }
  std::int64_t max_m() const { return node_.max_m(); }

 private:
  const PyPlan& plan_;
  graph::GemmNode node_;
  GemmArgs recorded_;  // as recorded (views of the recording's arrays; update_pointers swaps buffers and M)
};

// A chain's operands as Python gives them (graphgemm/__init__.py's Chain has made the per-layer
// lists the same length: one entry a layer, None where a layer has no bias / scale_a).
struct ChainOperands {
  Array x, y;
  std::vector<Array> weights;
  std::vector<std::optional<Array>> biases, scale_a;
  std::vector<float> alpha;
};

// The views of `o`, with the layers' storage that ChainArgs::layers points into (keep `layers`
// alive while the ChainArgs is used).
// Layer l's per-row scales, where given (the name is built only then: a step's hot path).
std::optional<VectorView> layer_scale_of(const std::optional<Array>& a, std::size_t l, int device) {
  if (!a) return std::nullopt;
  return vector_of(a, ("layer " + std::to_string(l) + ": scale_a").c_str(), device);
}

ChainArgs chain_args_of(const ChainOperands& o, int device, std::vector<ChainLayer>& layers) {
  const std::size_t n = o.weights.size();
  if (o.biases.size() != n || o.scale_a.size() != n || o.alpha.size() != n)
    throw nb::value_error(("a chain takes one bias, scale_a and alpha entry a layer: " + std::to_string(n) +
                           " weights, " + std::to_string(o.biases.size()) + " biases, " +
                           std::to_string(o.scale_a.size()) + " scale_a, " + std::to_string(o.alpha.size()) + " alpha")
                              .c_str());
  ChainArgs args;
  args.x = matrix_of(o.x, "x", device);
  args.y = matrix_of(o.y, "y", device);
  layers.clear();
  layers.reserve(n);
  for (std::size_t l = 0; l < n; ++l) {
    const std::string at = "layer " + std::to_string(l) + ": ";
    ChainLayer L;
    L.w = matrix_of(o.weights[l], (at + "the weight").c_str(), device);
    L.bias = vector_of(o.biases[l], (at + "the bias").c_str(), device);
    L.scale_a = layer_scale_of(o.scale_a[l], l, device);
    L.alpha = o.alpha[l];
    layers.push_back(L);
  }
  args.layers = layers;
  return args;
}

// What a step of a chain changes (x, y, the per-row scales, alpha), over layers whose weights and
// biases are given by `fixed` (the views of an earlier call, whose arrays the Python side keeps):
// only x, y and the scales given are imported, so a step pays no DLPack import for the weights and
// biases (a few µs an array).
ChainArgs step_args_of(const Array& x, const Array& y, const std::vector<std::optional<Array>>& scale_a,
                       const std::vector<float>& alpha, const std::vector<ChainLayer>& fixed, int device,
                       std::vector<ChainLayer>& layers) {
  if (scale_a.size() != fixed.size() || alpha.size() != fixed.size())
    throw nb::value_error(("a chain takes one scale_a and alpha entry a layer: " + std::to_string(fixed.size()) +
                           " layers, " + std::to_string(scale_a.size()) + " scale_a, " + std::to_string(alpha.size()) +
                           " alpha")
                              .c_str());
  ChainArgs args;
  args.x = matrix_of(x, "x", device);
  args.y = matrix_of(y, "y", device);
  layers = fixed;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    layers[l].scale_a = layer_scale_of(scale_a[l], l, device);
    layers[l].alpha = alpha[l];
  }
  args.layers = layers;
  return args;
}

// A GEMM chain plus its device workspace, allocated once when the chain is built.
class PyChain {
 public:
  PyChain(const ChainOperands& o, std::int64_t max_m, const std::string& sm90_kernel, bool programmatic_launch) {
    device_ = usable_device();
    std::vector<ChainLayer> layers;
    const ChainArgs args = chain_args_of(o, device_, layers);  // argument errors first
    if (device_ < 0) throw std::runtime_error("no CUDA device is usable here: graphgemm chains need an NVIDIA Hopper GPU");
    layers_ = layers;
    ChainOptions options;
    options.max_m = max_m;
    options.sm90_kernel = sm90_kernel;
    options.programmatic_launch = programmatic_launch;
    check(chain_.initialize(args, options));
    workspace_.allocate(chain_.workspace_size(), "chain");
  }

  void run(const ChainOperands& o, std::uintptr_t stream) const {
    std::vector<ChainLayer> layers;
    const ChainArgs args = chain_args_of(o, device_, layers);
    check(chain_.run(args, workspace(), reinterpret_cast<cudaStream_t>(stream)));
  }
  // A run with the weights and biases the chain was built with.
  void run_step(const Array& x, const Array& y, const std::vector<std::optional<Array>>& scale_a,
                const std::vector<float>& alpha, std::uintptr_t stream) const {
    std::vector<ChainLayer> layers;
    const ChainArgs args = step_args_of(x, y, scale_a, alpha, layers_, device_, layers);
    check(chain_.run(args, workspace(), reinterpret_cast<cudaStream_t>(stream)));
  }
  const GemmChain& chain() const { return chain_; }
  Workspace workspace() const { return workspace_.get(); }
  int device() const { return device_; }
  std::string describe() const { return chain_.describe(); }
  std::string kernel_for(std::int64_t m) const { return chain_.kernel_for(m); }
  std::int64_t max_m() const { return chain_.max_m(); }
  int layers() const { return chain_.layers(); }
  std::size_t workspace_size() const { return workspace_.size(); }

 private:
  GemmChain chain_;
  std::vector<ChainLayer> layers_;  // as built (the Python Chain keeps their arrays)
  int device_ = 0;
  DeviceWorkspace workspace_;
};

// A chain recorded into a graph being captured (by graphgemm or another library): its setup and
// chain nodes. The chain (and so its workspace) must outlive it (the binding keeps it alive).
class PyChainNode {
 public:
  PyChainNode(const PyChain& chain, const ChainOperands& o, std::uintptr_t stream) : chain_(chain) {
    std::vector<ChainLayer> layers;
    const ChainArgs args = chain_args_of(o, chain.device(), layers);
    check(graph::record_chain(chain.chain(), args, chain.workspace(), reinterpret_cast<cudaStream_t>(stream), node_));
    layers_ = std::move(layers);
    x_ = args.x;
    y_ = args.y;
  }
  void update(std::uintptr_t exec, std::uintptr_t graph, const ChainOperands& o) {
    std::vector<ChainLayer> layers;
    const ChainArgs args = chain_args_of(o, chain_.device(), layers);
    check(node_.update(reinterpret_cast<cudaGraphExec_t>(exec), reinterpret_cast<cudaGraph_t>(graph), args));
    layers_ = std::move(layers);
  }
  // An update that keeps the weights and biases of the last record / update.
  void update_step(std::uintptr_t exec, std::uintptr_t graph, const Array& x, const Array& y,
                   const std::vector<std::optional<Array>>& scale_a, const std::vector<float>& alpha) {
    std::vector<ChainLayer> layers;
    const ChainArgs args = step_args_of(x, y, scale_a, alpha, layers_, chain_.device(), layers);
    check(node_.update(reinterpret_cast<cudaGraphExec_t>(exec), reinterpret_cast<cudaGraph_t>(graph), args));
    layers_ = std::move(layers);
  }
  // A step without scales, x and y given as pointers and M: for callers that have checked that x and
  // y have the recorded dtype, device, strides and columns (graphgemm.graph.update_chain does, for
  // torch tensors). The node still validates everything before CUDA is called.
  void update_step_pointers(std::uintptr_t exec, std::uintptr_t graph, std::int64_t m, std::uintptr_t x, std::uintptr_t y,
                            const std::vector<float>& alpha) {
    if (alpha.size() != layers_.size())
      throw nb::value_error(("a chain takes one alpha a layer: " + std::to_string(layers_.size()) + " layers, " +
                             std::to_string(alpha.size()) + " alpha")
                                .c_str());
    std::vector<ChainLayer> layers = layers_;
    for (std::size_t l = 0; l < layers.size(); ++l) {
      layers[l].scale_a.reset();
      layers[l].alpha = alpha[l];
    }
    ChainArgs args{x_, y_, layers};
    args.x.data = reinterpret_cast<const void*>(x);
    args.x.rows = m;
    args.y.data = reinterpret_cast<const void*>(y);
    args.y.rows = m;
    check(node_.update(reinterpret_cast<cudaGraphExec_t>(exec), reinterpret_cast<cudaGraph_t>(graph), args));
    layers_ = std::move(layers);
  }
  long long setup_updates() const { return node_.setup_updates(); }

 private:
  const PyChain& chain_;
  graph::ChainNode node_;
  std::vector<ChainLayer> layers_;  // of the last record / update (the Python node keeps their arrays)
  MatrixView x_, y_;                // as recorded (update_step_pointers swaps buffers and M)
};

}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "graphgemm C++ core: GEMM plans over DLPack arrays";
  nb::class_<PyPlan>(m, "Plan")
      .def(
          "__init__",
          [](PyPlan* self, Array a, Array b, Array d, std::optional<Array> c, std::optional<Array> bias,
             std::optional<Array> scale_a, std::optional<Array> scale_b, float alpha, float beta, const std::string& backend,
             const std::string& sm90_kernel, const std::string& split_k_mode, int split_k_slices,
             const std::string& programmatic_launch, int split_k_cluster, const std::string& raster_order,
             int raster_group) {
            new (self) PyPlan(Operands{a, b, d, c, bias, scale_a, scale_b}, alpha, beta, backend, sm90_kernel, split_k_mode,
                              split_k_slices, programmatic_launch, split_k_cluster, raster_order, raster_group);
          },
          nb::arg("a"), nb::arg("b"), nb::arg("d"), nb::arg("c").none() = nb::none(), nb::arg("bias").none() = nb::none(),
          nb::arg("scale_a").none() = nb::none(), nb::arg("scale_b").none() = nb::none(), nb::arg("alpha") = 1.0f,
          nb::arg("beta") = 0.0f, nb::arg("backend") = "auto", nb::arg("sm90_kernel") = "",
          nb::arg("split_k_mode") = "auto", nb::arg("split_k_slices") = 0, nb::arg("programmatic_launch") = "auto",
          nb::arg("split_k_cluster") = 0, nb::arg("raster_order") = "auto", nb::arg("raster_group") = 0)
      .def(
          "run",
          [](const PyPlan& self, Array a, Array b, Array d, std::optional<Array> c, std::optional<Array> bias,
             std::optional<Array> scale_a, std::optional<Array> scale_b, float alpha, float beta, std::uintptr_t stream) {
            self.run(Operands{a, b, d, c, bias, scale_a, scale_b}, alpha, beta, stream);
          },
          nb::arg("a"), nb::arg("b"), nb::arg("d"), nb::arg("c").none() = nb::none(), nb::arg("bias").none() = nb::none(),
          nb::arg("scale_a").none() = nb::none(), nb::arg("scale_b").none() = nb::none(), nb::arg("alpha") = 1.0f,
          nb::arg("beta") = 0.0f, nb::arg("stream") = 0)
      .def("run_pointers", &PyPlan::run_pointers, nb::arg("a"), nb::arg("b"), nb::arg("d"), nb::arg("c"), nb::arg("bias"),
           nb::arg("scale_a"), nb::arg("scale_b"), nb::arg("alpha"), nb::arg("beta"), nb::arg("stream"))
      .def_prop_ro("config", &PyPlan::describe)
      .def_prop_ro("backend", &PyPlan::backend)
      .def_prop_ro("workspace_size", &PyPlan::workspace_size)
      .def_prop_ro("device", &PyPlan::device);
  nb::class_<PyGemmNode>(m, "GemmNode")
      .def(
          "__init__",
          [](PyGemmNode* self, const PyPlan& plan, Array a, Array b, Array d, std::optional<Array> c,
             std::optional<Array> bias, std::optional<Array> scale_a, std::optional<Array> scale_b, float alpha, float beta,
             std::int64_t max_m, const std::string& grid, std::uintptr_t stream) {
            new (self) PyGemmNode(plan, Operands{a, b, d, c, bias, scale_a, scale_b}, alpha, beta, max_m, grid, stream);
          },
          nb::arg("plan"), nb::arg("a"), nb::arg("b"), nb::arg("d"), nb::arg("c").none(), nb::arg("bias").none(),
          nb::arg("scale_a").none(), nb::arg("scale_b").none(), nb::arg("alpha"), nb::arg("beta"), nb::arg("max_m"),
          nb::arg("grid"), nb::arg("stream"), nb::keep_alive<1, 2>())
      .def(
          "update",
          [](const PyGemmNode& self, std::uintptr_t exec, std::uintptr_t graph, Array a, Array b, Array d,
             std::optional<Array> c, std::optional<Array> bias, std::optional<Array> scale_a, std::optional<Array> scale_b,
             float alpha, float beta) {
            self.update(exec, graph, Operands{a, b, d, c, bias, scale_a, scale_b}, alpha, beta);
          },
          nb::arg("exec"), nb::arg("graph"), nb::arg("a"), nb::arg("b"), nb::arg("d"), nb::arg("c").none(),
          nb::arg("bias").none(), nb::arg("scale_a").none(), nb::arg("scale_b").none(), nb::arg("alpha"), nb::arg("beta"))
      .def("update_pointers", &PyGemmNode::update_pointers, nb::arg("exec"), nb::arg("graph"), nb::arg("m"), nb::arg("a"),
           nb::arg("b"), nb::arg("d"), nb::arg("c"), nb::arg("bias"), nb::arg("scale_a"), nb::arg("scale_a_size"),
           nb::arg("scale_b"), nb::arg("alpha"), nb::arg("beta"))
      .def_prop_ro("updatable", &PyGemmNode::updatable)
      .def_prop_ro("why_fixed", &PyGemmNode::why_fixed)
      .def_prop_ro("max_m", &PyGemmNode::max_m);
  nb::class_<PyChain>(m, "Chain")
      .def(
          "__init__",
          [](PyChain* self, Array x, Array y, std::vector<Array> weights, std::vector<std::optional<Array>> biases,
             std::vector<std::optional<Array>> scale_a, std::vector<float> alpha, std::int64_t max_m,
             const std::string& sm90_kernel, bool programmatic_launch) {
            new (self) PyChain(ChainOperands{x, y, std::move(weights), std::move(biases), std::move(scale_a), std::move(alpha)},
                               max_m, sm90_kernel, programmatic_launch);
          },
          nb::arg("x"), nb::arg("y"), nb::arg("weights"), nb::arg("biases"), nb::arg("scale_a"), nb::arg("alpha"),
          nb::arg("max_m"), nb::arg("sm90_kernel"), nb::arg("programmatic_launch"))
      .def(
          "run",
          [](const PyChain& self, Array x, Array y, std::vector<Array> weights, std::vector<std::optional<Array>> biases,
             std::vector<std::optional<Array>> scale_a, std::vector<float> alpha, std::uintptr_t stream) {
            self.run(ChainOperands{x, y, std::move(weights), std::move(biases), std::move(scale_a), std::move(alpha)}, stream);
          },
          nb::arg("x"), nb::arg("y"), nb::arg("weights"), nb::arg("biases"), nb::arg("scale_a"), nb::arg("alpha"),
          nb::arg("stream"))
      .def("run_step", &PyChain::run_step, nb::arg("x"), nb::arg("y"), nb::arg("scale_a"), nb::arg("alpha"),
           nb::arg("stream"))
      .def("kernel_for", &PyChain::kernel_for, nb::arg("m"))
      .def_prop_ro("config", &PyChain::describe)
      .def_prop_ro("max_m", &PyChain::max_m)
      .def_prop_ro("layers", &PyChain::layers)
      .def_prop_ro("workspace_size", &PyChain::workspace_size)
      .def_prop_ro("device", &PyChain::device);
  nb::class_<PyChainNode>(m, "ChainNode")
      .def(
          "__init__",
          [](PyChainNode* self, const PyChain& chain, Array x, Array y, std::vector<Array> weights,
             std::vector<std::optional<Array>> biases, std::vector<std::optional<Array>> scale_a, std::vector<float> alpha,
             std::uintptr_t stream) {
            new (self) PyChainNode(
                chain, ChainOperands{x, y, std::move(weights), std::move(biases), std::move(scale_a), std::move(alpha)}, stream);
          },
          nb::arg("chain"), nb::arg("x"), nb::arg("y"), nb::arg("weights"), nb::arg("biases"), nb::arg("scale_a"),
          nb::arg("alpha"), nb::arg("stream"), nb::keep_alive<1, 2>())
      .def(
          "update",
          [](PyChainNode& self, std::uintptr_t exec, std::uintptr_t graph, Array x, Array y, std::vector<Array> weights,
             std::vector<std::optional<Array>> biases, std::vector<std::optional<Array>> scale_a, std::vector<float> alpha) {
            self.update(exec, graph, ChainOperands{x, y, std::move(weights), std::move(biases), std::move(scale_a), std::move(alpha)});
          },
          nb::arg("exec"), nb::arg("graph"), nb::arg("x"), nb::arg("y"), nb::arg("weights"), nb::arg("biases"),
          nb::arg("scale_a"), nb::arg("alpha"))
      .def("update_step", &PyChainNode::update_step, nb::arg("exec"), nb::arg("graph"), nb::arg("x"), nb::arg("y"),
           nb::arg("scale_a"), nb::arg("alpha"))
      .def("update_step_pointers", &PyChainNode::update_step_pointers, nb::arg("exec"), nb::arg("graph"), nb::arg("m"),
           nb::arg("x"), nb::arg("y"), nb::arg("alpha"))
      .def_prop_ro("setup_updates", &PyChainNode::setup_updates);
  m.def(
      "graph_upload",
      [](std::uintptr_t exec, std::uintptr_t stream) {
        check(graph::upload_unless_capturing(reinterpret_cast<cudaGraphExec_t>(exec),
                                             reinterpret_cast<cudaStream_t>(stream)));
      },
      nb::arg("exec"), nb::arg("stream"));
  m.def("cuda_device_count", []() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  });
}
