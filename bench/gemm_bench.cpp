// graphgemm_bench: times GEMM backends side by side, in one process, over the shape suite.
//
// Method (see README.md, Benchmarks): for each shape and backend, operand sets are allocated and filled
// with random normal values, enough sets that together they exceed 3x the L2 cache; `reps` runs
// cycling over the sets are captured in one CUDA graph, and each replay of that graph is timed with
// CUDA events. The time per GEMM is replay time / reps; we report the median over replays (with
// --sustain-ms: the mean over timed segments of back-to-back replays, see Options::sustain_ms)
// and the min and max. Graph replay leaves host launch overhead out, for every backend alike.
// Floors: bytes that must move / copy bandwidth measured in this run, and FLOPs / the dense peak
// measured in this run (the fastest 8192^3 of any backend, for that dtype).

#include <cuda_runtime_api.h>
#include <cublasLt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gpu_support.hpp"
#include "graphgemm/graphgemm.hpp"
#include "json.hpp"
#include "speed_of_light.hpp"

namespace graphgemm::bench {
namespace {

using support::DeviceBuffer;
using support::GemmOperands;
using support::GemmSpec;

struct Shape {
  std::string suite, name;
  std::int64_t m, n, k;
};

struct Options {
  std::string shapes_path = "bench/shapes.json";
  std::vector<std::string> suites = {"llm", "square", "splitk"};
  std::vector<std::string> dtypes = {"bf16", "int8"};
  std::vector<std::string> backends = {"cublaslt"};
  std::string out_dir = "bench/results/local";
  int batches = 10;
  double target_batch_us = 1000;
  // 0: the backends' timed replays take turns (A B C A B C ...), so every backend runs at the clock
  // their mix allows. > 0: the backends take turns of this many milliseconds of back-to-back
  // replays, the first half untimed, the second in timed segments (`batches` or more in all, over
  // `sustain_rounds` rounds whose order runs forward, then backward): every backend at the clock its
  // own power draw allows under the GPU's power cap (H100, session 33: compute-bound GEMMs run
  // power-capped, and kernels that spend more energy per FLOP get a lower clock, which turns hide).
  double sustain_ms = 0;
  int sustain_rounds = 4;  // rounded up to an even count
  std::int64_t max_m = 0;  // 0: no limit (a quick run can cap M)
  std::int64_t min_m = 0;  // shapes with smaller M are left out
  std::string shape;       // "MxNxK": this one shape instead of the suites (for profilers)
  bool no_peak = false;    // skip the 8192^3 peak run (profilers): floors are then memory-only
  // The epilogue every GEMM of the run applies: "plain" (D = A·B), or "bias" (+ a per-column bias of
  // D's dtype: what a linear layer does, and cuBLASLt's BIAS epilogue).
  std::string epilogue = "plain";
  // How B is stored: "nk", N x K row-major (a PyTorch Linear weight; the sm90 kernels "_bk"), or
  // "kn", K x N row-major (the "_bn" kernels).
  std::string b_layout = "nk";
  // D's dtype for bf16 / fp16 inputs: "same" (the input's, the common inference case), or "fp32"
  // (every backend accumulates in fp32 and stores it unrounded).
  std::string out_dtype = "same";
};

struct Timing {
  double central_us = 0, min_us = 0, max_us = 0;  // central: the median, or the mean when sustained
  int reps = 0, sets = 0;
};

struct Measurement {
  std::optional<Timing> timing;
  std::string config;  // the plan's describe()
  std::string error;   // why there is no timing
  std::optional<double> rel_error;
};

std::vector<Shape> load_shapes(const Options& opt) {
  if (!opt.shape.empty()) {
    Shape s{"shape", "shape", 0, 0, 0};
    if (std::sscanf(opt.shape.c_str(), "%lldx%lldx%lld", reinterpret_cast<long long*>(&s.m),
                    reinterpret_cast<long long*>(&s.n), reinterpret_cast<long long*>(&s.k)) != 3)
      throw std::runtime_error("--shape takes MxNxK, e.g. 4096x4096x4096");
    return {s};
  }
  std::ifstream in(opt.shapes_path);
  if (!in) throw std::runtime_error("cannot open " + opt.shapes_path + " (pass --shapes PATH)");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  const Json root = JsonParser(text).parse();
  std::vector<Shape> shapes;
  for (const std::string& suite : opt.suites) {
    if (!root.has(suite)) throw std::runtime_error("suite \"" + suite + "\" is not in " + opt.shapes_path);
    const Json& s = root.at(suite);
    if (s.kind == Json::Kind::object) {  // {"M": [...], "NK": {name: [N, K]}}: every M with every (N, K)
      for (const Json& m : s.at("M").array)
        for (const auto& [name, nk] : s.at("NK").object)
          shapes.push_back({suite, name, m.as_int(), nk.array.at(0).as_int(), nk.array.at(1).as_int()});
    } else {
      for (const Json& mnk : s.array)
        shapes.push_back({suite, suite, mnk.array.at(0).as_int(), mnk.array.at(1).as_int(), mnk.array.at(2).as_int()});
    }
  }
  if (opt.min_m > 0)
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(), [&](const Shape& s) { return s.m < opt.min_m; }), shapes.end());
  if (opt.max_m > 0)
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(), [&](const Shape& s) { return s.m > opt.max_m; }),
                 shapes.end());
  return shapes;
}

