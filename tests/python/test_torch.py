"""torch.ops.graphgemm.*: correctness, opcheck, torch.compile, torch.cuda.graph, errors."""
import pytest

import graphgemm
from conftest import requires_gpu

pytestmark = requires_gpu
torch = pytest.importorskip("torch") if graphgemm.cuda_device_count() > 0 else None
ggt = pytest.importorskip("graphgemm.torch") if torch is not None else None


def rel_err(out, ref):
    return ((out.double() - ref.double()).norm() / ref.double().norm()).item()


def test_linear_any_rank_with_bias():
    x = torch.randn(2, 8, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(1024, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(1024, device="cuda", dtype=torch.bfloat16)
    y = ggt.linear(x, w, b)
    assert y.shape == (2, 8, 1024) and y.dtype == torch.bfloat16
    assert rel_err(y, x.double() @ w.double().t() + b.double()) < 8e-3


def test_gemm_out_variant_writes_in_place():
    a = torch.randn(96, 256, device="cuda", dtype=torch.float16)
    b = torch.randn(256, 128, device="cuda", dtype=torch.float16)
    c = torch.randn(96, 128, device="cuda", dtype=torch.float32)
    out = torch.empty(96, 128, device="cuda", dtype=torch.float32)
    r = ggt.gemm(a, b, c=c, alpha=2.0, beta=0.5, out=out)
    assert r.data_ptr() == out.data_ptr()
    assert rel_err(out, 2.0 * (a.double() @ b.double()) + 0.5 * c.double()) < 1e-4


def test_scaled_mm_int8_per_token_per_channel():
    m, n, k = 64, 512, 1024
    xq = torch.randint(-100, 100, (m, k), device="cuda", dtype=torch.int8)
    wq = torch.randint(-100, 100, (n, k), device="cuda", dtype=torch.int8)
    sx = torch.rand(m, device="cuda") * 0.01
    sw = torch.rand(n, device="cuda") * 0.01
    bias = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    y = ggt.scaled_mm(xq, wq, sx, sw, bias, out_dtype=torch.bfloat16)
    ref = (xq.double() @ wq.double().t()) * sx.double()[:, None] * sw.double()[None, :] + bias.double()
    assert y.dtype == torch.bfloat16 and rel_err(y, ref) < 8e-3


def test_opcheck():
    a = torch.randn(32, 64, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(128, 64, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(128, device="cuda", dtype=torch.bfloat16)
    torch.library.opcheck(torch.ops.graphgemm.gemm.default, (a, w.t()), {"bias": bias})
    torch.library.opcheck(torch.ops.graphgemm.linear.default, (a, w, bias))
    out = torch.empty(32, 128, device="cuda", dtype=torch.bfloat16)
    torch.library.opcheck(torch.ops.graphgemm.gemm.out, (a, w.t()), {"out": out})
    xq = torch.randint(-8, 8, (32, 64), device="cuda", dtype=torch.int8)
    wq = torch.randint(-8, 8, (128, 64), device="cuda", dtype=torch.int8)
    torch.library.opcheck(torch.ops.graphgemm.scaled_mm.default,
                          (xq, wq, torch.rand(32, device="cuda"), torch.rand(128, device="cuda")))


def test_torch_compile_fullgraph():
    w1 = torch.randn(512, 256, device="cuda", dtype=torch.bfloat16)
    w2 = torch.randn(128, 512, device="cuda", dtype=torch.bfloat16)

    def mlp(x):
        return ggt.linear(torch.relu(ggt.linear(x, w1)), w2)

    compiled = torch.compile(mlp, fullgraph=True)
    x = torch.randn(16, 256, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(compiled(x), mlp(x))


def test_torch_cuda_graph_co_capture():
    w = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    x = torch.randn(32, 1024, device="cuda", dtype=torch.bfloat16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm up: plan cache and workspace before capture
        for _ in range(2):
            ggt.linear(x, w)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = ggt.linear(torch.nn.functional.gelu(x), w) * 2.0
    for _ in range(3):
        x.copy_(torch.randn_like(x))
        g.replay()
        torch.cuda.synchronize()
        ref = (torch.nn.functional.gelu(x).double() @ w.double().t()) * 2.0
        assert rel_err(y, ref) < 1e-2


def test_errors_are_value_and_type_errors():
    x = torch.randn(16, 64, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="features but w expects"):
        ggt.linear(x, torch.randn(32, 48, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(TypeError, match="dtype"):
        ggt.linear(x.double(), torch.randn(32, 64, device="cuda", dtype=torch.float64))
    with pytest.raises(TypeError, match="int8 or float8_e4m3fn"):
        ggt.scaled_mm(x, x, torch.ones(16, device="cuda"), torch.ones(16, device="cuda"))
