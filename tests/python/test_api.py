"""Tests that need no GPU: import, stream resolution, and argument errors raised before any launch."""
import sys

import numpy as np
import pytest

import graphgemm


def test_import_does_not_need_torch():
    assert "graphgemm" in sys.modules
    assert graphgemm.__version__
    assert callable(graphgemm.Plan)


def test_resolve_stream_forms():
    class ProtocolStream:
        def __cuda_stream__(self):
            return (0, 1234)

    class TorchLike:
        cuda_stream = 77

    class CupyLike:
        ptr = 99

    assert graphgemm.resolve_stream(5) == 5
    assert graphgemm.resolve_stream(ProtocolStream()) == 1234
    assert graphgemm.resolve_stream(TorchLike()) == 77
    assert graphgemm.resolve_stream(CupyLike()) == 99
    assert graphgemm.resolve_stream(None, np.zeros(1)) == 0
    with pytest.raises(TypeError, match="stream must be"):
        graphgemm.resolve_stream("default")


def test_host_arrays_are_refused_with_a_clear_message():
    a = np.ones((4, 8), dtype=np.float16)
    b = np.ones((8, 4), dtype=np.float16)
    d = np.empty((4, 4), dtype=np.float16)
    with pytest.raises(ValueError, match="a is not in CUDA device memory"):
        graphgemm.Plan(a, b, d)


def test_unsupported_dtype_is_a_type_error():
    a = np.ones((4, 8), dtype=np.float64)
    with pytest.raises(TypeError, match="unsupported dtype"):
        graphgemm.Plan(a, a.T, np.empty((4, 4)))


def test_wrong_rank_is_a_value_error():
    v = np.ones(8, dtype=np.float16)
    with pytest.raises(ValueError, match="must be a 2-D array"):
        graphgemm.Plan(v, v, v)


def test_unknown_backend_is_a_value_error():
    a = np.ones((4, 8), dtype=np.float16)
    with pytest.raises(ValueError, match='backend must be "auto", "cublaslt" or "sm90"'):
        graphgemm.Plan(a, a.T, np.empty((4, 4), dtype=np.float16), backend="fast")


def test_unknown_split_k_mode_is_a_value_error():
    a = np.ones((4, 8), dtype=np.float16)
    with pytest.raises(ValueError, match="split_k_mode must be"):
        graphgemm.Plan(a, a.T, np.empty((4, 4), dtype=np.float16), split_k_mode="fastest")


def test_unknown_programmatic_launch_is_a_value_error():
    a = np.ones((4, 8), dtype=np.float16)
    with pytest.raises(ValueError, match='programmatic_launch must be "auto", "on" or "off"'):
        graphgemm.Plan(a, a.T, np.empty((4, 4), dtype=np.float16), programmatic_launch="sometimes")


def test_unknown_raster_order_is_a_value_error():
    a = np.ones((4, 8), dtype=np.float16)
    with pytest.raises(ValueError, match='raster_order must be "auto", "m" or "n"'):
        graphgemm.Plan(a, a.T, np.empty((4, 4), dtype=np.float16), raster_order="diagonal")


def test_graph_update_argument_errors():
    import graphgemm.graph as ggg

    with pytest.raises(TypeError, match="unknown operands"):
        ggg.update((0, 0), None, x=np.zeros(1))
    with pytest.raises(TypeError, match="keep_graph=True"):
        ggg._raw_handles(object())
    assert ggg._raw_handles((5, 7)) == (5, 7)


def test_chain_argument_errors():
    x = np.ones((4, 16), dtype=np.float16)
    w = [np.ones((16, 8), dtype=np.float16), np.ones((8, 16), dtype=np.float16)]
    y = np.empty((4, 16), dtype=np.float16)
    with pytest.raises(ValueError, match="biases has 1 entries but the chain has 2 layers"):
        graphgemm.Chain(x, y, w, biases=[None])
    with pytest.raises(ValueError, match="alpha has 3 entries but the chain has 2 layers"):
        graphgemm.Chain(x, y, w, alpha=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="x is not in CUDA device memory"):
        graphgemm.Chain(x, y, w, alpha=np.float32(0.5))  # one alpha for every layer
    with pytest.raises(ValueError, match="x must be a 2-D array"):
        graphgemm.Chain(np.ones(16, dtype=np.float16), y, w)