DType parse_dtype(const std::string& s) {
  if (s == "bf16") return DType::bf16;
  if (s == "fp16") return DType::fp16;
  if (s == "int8") return DType::int8;
  if (s == "fp8") return DType::fp8_e4m3;
  throw std::runtime_error("unknown dtype \"" + s + "\" (bf16, fp16, int8, fp8)");
}
// The output each input type is benchmarked with: the common inference case, or fp32 for 16-bit
// floating-point inputs where the run asks for it (--out-dtype fp32).
DType output_for(DType in, const std::string& out_dtype) {
  if (out_dtype == "fp32" && (in == DType::bf16 || in == DType::fp16)) return DType::fp32;
  switch (in) {
    case DType::int8: return DType::int32;
    case DType::fp8_e4m3: return DType::bf16;
    default: return in;
  }
}
// A backend of the bench: a GEMM plan's options, or the memory speed of light (speed_of_light.hpp),
// which is no GEMM: it only moves the shape's bytes, and its results are not checked.
struct BackendSpec {
  GemmOptions gemm;
  bool sol = false;
  SolOptions sol_options;
};

// The memory speed of light: "sol" (= "sol=loads"), "sol=loads/C" (C CTAs of 256 threads per SM,
// default 4), "sol=bulk" or "sol=bulk/KB" (KB per bulk copy, default 16), each optionally followed by
// "+pdl" (programmatic dependent launch) or "+pdl+prefetch" (and its share pulled into L2 before the
// wait); the tensor cores' speed of light "sol=math" (bf16 / fp16, no suffix). std::nullopt for any
// other backend.
std::optional<BackendSpec> parse_sol(const std::string& spec) {
  if (spec.rfind("sol", 0) != 0) return std::nullopt;
  std::string s = spec;
  BackendSpec b;
  b.sol = true;
  SolOptions& o = b.sol_options;
  auto take_suffix = [&](const std::string& suffix) {
    const bool has = s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (has) s.resize(s.size() - suffix.size());
    return has;
  };
  o.prefetch = take_suffix("+prefetch");
  o.programmatic = take_suffix("+pdl");
  const std::string usage = "backend spec \"" + spec + "\": the speed of light is sol, sol=loads[/CTAS_PER_SM 1-8] or "
                            "sol=bulk[/KB_PER_COPY 1-48], optionally followed by +pdl or +pdl+prefetch; or sol=math";
  if (o.prefetch && !o.programmatic) throw std::runtime_error(usage);
  std::string method = s == "sol" ? "loads" : s.rfind("sol=", 0) == 0 ? s.substr(4) : "";
  std::string count;
  if (const std::size_t slash = method.find('/'); slash != std::string::npos) {
    count = method.substr(slash + 1);
    method.resize(slash);
  }
  if (method == "loads") o.method = SolMethod::loads;
  else if (method == "bulk") o.method = SolMethod::bulk;
  else if (method == "math" && count.empty() && !o.programmatic) o.method = SolMethod::math;
  else throw std::runtime_error(usage);
  if (!count.empty()) {
    std::size_t used = 0;
    int v = 0;
    try { v = std::stoi(count, &used); } catch (const std::exception&) { used = 0; }
    if (used != count.size()) throw std::runtime_error(usage);
    (o.method == SolMethod::loads ? o.ctas_per_sm : o.chunk_kb) = v;
    if (o.ctas_per_sm < 1 || o.ctas_per_sm > 8 || o.chunk_kb < 1 || o.chunk_kb > 48) throw std::runtime_error(usage);
  }
  return b;
}

