"""graphgemm.Chain from Python: eager runs against the layers run one by one, and chain nodes recorded
inside torch.cuda.graph captures and updated through torch's raw graph handles."""
import pytest

import graphgemm
from conftest import requires_gpu, skip_unless_hopper

pytestmark = requires_gpu
torch = pytest.importorskip("torch") if graphgemm.cuda_device_count() > 0 else None
hopper_only = skip_unless_hopper(torch, "skipped: GEMM chains run on Hopper (sm_90)")

MAX_M = 256


class Layers:
    """A 4-layer chain's operands (widths not all tile multiples), random, on the GPU: weights as
    PyTorch Linear weights (N x K), a float32 bias on layers 0 and 2, one of x's dtype on layer 3,
    per-row scales for layer 1, alpha 0.5 on layer 3."""

    def __init__(self, dtype, widths=(264, 512, 200, 384, 136), seed=0):
        g = torch.Generator(device="cuda").manual_seed(seed)
        self.dtype, self.widths = dtype, widths
        self.w = [torch.randn(n, k, device="cuda", dtype=dtype, generator=g) / k**0.5
                  for k, n in zip(widths[:-1], widths[1:])]
        self.biases = [torch.randn(widths[1], device="cuda", generator=g), None,
                       torch.randn(widths[3], device="cuda", generator=g),
                       torch.randn(widths[4], device="cuda", dtype=dtype, generator=g)]
        self.scale = torch.rand(MAX_M + 1, device="cuda", generator=g) + 0.5  # (M up to max_m + 1: the refused update)
        self.alpha = [1.0, 1.0, 1.0, 0.5]
        self.xs = [torch.randn(MAX_M, widths[0], device="cuda", dtype=dtype, generator=g) for _ in range(2)]

    def weights(self):
        return [w.t() for w in self.w]

    def scale_a(self, m):
        return [None, self.scale[:m], None, None]

    def layer_by_layer(self, x, kernel):
        """The layers one by one through Plan on the chain's tile (bit for bit the chain's result)."""
        m = x.shape[0]
        for w, b, s, a in zip(self.w, self.biases, self.scale_a(m), self.alpha):
            out = torch.empty(m, w.shape[0], device="cuda", dtype=self.dtype)
            plan = graphgemm.Plan(x, w.t(), out, bias=b, scale_a=s, alpha=a, backend="sm90", split_k_mode="none",
                                  sm90_kernel=kernel)
            plan.run(x, w.t(), out, bias=b, scale_a=s)
            x = out
        return x

    def reference(self, x):
        """float32 reference."""
        m = x.shape[0]
        x = x.float()
        for w, b, s, a in zip(self.w, self.biases, self.scale_a(m), self.alpha):
            x = a * (x @ w.float().t())
            if s is not None:
                x = x * s[:, None]
            if b is not None:
                x = x + b.float()
            x = x.to(self.dtype).float()  # each layer's output is stored in x's dtype
        return x


@hopper_only
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_chain_equals_its_layers_one_by_one_and_writes_nothing_past_m(dtype):
    L = Layers(getattr(torch, dtype))
    y = torch.empty(MAX_M, L.widths[-1], device="cuda", dtype=L.dtype)
    chain = graphgemm.Chain(L.xs[0], y, L.weights(), L.biases, L.scale_a(MAX_M), L.alpha, max_m=MAX_M)
    assert chain.layers == 4 and chain.max_m == MAX_M and chain.workspace_size > 0
    assert chain.config.startswith("sm90 chain: 4 layers"), chain.config
    for m in (1, 37, 128, MAX_M):
        x = L.xs[m % 2][:m]
        y.fill_(float("nan"))
        chain.run(x, y[:m], scale_a=L.scale_a(m))
        want = L.layer_by_layer(x, chain.kernel_for(m))
        torch.cuda.synchronize()
        assert torch.equal(y[:m], want), f"M = {m} ({chain.kernel_for(m)})"
        assert torch.isnan(y[m:]).all(), f"M = {m}: rows past M were written"
        ref = L.reference(x)
        err = ((y[:m].float() - ref).norm() / ref.norm()).item()
        assert err < 2e-2, f"M = {m}: relative error {err}"