def test_chain_update_argument_errors():
    import graphgemm.graph as ggg

    with pytest.raises(TypeError, match="unknown operands.*update_chain takes x, y, weights"):
        ggg.update_chain((0, 0), None, a=np.zeros(1))


def test_chain_update_keeps_what_it_is_not_given():
    """update_chain's merge of new and last operands (the C++ node replaced by a recorder)."""
    import graphgemm.graph as ggg

    class Recorder:
        def __init__(self):
            self.calls = []

        def update(self, *args):
            self.calls.append(("update",) + args)

        def update_step(self, *args):
            self.calls.append(("update_step",) + args)

    class FakeCore:
        layers = 2

    chain = object.__new__(graphgemm.Chain)
    chain._chain = FakeCore()
    chain._layers = {"weights": ["w0", "w1"], "biases": [None, "b1"], "scale_a": [None, None], "alpha": [1.0, 1.0]}
    rec = Recorder()
    node = ggg.ChainNode(rec, chain, dict(x="x0", y="y0", **chain._operands(None, None, None, None)))
    ggg.update_chain((11, 22), node, x="x1", alpha=0.5)
    ggg.update_chain((11, 22), node, y="y2", scale_a=[None, "s1"], weights=["v0", "v1"])
    ggg.update_chain((11, 22), node, y="y3")
    assert rec.calls == [
        ("update_step", 11, 22, "x1", "y0", [None, None], [0.5, 0.5]),  # weights and biases kept: a step
        ("update", 11, 22, "x1", "y2", ["v0", "v1"], [None, "b1"], [None, "s1"], [0.5, 0.5]),
        ("update_step", 11, 22, "x1", "y3", [None, "s1"], [0.5, 0.5]),
    ]
    with pytest.raises(ValueError, match="weights has 1 entries but the chain has 2 layers"):
        ggg.update_chain((11, 22), node, weights=["w"])
    assert len(rec.calls) == 3 and node._operands["weights"] == ["v0", "v1"]


def test_chain_argument_errors_name_the_layer():
    """Per-layer operands reach C++ as lists (arrays, None entries, floats); errors say which layer."""
    from fake_dlpack import FakeCudaArray as F

    x, y = F((4, 16)), F((4, 16))
    w = [F((8, 16)).t(), F((16, 8)).t()]  # Linear weights N x K, passed transposed
    with pytest.raises(ValueError, match="layer 1: the weight must be a 2-D array"):
        graphgemm.Chain(x, y, [w[0], F((8,))])
    with pytest.raises(ValueError, match=r"layer 0: the weight has strides \(2, 32\)"):
        graphgemm.Chain(x, y, [F((16, 8), strides=(2, 32)), w[1]])
    with pytest.raises(ValueError, match="layer 1: scale_a must be a 1-D array"):
        graphgemm.Chain(x, y, w, scale_a=[None, F((4, 1), dtype="float32")])
    with pytest.raises(ValueError, match="layer 0: the bias must be contiguous"):
        graphgemm.Chain(x, y, w, biases=[F((8,), dtype="float32", strides=(2,)), None])


@pytest.mark.skipif(graphgemm.cuda_device_count() > 0, reason="skipped: a CUDA device is present (this checks the message without one)")
def test_without_a_device_plans_and_chains_say_so():
    from fake_dlpack import FakeCudaArray as F

    with pytest.raises(RuntimeError, match="no CUDA device is usable here: graphgemm chains need"):
        graphgemm.Chain(F((4, 16)), F((4, 16)), [F((8, 16)).t(), F((16, 8)).t()], [F((8,), "float32"), None],
                        [None, F((4,), "float32")], [1.0, 0.5])
    with pytest.raises(RuntimeError, match="no CUDA device is usable here: graphgemm plans need"):
        graphgemm.Plan(F((4, 16)), F((8, 16)).t(), F((4, 8)))