// A backend spec: "cublaslt", "sm90", "auto", or "sm90=<kernel name>" to force one sm90 kernel
// instance (names as GemmPlan::describe() prints them; "_bk" is appended when the name ends in
// neither "_bk" nor "_bn", the B layout suffix),
// optionally followed by "+pdl" / "+nopdl" (programmatic dependent launch on / off), "+rmG" / "+rnG" (tiles in
// raster groups of G along M / N) and by ":MODE[:SLICES]" for split-K: MODE none, serial, parallel or auto, SLICES a
// count or auto (the heuristic's), e.g. "sm90:parallel:8", "sm90:serial:auto", "sm90:none"; and by ":cC" for the slices summed within
// clusters of C CTAs (GemmOptions::split_k_cluster: c1 none, c2/c4/c8), e.g. "sm90:parallel:64:c8", "sm90:parallel:auto:c1".
GemmOptions parse_backend(const std::string& spec_in) {
  std::string spec = spec_in;
  GemmOptions o;
  if (const std::size_t last = spec.rfind(":c"); last != std::string::npos && last + 2 < spec.size() &&
                                                  spec.find(':', last + 1) == std::string::npos) {
    std::size_t used = 0;
    const std::string c = spec.substr(last + 2);
    try { o.split_k_cluster = std::stoi(c, &used); } catch (const std::exception&) { used = 0; }
    if (used != c.size()) throw std::runtime_error("backend spec \"" + spec_in + "\": the cluster suffix is :c1, :c2, :c4 or :c8");
    spec.resize(last);
  }
  const std::size_t colon = spec.find(':');
  std::string s = spec.substr(0, colon);
  // Suffixes after the backend name, in any order: "+pdl" / "+nopdl", programmatic dependent launch
  // on / off (GemmOptions::programmatic_launch; without either, the backend's automatic choice);
  // "+rmG" / "+rnG", tiles in raster groups of G along M / N (GemmOptions::sm90_raster_*).
  for (std::size_t plus; (plus = s.rfind('+')) != std::string::npos && plus > 0;) {
    const std::string suffix = s.substr(plus + 1);
    if (suffix == "pdl" || suffix == "nopdl") {
      o.programmatic_launch = suffix == "pdl" ? ProgrammaticLaunch::on : ProgrammaticLaunch::off;
    } else if (suffix.size() > 2 && suffix[0] == 'r' && (suffix[1] == 'm' || suffix[1] == 'n')) {
      std::size_t used = 0;
      const std::string g = suffix.substr(2);
      try { o.sm90_raster_group = std::stoi(g, &used); } catch (const std::exception&) { used = 0; }
      if (used != g.size() || o.sm90_raster_group < 1)
        throw std::runtime_error("backend spec \"" + spec_in + "\": the raster suffix is +rmG or +rnG, G >= 1 tiles");
      o.sm90_raster_order = suffix[1] == 'm' ? RasterOrder::along_m : RasterOrder::along_n;
    } else {
      throw std::runtime_error("backend spec \"" + spec_in + "\": unknown suffix \"+" + suffix +
                               "\" (+pdl, +nopdl, +rmG, +rnG)");
    }
    s.resize(plus);
  }
  if (colon != std::string::npos) {
    const std::string split = spec.substr(colon + 1);
    const std::size_t c2 = split.find(':');
    const std::string mode = split.substr(0, c2), slices = c2 == std::string::npos ? "auto" : split.substr(c2 + 1);
    const std::string usage = "backend spec \"" + spec + "\": split-K suffix is :MODE[:SLICES], MODE none, serial, parallel, auto or streamk, "
                              "SLICES a count >= 1 or auto";
    if (mode == "none") o.split_k_mode = SplitKMode::none;
    else if (mode == "serial") o.split_k_mode = SplitKMode::serial;
    else if (mode == "parallel") o.split_k_mode = SplitKMode::parallel;
    else if (mode == "auto") o.split_k_mode = SplitKMode::automatic;
    else if (mode == "streamk" || mode == "stream_k") o.split_k_mode = SplitKMode::stream_k;
    else throw std::runtime_error(usage);
    if (slices != "auto") {
      std::size_t used = 0;
      try { o.split_k_slices = std::stoi(slices, &used); } catch (const std::exception&) { used = 0; }
      if (used != slices.size() || o.split_k_slices < 1) throw std::runtime_error(usage);
    }
  }
  if (s == "cublaslt") o.backend = Backend::cublaslt;
  else if (s == "sm90") o.backend = Backend::sm90;
  else if (s == "auto") o.backend = Backend::automatic;
  else if (s.rfind("sm90=", 0) == 0) {
    o.backend = Backend::sm90;
    o.sm90_kernel = s.substr(5);
    auto ends_with = [&](const char* suffix) {
      return o.sm90_kernel.size() >= 3 && o.sm90_kernel.compare(o.sm90_kernel.size() - 3, 3, suffix) == 0;
    };
    if (!ends_with("_bk") && !ends_with("_bn")) o.sm90_kernel += "_bk";
  } else {
    throw std::runtime_error("unknown backend \"" + s + "\" (cublaslt, sm90, auto, sm90=<kernel>; then optionally "
                             ":MODE[:SLICES] for split-K, e.g. sm90:parallel:8; or sol, sol=bulk for the memory speed of light)");
  }
  return o;
}

BackendSpec parse_backend_spec(const std::string& spec) {
  if (std::optional<BackendSpec> sol = parse_sol(spec)) return *sol;
  BackendSpec b;
  b.gemm = parse_backend(spec);
  return b;
}

// Bytes of a view's allocation as the bench makes them (dense: ld x the other extent).
std::size_t view_bytes(const MatrixView& v) {
  const std::int64_t outer = v.layout == Layout::row_major ? v.rows : v.cols;
  return static_cast<std::size_t>(outer * v.leading_dim()) * size_of(v.dtype);
}