@hopper_only
def test_chain_runs_on_an_explicit_stream_and_m_zero_enqueues_nothing():
    L = Layers(torch.bfloat16, seed=1)
    y = torch.empty(MAX_M, L.widths[-1], device="cuda", dtype=L.dtype)
    chain = graphgemm.Chain(L.xs[0], y, L.weights(), L.biases, L.scale_a(MAX_M), L.alpha)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    y.fill_(float("nan"))
    torch.cuda.synchronize()
    chain.run(L.xs[0][:0], y[:0], scale_a=L.scale_a(0), stream=s)
    s.synchronize()
    assert torch.isnan(y).all()
    chain.run(L.xs[1], y, stream=s)
    s.synchronize()
    assert torch.equal(y, L.layer_by_layer(L.xs[1], chain.kernel_for(MAX_M)))


@hopper_only
def test_chain_errors_raise_and_write_nothing():
    L = Layers(torch.bfloat16, seed=2)
    y = torch.empty(MAX_M, L.widths[-1], device="cuda", dtype=L.dtype)
    with pytest.raises(ValueError, match="multiple of 8"):
        graphgemm.Chain(L.xs[0][:, :260], y, [torch.empty(384, 260, device="cuda", dtype=L.dtype).t()])
    chain = graphgemm.Chain(L.xs[0], y, L.weights(), L.biases, L.scale_a(MAX_M), L.alpha, max_m=128)
    y.fill_(float("nan"))
    torch.cuda.synchronize()
    with pytest.raises(ValueError, match="max_m"):
        chain.run(L.xs[0][:129], y[:129], scale_a=L.scale_a(129))  # M > max_m
    with pytest.raises(ValueError, match="scale_a has 64 entries"):
        chain.run(L.xs[0][:65], y[:65], scale_a=L.scale_a(64))
    torch.cuda.synchronize()
    assert torch.isnan(y).all()


def recorded_chain(L, scaled=True):
    """L's chain (max_m MAX_M; layer 1's per-row scales where `scaled`) recorded into a torch graph (kept
    for updates) with a torch op after it, instantiated: (chain, y, graph, node, z = relu(y) in the graph)."""
    import graphgemm.graph as ggg

    y = torch.empty(MAX_M, L.widths[-1], device="cuda", dtype=L.dtype)
    chain = graphgemm.Chain(L.xs[0], y, L.weights(), L.biases, L.scale_a(MAX_M) if scaled else None, L.alpha,
                            max_m=MAX_M)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph(keep_graph=True)
    with torch.cuda.graph(g, stream=s):
        node = ggg.record_chain(chain, L.xs[0], y)
        z = torch.relu(y)  # a torch op after ours, in the same graph
    g.instantiate()
    return chain, y, g, node, z


