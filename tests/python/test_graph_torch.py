"""GEMM nodes recorded inside torch.cuda.graph captures and updated through torch's raw graph handles."""
import pytest

import graphgemm
from conftest import requires_gpu, skip_unless_hopper

pytestmark = requires_gpu
torch = pytest.importorskip("torch") if graphgemm.cuda_device_count() > 0 else None
hopper_only = skip_unless_hopper(torch, "skipped: GEMM nodes update on the sm90 kernels (Hopper)")


@hopper_only
@pytest.mark.parametrize("grid", ["max_m", "follows_m"])
@pytest.mark.parametrize("uploaded", [False, True])
@pytest.mark.parametrize("fast_path", [True, False])  # torch tensors as pointers and M, or through DLPack
def test_update_m_and_input_inside_a_torch_graph(grid, uploaded, fast_path, monkeypatch):
    import graphgemm.graph as ggg

    monkeypatch.setattr(ggg, "_TORCH_FAST_PATH", fast_path)

    max_m, k, n = 256, 512, 768
    xs = [torch.randn(max_m, k, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(max_m, n, device="cuda", dtype=torch.bfloat16)
    plan = graphgemm.Plan(xs[0], w.t(), y, backend="sm90", split_k_mode="none")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph(keep_graph=True)
    with torch.cuda.graph(g, stream=s):
        node = ggg.record(plan, xs[0], w.t(), y, max_m=max_m, grid=grid)
        z = torch.relu(y)  # a torch op after ours, in the same graph
    assert node.updatable, node.why_fixed
    g.instantiate()
    if uploaded:
        y.fill_(float("nan"))
        ggg.upload(g)
        torch.cuda.synchronize()
        assert torch.isnan(y).all(), "an upload must not run the graph"
    ref_y = torch.empty_like(y)
    for step, m in enumerate([max_m, 1, 17, 130, max_m]):
        x = xs[step % 3]
        ggg.update(g, node, a=x[:m], d=y[:m])
        y.fill_(float("nan"))
        g.replay()
        # Eager, with the same kernel: bitwise equal.
        eager = graphgemm.Plan(x[:m], w.t(), ref_y[:m], backend="sm90", split_k_mode="none",
                               sm90_kernel=plan.config.split(" ")[1].rstrip(","))
        eager.run(x[:m], w.t(), ref_y[:m])
        torch.cuda.synchronize()
        assert torch.equal(y[:m], ref_y[:m]), f"step {step}, M = {m}"
        assert torch.equal(z[:m], torch.relu(ref_y[:m]))


@hopper_only
def test_refused_update_leaves_the_graph_as_it_was():
    import graphgemm.graph as ggg

    x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(64, 128, device="cuda", dtype=torch.bfloat16)
    plan = graphgemm.Plan(x, w.t(), y, backend="sm90", split_k_mode="none")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph(keep_graph=True)
    with torch.cuda.graph(g, stream=s):
        node = ggg.record(plan, x, w.t(), y, max_m=64)
    g.instantiate()
    g.replay()
    torch.cuda.synchronize()
    before = y.clone()
    bigger = torch.randn(65, 256, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="grid must be"):  # checked before anything else: no capture needed
        ggg.record(plan, x, w.t(), y, max_m=64, grid="tight", stream=s)
    with pytest.raises(ValueError):
        ggg.update(g, node, a=bigger, d=torch.empty(65, 128, device="cuda", dtype=torch.bfloat16))  # M > max_m
    y.zero_()
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(y, before)


@pytest.mark.skipif(torch is None, reason="skipped: no CUDA device")
def test_upload_refuses_a_null_graph():
    import graphgemm.graph as ggg

    with pytest.raises(ValueError, match="instantiate it first"):
        ggg.upload((0, 0), stream=0)
    with pytest.raises(TypeError, match="torch.cuda.CUDAGraph"):
        ggg.upload(object())