std::string shell_line(const char* cmd) {
  std::string out;
  if (FILE* f = popen(cmd, "r")) {
    char buf[512];
    while (fgets(buf, sizeof buf, f)) out += buf;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unavailable" : out;
}
std::string gpu_clocks() {
  return shell_line(
      "nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,"
      "clocks_event_reasons.active --format=csv,noheader 2>/dev/null | head -n 1");
}

class Bench {
 public:
  explicit Bench(Options opt) : opt_(std::move(opt)) {
    SUPPORT_CUDA(cudaGetDevice(&device_));
    SUPPORT_CUDA(cudaGetDeviceProperties(&prop_, device_));
    SUPPORT_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    SUPPORT_CUDA(cudaEventCreate(&start_));
    SUPPORT_CUDA(cudaEventCreate(&stop_));
  }
  ~Bench() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
    (void)cudaStreamDestroy(stream_);
  }

  double elapsed_us() {
    float ms = 0;
    SUPPORT_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1000.0;
  }

  // Device-to-device copy, counting bytes read plus written.
  double copy_bandwidth_gbps() {
    const std::size_t bytes = std::size_t{1} << 30;
    DeviceBuffer src(bytes), dst(bytes);
    support::fill_random(src.get(), DType::fp32, bytes / 4, 1);
    std::vector<double> t;
    for (int i = 0; i < 13; ++i) {
      SUPPORT_CUDA(cudaEventRecord(start_, stream_));
      SUPPORT_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream_));
      SUPPORT_CUDA(cudaEventRecord(stop_, stream_));
      SUPPORT_CUDA(cudaEventSynchronize(stop_));
      if (i >= 3) t.push_back(elapsed_us());
    }
    std::sort(t.begin(), t.end());
    return 2.0 * bytes / (t[t.size() / 2] * 1e-6) / 1e9;
  }

  // Sustained mode: rounds of turns, even (forward, then backward), at least 2; timed segments per
  // turn, `batches` or more in all.
  int sustained_rounds() const { return std::max(2, opt_.sustain_rounds + opt_.sustain_rounds % 2); }
  int sustained_segments() const { return (opt_.batches + sustained_rounds() - 1) / sustained_rounds(); }

  // Times every backend on one shape. The backends share the operand sets; their graphs are built
  // first and then replayed in turn (A B C A B C ...), so that a change of clocks or power state
  // during the run weighs on all of them alike (or, sustained, in turns of sustain_ms).
  std::vector<Measurement> measure(const Shape& s, DType in, const std::vector<BackendSpec>& backends, bool check) {
    GemmSpec spec{s.m, s.n, s.k, in, output_for(in, opt_.out_dtype)};
    if (in == DType::fp8_e4m3) { spec.scale_a = 1; spec.scale_b = 1; }
    spec.with_bias = opt_.epilogue == "bias";
    spec.b_layout = opt_.b_layout == "kn" ? Layout::row_major : Layout::col_major;
    const std::size_t set_bytes = (s.m * s.k + s.k * s.n) * size_of(in) + s.m * s.n * size_of(spec.out);
    const std::size_t l2 = static_cast<std::size_t>(prop_.l2CacheSize);
    const int sets = static_cast<int>(std::clamp<std::size_t>((3 * l2 + set_bytes - 1) / set_bytes, 1, 16));
    std::vector<std::unique_ptr<GemmOperands>> ops;
    for (int i = 0; i < sets; ++i) ops.push_back(std::make_unique<GemmOperands>(spec, 1000 + i));

    struct Candidate {
      GemmPlan plan;
      DeviceBuffer ws;
      cudaGraphExec_t exec = nullptr;
      int reps = 0;
      std::vector<double> samples;
    };
    std::vector<Measurement> out(backends.size());
    std::vector<Candidate> cands(backends.size());
    for (std::size_t b = 0; b < backends.size(); ++b) {
      Candidate& c = cands[b];
      const BackendSpec& spec_b = backends[b];
      if (spec_b.sol) {
        if (spec_b.sol_options.method == SolMethod::math && in != DType::bf16 && in != DType::fp16) {
          out[b].error = "sol=math: bf16 / fp16 inputs only";
          continue;
        }
        out[b].config = describe(spec_b.sol_options);
      } else {
        if (Status st = c.plan.initialize(ops[0]->args(), spec_b.gemm); !st.ok()) {
          out[b].error = st.to_string();
          continue;
        }
        out[b].config = c.plan.describe();
        c.ws = DeviceBuffer(c.plan.workspace_size(ops[0]->args()));
      }
      const Workspace workspace{c.ws.get(), c.ws.bytes()};
      auto run = [&](int i) {
        const GemmArgs& args = ops[i % sets]->args();
        if (spec_b.sol) {
          const SolProblem p{args.a.data, view_bytes(args.a), args.b.data, view_bytes(args.b),
                             const_cast<void*>(args.d.data), view_bytes(args.d), s.m, s.n, s.k,
                             in == DType::bf16 ? SolElement::bf16 : in == DType::fp16 ? SolElement::fp16 : SolElement::other};
          SUPPORT_CUDA(launch_speed_of_light(p, spec_b.sol_options, stream_));
          return;
        }
        const Status st = c.plan.run(args, workspace, stream_);
        if (!st.ok()) throw std::runtime_error("run failed: " + st.to_string());
      };
      if (check && !spec_b.sol) {
        ops[0]->poison_output(stream_);
        run(0);
        SUPPORT_CUDA(cudaStreamSynchronize(stream_));
        const support::Comparison cmp = ops[0]->check();
        out[b].rel_error = cmp.non_finite || cmp.outside_writes ? INFINITY : cmp.rel_error;
      }
      // Warm up every set, then estimate one run's time to size the graph.
      for (int i = 0; i < sets; ++i) run(i);
      SUPPORT_CUDA(cudaEventRecord(start_, stream_));
      for (int i = 0; i < 3; ++i) run(i);
      SUPPORT_CUDA(cudaEventRecord(stop_, stream_));
      SUPPORT_CUDA(cudaEventSynchronize(stop_));
      const double estimate_us = elapsed_us() / 3;
      c.reps = static_cast<int>(std::clamp(std::ceil(opt_.target_batch_us / estimate_us), 1.0, 200.0));
      cudaGraph_t graph = nullptr;
      SUPPORT_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal));
      for (int r = 0; r < c.reps; ++r) run(r);
      SUPPORT_CUDA(cudaStreamEndCapture(stream_, &graph));
      SUPPORT_CUDA(cudaGraphInstantiate(&c.exec, graph, 0));
      SUPPORT_CUDA(cudaGraphDestroy(graph));
      SUPPORT_CUDA(cudaGraphLaunch(c.exec, stream_));  // warm-up replay
    }
    std::vector<Candidate*> active;  // the backends whose plan initialized
    for (Candidate& c : cands)
      if (c.exec) active.push_back(&c);
    // One sample: `count` back-to-back replays of c's graph, timed together; µs per GEMM.
    const auto time_replays = [&](Candidate& c, int count) {
      SUPPORT_CUDA(cudaEventRecord(start_, stream_));
      for (int i = 0; i < count; ++i) SUPPORT_CUDA(cudaGraphLaunch(c.exec, stream_));
      SUPPORT_CUDA(cudaEventRecord(stop_, stream_));
      SUPPORT_CUDA(cudaEventSynchronize(stop_));
      c.samples.push_back(elapsed_us() / (static_cast<double>(c.reps) * count));
    };
    if (opt_.sustain_ms > 0) {
      // Turns of sustain_ms per backend: back-to-back replays (a sync every 4 keeps the queue
      // short), the first half untimed (the power cap's clock settles to this backend's draw), the
      // second half timed in segments of tens of milliseconds (as the cap's clock changes; one
      // replay of ~1 ms sees them as noise). The backends take their turns in rounds whose order
      // runs forward, then backward (A B C, C B A, then rotated: B C A, A C B, ...): the GPU's
      // clock drifts over seconds under the cap (H100, session 34: ~1% per 1 s turn at 4096^3,
      // always faster later in one call), and a fixed order had handed that drift to the later
      // backends.
      const int n = static_cast<int>(active.size());
      const int rounds = sustained_rounds();
      const int segments = sustained_segments();
      const auto now_ms = [] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
      };
      for (int round = 0; round < rounds && n > 0; ++round) {
        for (int turn = 0; turn < n; ++turn) {
          const int pos = round % 2 == 0 ? turn : n - 1 - turn;
          Candidate& c = *active[(pos + round / 2) % n];
          const double t0 = now_ms();
          int warm = 0;
          do {
            for (int i = 0; i < 4; ++i, ++warm) SUPPORT_CUDA(cudaGraphLaunch(c.exec, stream_));
            SUPPORT_CUDA(cudaStreamSynchronize(stream_));
          } while (now_ms() - t0 < opt_.sustain_ms / 2);
          const double replay_ms = (now_ms() - t0) / warm;
          const int per_segment =
              std::max(1, static_cast<int>(std::lround(opt_.sustain_ms / 2 / segments / replay_ms)));
          for (int seg = 0; seg < segments; ++seg) time_replays(c, per_segment);
        }
      }
    } else {
      for (int batch = 0; batch < opt_.batches; ++batch)
        for (Candidate* c : active) time_replays(*c, 1);
    }
    for (std::size_t b = 0; b < backends.size(); ++b) {
      Candidate& c = cands[b];
      if (!c.exec) continue;
      SUPPORT_CUDA(cudaGraphExecDestroy(c.exec));
      std::sort(c.samples.begin(), c.samples.end());
      // Sustained: the mean over the segments, i.e. the time-averaged clock. Under the power cap
      // the clock swings by +-7% from one 50 ms segment to the next (H100, session 34), so a
      // median of few segments lands on whichever level most of them saw.
      const double central = opt_.sustain_ms > 0
          ? std::accumulate(c.samples.begin(), c.samples.end(), 0.0) / static_cast<double>(c.samples.size())
          : c.samples[c.samples.size() / 2];
      out[b].timing = Timing{central, c.samples.front(), c.samples.back(), c.reps, sets};
    }
    return out;
  }

  int run_all() {
    const std::vector<Shape> shapes = load_shapes(opt_);
    std::vector<BackendSpec> backends;
    for (const auto& b : opt_.backends) backends.push_back(parse_backend_spec(b));

    const std::string clocks_before = gpu_clocks();
    std::cerr << "device: " << prop_.name << ", " << prop_.multiProcessorCount << " SMs, L2 " << (prop_.l2CacheSize >> 20)
              << " MiB; clocks (sm, max sm, mem, temp, power, reasons): " << clocks_before << "\n";
    const double bw = copy_bandwidth_gbps();
    std::cerr << "copy bandwidth: " << bw << " GB/s (read + write)\n";

    std::filesystem::create_directories(opt_.out_dir);
    int failures = 0;
    for (const std::string& dtype_name : opt_.dtypes) {
      const DType in = parse_dtype(dtype_name);
      // Dense peak for this dtype: the fastest backend on 8192^3 in this run.
      double peak_flops = 0;
      std::string peak_source;
      const Shape peak_shape{"peak", "peak", 8192, 8192, 8192};
      const std::vector<Measurement> peak_ms =
          opt_.no_peak ? std::vector<Measurement>(backends.size()) : measure(peak_shape, in, backends, false);
      for (std::size_t b = 0; b < peak_ms.size(); ++b) {
        const Measurement& m = peak_ms[b];
        if (!m.timing || backends[b].sol) continue;  // the speed of light does no arithmetic
        const double f = 2.0 * 8192 * 8192 * 8192 / (m.timing->central_us * 1e-6);
        if (f > peak_flops) { peak_flops = f; peak_source = opt_.backends[b] + " 8192^3"; }
      }
      if (opt_.no_peak) {
        peak_flops = INFINITY;  // compute floors 0: the floors are memory-only
        peak_source = "not measured (--no-peak): floors are memory-only";
      } else if (peak_flops == 0) {
        throw std::runtime_error("no backend ran 8192^3 " + dtype_name + "; cannot measure the peak (--no-peak skips it)");
      }
      std::cerr << dtype_name << " dense peak: " << peak_flops / 1e12 << " T(FL)OP/s (" << peak_source << ")\n";

      std::ostringstream rows;
      std::ostringstream md;
      md << "| suite | name | M | N | K | floor µs |";
      for (const auto& b : opt_.backends) md << " " << b << " µs | " << b << " T(FL)OP/s |";
      for (std::size_t b = 1; b < backends.size(); ++b) md << " " << opt_.backends[b] << " / " << opt_.backends[0] << " |";
      md << "\n|---|---|---|---|---|---|";
      for (std::size_t b = 0; b < backends.size(); ++b) md << "---|---|";
      for (std::size_t b = 1; b < backends.size(); ++b) md << "---|";
      md << "\n";

      for (std::size_t i = 0; i < shapes.size(); ++i) {
        const Shape& s = shapes[i];
        const DType out_t = output_for(in, opt_.out_dtype);
        const double flops = 2.0 * s.m * s.n * s.k;
        const double bytes = static_cast<double>((s.m * s.k + s.k * s.n) * size_of(in) + s.m * s.n * size_of(out_t));
        const double mem_us = bytes / (bw * 1e9) * 1e6, compute_us = flops / peak_flops * 1e6;
        const double floor_us = std::max(mem_us, compute_us);
        const bool check = static_cast<double>(s.m) * s.n * s.k <= 2.2e9;

        const std::vector<Measurement> ms = measure(s, in, backends, check);

        std::cerr << "[" << (i + 1) << "/" << shapes.size() << "] " << dtype_name << " " << s.name << " " << s.m << "x"
                  << s.n << "x" << s.k << "  floor " << floor_us << " us";
        rows << (i ? ",\n" : "") << "    {\"suite\": " << json_escape(s.suite) << ", \"name\": " << json_escape(s.name)
             << ", \"M\": " << s.m << ", \"N\": " << s.n << ", \"K\": " << s.k << ", \"dtype\": " << json_escape(dtype_name)
             << ", \"out_dtype\": " << json_escape(to_string(out_t)) << ", \"floor_us\": " << floor_us
             << ", \"floor_kind\": " << json_escape(mem_us >= compute_us ? "memory" : "compute");
        auto field = [&](const char* key, auto&& value_of) {
          rows << ", \"" << key << "\": {";
          for (std::size_t b = 0; b < backends.size(); ++b) rows << (b ? ", " : "") << json_escape(opt_.backends[b]) << ": " << value_of(ms[b]);
          rows << "}";
        };
        auto num = [](std::optional<double> v) { return v ? std::to_string(*v) : std::string("null"); };
        field("us", [&](const Measurement& m) { return num(m.timing ? std::optional(m.timing->central_us) : std::nullopt); });
        field("us_min", [&](const Measurement& m) { return num(m.timing ? std::optional(m.timing->min_us) : std::nullopt); });
        field("us_max", [&](const Measurement& m) { return num(m.timing ? std::optional(m.timing->max_us) : std::nullopt); });
        field("rel_error", [&](const Measurement& m) { return num(m.rel_error); });
        field("config", [&](const Measurement& m) { return json_escape(m.timing ? m.config : m.error); });
        rows << "}";

        md << "| " << s.suite << " | " << s.name << " | " << s.m << " | " << s.n << " | " << s.k << " | " << floor_us << " |";
        for (std::size_t b = 0; b < backends.size(); ++b) {
          const Measurement& m = ms[b];
          if (m.timing) {
            md << " " << m.timing->central_us << " | ";
            if (backends[b].sol && backends[b].sol_options.method != SolMethod::math) md << "n/a |";  // no arithmetic
            else md << flops / (m.timing->central_us * 1e-6) / 1e12 << " |";
            std::cerr << "  " << opt_.backends[b] << " " << m.timing->central_us << " us";
          } else {
            md << " n/a | n/a |";
            std::cerr << "  " << opt_.backends[b] << " n/a (" << m.error << ")";
          }
          if (m.rel_error && !(*m.rel_error < GemmOperands::tolerance(in, out_t) + 1e-12)) {
            ++failures;
            std::cerr << " WRONG RESULT (rel error " << *m.rel_error << ")";
          }
        }
        for (std::size_t b = 1; b < backends.size(); ++b) {
          if (ms[b].timing && ms[0].timing) md << " " << ms[0].timing->central_us / ms[b].timing->central_us << "x |";
          else md << " n/a |";
        }
        md << "\n";
        std::cerr << "\n";
      }

      const std::string clocks_after = gpu_clocks();
      int runtime = 0, driver = 0;
      SUPPORT_CUDA(cudaRuntimeGetVersion(&runtime));
      SUPPORT_CUDA(cudaDriverGetVersion(&driver));
      int clock_khz = 0;
      SUPPORT_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device_));
      const std::string base = opt_.out_dir + "/gemm_" + dtype_name + (opt_.epilogue == "plain" ? "" : "_" + opt_.epilogue) +
                               (opt_.b_layout == "nk" ? "" : "_b" + opt_.b_layout) +
                               (opt_.out_dtype == "same" ? "" : "_o" + opt_.out_dtype);
      std::ofstream js(base + ".json");
      js << "{\n  \"device\": {\"name\": " << json_escape(prop_.name) << ", \"sm_count\": " << prop_.multiProcessorCount
         << ", \"compute_capability\": \"" << prop_.major << "." << prop_.minor << "\", \"l2_bytes\": " << prop_.l2CacheSize
         << ", \"max_sm_clock_khz\": " << clock_khz << ", \"clocks_before\": " << json_escape(clocks_before)
         << ", \"clocks_after\": " << json_escape(clocks_after) << ", \"clocks_format\": "
         << json_escape("sm MHz, max sm MHz, mem MHz, temperature C, power W, clock event reasons") << "},\n"
         << "  \"cuda\": {\"runtime\": " << runtime << ", \"driver\": " << driver << ", \"cublaslt\": " << cublasLtGetVersion()
         << "},\n  \"dtype\": " << json_escape(dtype_name) << ", \"out_dtype\": " << json_escape(to_string(output_for(in, opt_.out_dtype)))
         << ", \"epilogue\": " << json_escape(opt_.epilogue) << ", \"b_layout\": " << json_escape(opt_.b_layout)
         << ",\n  \"copy_bandwidth_gbps\": " << bw << ",\n  \"peak_tflops\": " << (std::isfinite(peak_flops) ? std::to_string(peak_flops / 1e12) : std::string("null"))
         << ", \"peak_source\": " << json_escape(peak_source) << ",\n  \"method\": "
         << json_escape((opt_.sustain_ms > 0 ? "mean of " : "median of ") +
                        std::to_string(opt_.sustain_ms > 0 ? sustained_rounds() * sustained_segments() : opt_.batches) +
                        (opt_.sustain_ms > 0 ? " timed segments of back-to-back replays" : " timed replays") +
                        " of a CUDA graph of reps GEMMs over operand sets exceeding 3x L2, " +
                        (opt_.sustain_ms > 0 ? "sustained: turns of " + std::to_string(opt_.sustain_ms) +
                                                   " ms per backend (first half untimed) in " +
                                                   std::to_string(sustained_rounds()) +
                                                   " rounds, forward then backward"
                                             : std::string("backends replayed in turn")) +
                        "; random normal inputs; floor = max(bytes / copy bandwidth, flops / peak)")
         << ", \"sustain_ms\": " << opt_.sustain_ms << ", \"sustain_rounds\": " << sustained_rounds()
         << ",\n  \"rows\": [\n" << rows.str() << "\n  ]\n}\n";
      std::ofstream(base + ".md") << "# " << dtype_name << " GEMM on " << prop_.name
                                  << (opt_.epilogue == "plain" ? "" : ", epilogue: " + opt_.epilogue)
                                  << (opt_.b_layout == "nk" ? "" : ", B stored K x N")
                                  << (opt_.out_dtype == "same" ? "" : ", D " + opt_.out_dtype) << "\n\nCopy bandwidth " << bw
                                  << " GB/s; dense peak " << peak_flops / 1e12 << " T(FL)OP/s (" << peak_source
                                  << "). Times are " << (opt_.sustain_ms > 0 ? "means over sustained segments" : "medians")
                                  << " in µs.\n\n" << md.str();
      std::cerr << "wrote " << base << ".json and .md\n";
    }
    return failures == 0 ? 0 : 1;
  }

 private:
  Options opt_;
  int device_ = 0;
  cudaDeviceProp prop_{};
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