class T:
    """What graphgemm.graph's torch fast paths read of a torch tensor."""

    def __init__(self, shape, strides, dtype="bf16", device=0, ptr=0x1000):
        self.shape, self._strides, self.dtype, self._device, self._ptr = shape, strides, dtype, device, ptr

    def stride(self):
        return self._strides

    def get_device(self):
        return self._device

    def dim(self):
        return len(self.shape)

    def data_ptr(self):
        return self._ptr


def test_gemm_node_update_fast_path_takes_only_what_matches_the_recording():
    """graphgemm.graph's torch fast path (pointers and M instead of DLPack) on tensor-like objects:
    it takes operands shaped as recorded but for M, and leaves everything else to DLPack."""
    import graphgemm.graph as ggg

    def ops(m, **kw):
        o = dict(a=T((m, 64), (64, 1), ptr=0xa0), b=T((64, 32), (1, 64), ptr=0xb0), d=T((m, 32), (32, 1), ptr=0xd0),
                 c=None, bias=T((32,), (1,), "f32", ptr=0xe0), scale_a=T((m,), (1,), "f32", ptr=0x5a), scale_b=None)
        o.update(kw)
        return o

    sig = ggg._signature_of(ops(256))
    assert ggg._torch_update_args(sig, T, ops(17)) == (17, [0xa0, 0xb0, 0xd0, 0, 0xe0, 0x5a, 0], 17)
    assert ggg._torch_update_args(sig, T, ops(1, scale_a=T((1,), (1,), "f32", ptr=0x5b))) == \
        (1, [0xa0, 0xb0, 0xd0, 0, 0xe0, 0x5b, 0], 1)
    refused = {
        "a and d with two M": ops(17, d=T((16, 32), (32, 1))),
        "another K": ops(17, a=T((17, 72), (72, 1))),
        "other strides": ops(17, a=T((17, 64), (128, 1))),
        "another dtype": ops(17, bias=T((32,), (1,), "bf16")),
        "another device": ops(17, b=T((64, 32), (1, 64), device=1)),
        "a C not recorded": ops(17, c=T((17, 32), (32, 1))),
        "not a tensor": ops(17, b=object()),
    }
    for why, o in refused.items():
        assert ggg._torch_update_args(sig, T, o) is None, why


def test_chain_step_fast_path_takes_only_matching_x_and_y_without_scales():
    import graphgemm.graph as ggg

    class Node:
        _torch_xy = ({"x": ("bf16", (64, 1), 0, 2, (64,)), "y": ("bf16", (32, 1), 0, 2, (32,))}, T)

    def merged(m, **kw):
        o = dict(x=T((m, 64), (64, 1)), y=T((m, 32), (32, 1)), scale_a=[None, None])
        o.update(kw)
        return o

    assert ggg._torch_step_args(Node, merged(17, x=T((17, 64), (64, 1), ptr=0xa0))) == (17, [0xa0, 0x1000], 0)
    assert ggg._torch_step_args(Node, merged(17, scale_a=[None, T((17,), (1,), "f32")])) is None  # scales: DLPack
    assert ggg._torch_step_args(Node, merged(17, y=T((16, 32), (32, 1)))) is None  # two M
    assert ggg._torch_step_args(Node, merged(17, x=T((17, 64), (128, 1)))) is None  # other strides
    assert ggg._torch_step_args(Node, merged(17, y=T((17, 32), (32, 1), "f16"))) is None  # another dtype


def test_the_binding_has_every_method_the_python_layer_calls():
    """graphgemm/__init__.py and graph.py call these on the C++ objects (a missing one would only show
    on a GPU, where they run)."""
    from graphgemm import _C

    wanted = {_C.Plan: ["run", "run_pointers"], _C.GemmNode: ["update", "update_pointers"],
              _C.Chain: ["run", "run_step", "kernel_for"], _C.ChainNode: ["update", "update_step", "update_step_pointers"]}
    missing = [f"{cls.__name__}.{name}" for cls, names in wanted.items() for name in names if not hasattr(cls, name)]
    assert not missing, missing
