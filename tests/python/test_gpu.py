"""GPU tests: torch and CuPy arrays through DLPack, streams, CUDA-graph capture, errors."""
import pytest

import graphgemm
from conftest import requires_gpu

torch = pytest.importorskip("torch") if graphgemm.cuda_device_count() > 0 else None
pytestmark = requires_gpu


def rel_err(out, ref):
    return ((out.double() - ref.double()).norm() / ref.double().norm()).item()


@pytest.mark.parametrize("m,n,k", [(1, 256, 64), (16, 4096, 4096), (127, 264, 72), (512, 768, 1024)])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_linear_matches_reference(m, n, k, dtype):
    dt = getattr(torch, dtype)
    x = torch.randn(m, k, device="cuda", dtype=dt)
    w = torch.randn(n, k, device="cuda", dtype=dt)
    bias = torch.randn(n, device="cuda", dtype=dt)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
    plan = graphgemm.Plan(x, w.t(), y, bias=bias)
    plan.run(x, w.t(), y, bias=bias)
    torch.cuda.synchronize()
    ref = x.double() @ w.double().t() + bias.double()
    assert not torch.isnan(y).any()
    assert rel_err(y, ref) < 8e-3, plan.config


def test_epilogue_alpha_beta_scales():
    m, n, k = 200, 136, 512
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    c = torch.randn(m, n, device="cuda", dtype=torch.float32)
    sa = torch.rand(m, device="cuda") + 0.5
    sb = torch.rand(n, device="cuda") + 0.5
    y = torch.empty(m, n, device="cuda", dtype=torch.float32)
    graphgemm.gemm(x, w.t(), y, c, scale_a=sa, scale_b=sb, alpha=0.5, beta=-2.0, backend="sm90")
    ref = 0.5 * (x.double() @ w.double().t()) * sa.double()[:, None] * sb.double()[None, :] - 2.0 * c.double()
    assert rel_err(y, ref) < 1e-4