@hopper_only
@pytest.mark.parametrize("uploaded", [False, True])
def test_chain_node_updated_inside_a_torch_graph(uploaded):
    import graphgemm.graph as ggg

    L = Layers(torch.bfloat16, seed=3)
    chain, y, g, node, z = recorded_chain(L)
    if uploaded:
        ggg.upload(g)
    eager_y = torch.empty_like(y)
    for step, m in enumerate([MAX_M, 1, 17, 130, 64, MAX_M]):
        x = L.xs[step % 2]
        alpha = [1.0, 1.0, 1.0, 0.25 * (step + 1)]
        ggg.update_chain(g, node, x=x[:m], y=y[:m], scale_a=L.scale_a(m), alpha=alpha)
        y.fill_(float("nan"))
        g.replay()
        chain.run(x[:m], eager_y[:m], scale_a=L.scale_a(m), alpha=alpha)
        torch.cuda.synchronize()
        assert torch.equal(y[:m], eager_y[:m]), f"step {step}, M = {m}"
        assert torch.isnan(y[m:]).all(), f"step {step}, M = {m}: rows past M were written"
        assert torch.equal(z[:m], torch.relu(eager_y[:m]))
    assert node.setup_updates == 0
    # New weights: the setup node is rewritten (on this update and every later one).
    new_w = [(1.5 * w).t() for w in L.w]
    ggg.update_chain(g, node, x=L.xs[0], y=y, scale_a=L.scale_a(MAX_M), weights=new_w)
    g.replay()
    chain.run(L.xs[0], eager_y, scale_a=L.scale_a(MAX_M), alpha=alpha, weights=new_w)
    torch.cuda.synchronize()
    assert torch.equal(y, eager_y)
    assert node.setup_updates == 1
    # A step after it keeps the new weights (the binding's cached views of the last update's).
    ggg.update_chain(g, node, x=L.xs[1][:5], y=y[:5], scale_a=L.scale_a(5))
    g.replay()
    chain.run(L.xs[1][:5], eager_y[:5], scale_a=L.scale_a(5), alpha=alpha, weights=new_w)
    torch.cuda.synchronize()
    assert torch.equal(y[:5], eager_y[:5])
    assert node.setup_updates == 2  # (every update after one with other weights rewrites the setup node)


@hopper_only
@pytest.mark.parametrize("fast_path", [True, False])
def test_chain_steps_without_scales_both_ways(fast_path, monkeypatch):
    """Steps with torch x and y and no scales go to C++ as pointers and M (graphgemm.graph's torch fast
    path); with it off, through DLPack: the same bits either way."""
    import graphgemm.graph as ggg

    L = Layers(torch.float16, seed=5)
    chain, y, g, node, _ = recorded_chain(L, scaled=False)
    eager_y = torch.empty_like(y)
    monkeypatch.setattr(ggg, "_TORCH_FAST_PATH", fast_path)
    for step, m in enumerate([3, MAX_M, 77, 1]):
        x = L.xs[step % 2]
        ggg.update_chain(g, node, x=x[:m], y=y[:m])
        y.fill_(float("nan"))
        g.replay()
        chain.run(x[:m], eager_y[:m])
        torch.cuda.synchronize()
        assert torch.equal(y[:m], eager_y[:m]), f"step {step}, M = {m}"
        assert torch.isnan(y[m:]).all(), f"step {step}, M = {m}: rows past M were written"
    with pytest.raises(ValueError):  # M > max_m, refused on either path
        ggg.update_chain(g, node, x=torch.empty(MAX_M + 1, L.widths[0], device="cuda", dtype=L.dtype),
                         y=torch.empty(MAX_M + 1, L.widths[-1], device="cuda", dtype=L.dtype))
    assert node.setup_updates == 0


@hopper_only
def test_refused_chain_update_leaves_the_graph_as_it_was():
    import graphgemm.graph as ggg

    L = Layers(torch.bfloat16, seed=4)
    chain, y, g, node, _ = recorded_chain(L)
    g.replay()
    torch.cuda.synchronize()
    before = y.clone()
    bigger = torch.randn(MAX_M + 1, L.widths[0], device="cuda", dtype=L.dtype)
    bigger_y = torch.empty(MAX_M + 1, L.widths[-1], device="cuda", dtype=L.dtype)
    with pytest.raises(ValueError):
        ggg.update_chain(g, node, x=bigger, y=bigger_y, scale_a=L.scale_a(MAX_M + 1))  # M > max_m
    with pytest.raises(ValueError):
        ggg.update_chain(g, node, weights=L.weights()[:3])  # another layer count
    y.zero_()
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(y, before)
    with pytest.raises(ValueError, match="capture"):
        ggg.record_chain(chain, L.xs[0], y, stream=torch.cuda.current_stream())  # no capture active