void usage() {
  std::cout << "usage: graphgemm_bench [--shapes PATH] [--suites llm,square,splitk|ragged] [--dtypes bf16,int8]\n"
               "                       [--backends cublaslt,sm90,auto] [--out DIR] [--batches N] [--min-m M] [--max-m M]\n"
               "                       [--sustain-ms MS] [--sustain-rounds R]  (backends take turns of MS ms of\n"
               "                                           back-to-back replays, the second half timed, in R rounds\n"
               "                                           (default 4) forward then backward: each at its own clock\n"
               "                                           under the power cap; default: single replays in turn)\n"
               "                       [--shape MxNxK]   (one shape instead of the suites)\n"
               "                       [--no-peak]       (skip the 8192^3 peak run: memory-only floors, for profilers)\n"
               "                       [--epilogue plain|bias]  (bias: + a per-column bias of D's dtype, every backend)\n"
               "                       [--out-dtype same|fp32]  (fp32: D in fp32 for bf16 / fp16 inputs, every backend)\n"
               "                       [--b-layout nk|kn]  (B stored N x K, the PyTorch weight (default), or K x N)\n"
               "A backend is cublaslt, sm90, auto or sm90=<kernel>, optionally with a split-K mode and slice count:\n"
               "  sm90:parallel:8, sm90:serial:auto, sm90:none, auto:parallel:16, sm90:streamk\n"
               "and \"+pdl\" after the name for programmatic dependent launch: sm90+pdl, sm90=<kernel>+pdl:none,\n"
               "\"+rmG\" / \"+rnG\" for tiles taken in raster groups of G along M / N: sm90+rn16\n"
               "The backend sol (sol=loads[/CTAS_PER_SM], sol=bulk[/KB_PER_COPY], each optionally +pdl[+prefetch]) is the memory\n"
               "speed of light: a kernel that reads A and B once and writes D with no arithmetic, timed like the\n"
               "GEMMs (never checked); sol=math (bf16 / fp16) the tensor cores' speed of light: the shape's wgmma work\n"
               "dealt evenly over one CTA per SM on operands resident in shared memory, nothing moved (never checked).\n"
               "Writes DIR/gemm_<dtype>.json and DIR/gemm_<dtype>.md (gemm_<dtype>_bias.* with --epilogue bias,\n"
               "gemm_<dtype>[_bias]_bkn.* with --b-layout kn, ..._ofp32.* with --out-dtype fp32);\n"
               "bench/plot.py draws the PNG.\n";
}

}  // namespace
}  // namespace graphgemm::bench