def test_explicit_stream_and_torch_current_stream():
    x = torch.randn(64, 128, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(256, 128, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(64, 256, device="cuda", dtype=torch.bfloat16)
    plan = graphgemm.Plan(x, w.t(), y)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y.zero_()
        plan.run(x, w.t(), y)  # torch's current stream: s
    plan.run(x, w.t(), y, stream=s)  # explicit stream object
    s.synchronize()
    assert rel_err(y, x.double() @ w.double().t()) < 8e-3


def test_captured_in_torch_cuda_graph_and_mixed_with_torch_ops():
    x = torch.randn(32, 512, device="cuda", dtype=torch.bfloat16)
    w1 = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)
    w2 = torch.randn(256, 1024, device="cuda", dtype=torch.bfloat16)
    h = torch.empty(32, 1024, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(32, 256, device="cuda", dtype=torch.bfloat16)
    p1 = graphgemm.Plan(x, w1.t(), h)
    p2 = graphgemm.Plan(h, w2.t(), y)
    for _ in range(2):  # warm up on a side stream, as torch recommends before capture
        p1.run(x, w1.t(), h)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        p1.run(x, w1.t(), h)
        torch.relu_(h)  # a torch op between ours, in the same graph
        p2.run(h, w2.t(), y)
    for _ in range(3):
        x.copy_(torch.randn_like(x))
        y.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        ref = torch.relu((x.float() @ w1.float().t()).bfloat16().float()) @ w2.float().t()
        assert rel_err(y, ref) < 2e-2


def test_cupy_arrays_and_cupy_stream():
    cupy = pytest.importorskip("cupy")
    a = cupy.random.standard_normal((96, 256), dtype=cupy.float32).astype(cupy.float16)
    b = cupy.random.standard_normal((256, 128), dtype=cupy.float32).astype(cupy.float16)
    d = cupy.empty((96, 128), dtype=cupy.float32)
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        graphgemm.gemm(a, b, d)  # CuPy's current stream
    s.synchronize()
    ref = a.astype(cupy.float64) @ b.astype(cupy.float64)
    assert float(cupy.linalg.norm(d - ref) / cupy.linalg.norm(ref)) < 1e-4


def test_errors_raise_and_write_nothing():
    x = torch.randn(64, 128, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(256, 128, device="cuda", dtype=torch.bfloat16)
    y = torch.full((64, 256), 7.0, device="cuda", dtype=torch.bfloat16)
    plan = graphgemm.Plan(x, w.t(), y)
    with pytest.raises(ValueError, match="differ from the problem the plan was built for"):
        plan.run(x[:32], w.t(), y[:32])
    storage = torch.empty(64 * 128 + 1, device="cuda", dtype=torch.bfloat16)
    shifted = storage[1:].view(64, 128)  # 2-byte offset: not 16-byte aligned
    with pytest.raises(ValueError, match="16-byte aligned"):
        plan.run(shifted, w.t(), y)
    with pytest.raises(TypeError, match="A and B must have the same dtype"):
        graphgemm.Plan(x, w.t().half(), y)
    torch.cuda.synchronize()
    assert (y == 7.0).all(), "a rejected call wrote into the output"


@pytest.mark.parametrize("mode,slices,cluster", [("serial", 4, 0), ("parallel", 8, 1), ("parallel", 8, 8), ("parallel", 16, 4),
                                                 ("auto", 0, 0), ("none", 1, 0), ("stream_k", 0, 0)])
def test_split_k_from_python(mode, slices, cluster):
    a = torch.randn(128, 8192, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(128, 8192, device="cuda", dtype=torch.bfloat16)
    y = torch.full((128, 128), float("nan"), device="cuda", dtype=torch.bfloat16)
    plan = graphgemm.Plan(a, w.t(), y, backend="sm90", split_k_mode=mode, split_k_slices=slices,
                          split_k_cluster=cluster)
    plan.run(a, w.t(), y)
    torch.cuda.synchronize()
    if mode in ("serial", "parallel"):
        assert f"{mode} x{slices}" in plan.config, plan.config
    if cluster > 1:
        assert f"summed in clusters of {cluster}" in plan.config, plan.config
    if cluster == 1:
        assert "summed in clusters" not in plan.config, plan.config
    if mode == "stream_k":
        assert "split-K stream_k" in plan.config, plan.config
    assert rel_err(y, a.double() @ w.double().t()) < 8e-3


@pytest.mark.parametrize("order,group", [("m", 1), ("n", 3), ("n", 64)])
def test_raster_order_changes_nothing_but_the_order(order, group):
    # Ragged in M and N, and more tiles than SMs for every tile the heuristic may pick.
    x = torch.randn(2100, 256, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(2000, 256, device="cuda", dtype=torch.bfloat16)
    ref = torch.full((2100, 2000), float("nan"), device="cuda", dtype=torch.bfloat16)
    y = ref.clone()
    graphgemm.Plan(x, w.t(), ref, backend="sm90").run(x, w.t(), ref)
    plan = graphgemm.Plan(x, w.t(), y, backend="sm90", raster_order=order, raster_group=group)
    plan.run(x, w.t(), y)
    torch.cuda.synchronize()
    assert f"tiles in groups of {group} along {order.upper()}" in plan.config, plan.config
    assert torch.equal(y, ref), plan.config


class ForeignArray:
    """A DLPack producer that is not a torch tensor, as a JAX, Warp or any other framework's array
    is: only ``__dlpack__`` and ``__dlpack_device__``, so graphgemm takes the generic DLPack path."""

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, *args, **kwargs):
        return self._tensor.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()


def test_any_dlpack_producer_with_explicit_stream():
    x = torch.randn(40, 264, device="cuda", dtype=torch.float16)
    w = torch.randn(136, 264, device="cuda", dtype=torch.float16)
    y = torch.full((40, 136), float("nan"), device="cuda", dtype=torch.float32)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())  # x, w, y are ready on s
    plan = graphgemm.Plan(ForeignArray(x), ForeignArray(w.t()), ForeignArray(y))
    plan.run(ForeignArray(x), ForeignArray(w.t()), ForeignArray(y), stream=s.cuda_stream)
    s.synchronize()
    assert rel_err(y, x.double() @ w.double().t()) < 1e-4


def test_programmatic_launch_chain_matches_serial():
    # Each GEMM reads the previous one's output (as A); with programmatic_launch the next kernel
    # may start early and must still wait for it. Same bits as serial launches, and no poison read.
    m, h, layers = 64, 1024, 4
    x = torch.randn(m, h, device="cuda", dtype=torch.bfloat16)
    ws = [torch.randn(h, h, device="cuda", dtype=torch.bfloat16) / 32 for _ in range(layers)]
    outs = {}
    for pdl in (False, True):
        acts = [torch.full((m, h), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(layers)]
        plan = graphgemm.Plan(x, ws[0].t(), acts[0], backend="sm90", split_k_mode="none", programmatic_launch=pdl)
        assert ("programmatic launch" in plan.config) == pdl, plan.config
        for i in range(layers):
            plan.run(acts[i - 1] if i else x, ws[i].t(), acts[i])
        torch.cuda.synchronize()
        outs[pdl] = acts[-1].clone()
    assert not torch.isnan(outs[False]).any()
    assert torch.equal(outs[True], outs[False])