int main(int argc, char** argv) {
  using namespace graphgemm::bench;
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) { std::cerr << a << " needs a value\n"; std::exit(2); }
      return argv[++i];
    };
    if (a == "--shapes") opt.shapes_path = next();
    else if (a == "--suites") opt.suites = split_list(next());
    else if (a == "--dtypes") opt.dtypes = split_list(next());
    else if (a == "--backends") opt.backends = split_list(next());
    else if (a == "--out") opt.out_dir = next();
    else if (a == "--batches") opt.batches = std::stoi(next());
    else if (a == "--sustain-rounds") {
      opt.sustain_rounds = std::stoi(next());
      if (opt.sustain_rounds < 1) { std::cerr << "--sustain-rounds takes a count >= 1\n"; return 2; }
    }
    else if (a == "--sustain-ms") {
      opt.sustain_ms = std::stod(next());
      if (!(opt.sustain_ms >= 0)) { std::cerr << "--sustain-ms takes milliseconds >= 0\n"; return 2; }
    }
    else if (a == "--max-m") opt.max_m = std::stoll(next());
    else if (a == "--min-m") opt.min_m = std::stoll(next());
    else if (a == "--shape") opt.shape = next();
    else if (a == "--no-peak") opt.no_peak = true;
    else if (a == "--epilogue") {
      opt.epilogue = next();
      if (opt.epilogue != "plain" && opt.epilogue != "bias") {
        std::cerr << "--epilogue takes plain or bias (got " << opt.epilogue << ")\n";
        return 2;
      }
    }
    else if (a == "--b-layout") {
      opt.b_layout = next();
      if (opt.b_layout != "nk" && opt.b_layout != "kn") {
        std::cerr << "--b-layout takes nk (B stored N x K, the default) or kn (K x N) (got " << opt.b_layout << ")\n";
        return 2;
      }
    }
    else if (a == "--out-dtype") {
      opt.out_dtype = next();
      if (opt.out_dtype != "same" && opt.out_dtype != "fp32") {
        std::cerr << "--out-dtype takes same (D of the input's dtype, the default) or fp32 (got " << opt.out_dtype << ")\n";
        return 2;
      }
    }
    else if (a == "-h" || a == "--help") { usage(); return 0; }
    else { std::cerr << "unknown argument " << a << "\n"; usage(); return 2; }
  }
  std::string why;
  if (!graphgemm::support::has_cuda_device(&why)) {
    std::cerr << "graphgemm_bench: no CUDA device (" << why << "); the benchmark needs an NVIDIA GPU\n";
    return 1;
  }
  try {
    return Bench(opt).run_all();
  } catch (const std::exception& e) {
    std::cerr << "graphgemm_bench: " << e.what() << "\n";
    return 1;
  }
}
