"""GEMMs as updatable nodes of CUDA graphs, including graphs captured by PyTorch.

Record a planned GEMM inside any active stream capture (``torch.cuda.graph`` included); after the
graph is instantiated, give the GEMM new operands, scalars and a new M (up to ``max_m``) without
capturing again.

Example
-------
>>> import torch, graphgemm, graphgemm.graph as ggg
>>> x = torch.randn(256, 4096, device="cuda", dtype=torch.bfloat16)      # room for M up to 256
>>> w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
>>> y = torch.empty(256, 4096, device="cuda", dtype=torch.bfloat16)
>>> plan = graphgemm.Plan(x, w.t(), y, backend="sm90", split_k_mode="none")
>>> g = torch.cuda.CUDAGraph(keep_graph=True)
>>> with torch.cuda.graph(g):
...     node = ggg.record(plan, x, w.t(), y, max_m=256)
...     z = torch.relu(y)
>>> g.instantiate()
>>> ggg.upload(g)                                # once, before the first replay (see upload)
>>> ggg.update(g, node, a=x[:17], d=y[:17])      # this step: M = 17, same buffers
>>> g.replay()
"""

from __future__ import annotations

from typing import Any, Optional

from . import _C, Chain, Plan, _framework, resolve_stream

__all__ = ["GemmNode", "ChainNode", "record", "update", "record_chain", "update_chain", "upload"]

_OPERANDS = ("a", "b", "d", "c", "bias", "scale_a", "scale_b")
_M_ROWS = ("a", "d", "c", "x", "y")  # operands with M rows (GEMM nodes' and chains'); scale_a: M entries or 1

# Updates of torch tensors that match the recording but for M go to C++ as pointers (GEMM nodes and
# chain steps without scales: _torch_update_args); False sends every update through DLPack (for
# comparing the two).
_TORCH_FAST_PATH = True


def _torch_node_signature(operands: dict, keys: tuple = _OPERANDS):
    """(the signature of operands[keys] (_signature_of), torch.Tensor), or None if any of them is not
    a torch tensor."""
    if any(operands[k] is not None and _framework(operands[k]) != "torch" for k in keys):
        return None
    import torch  # (imported already: the operands are torch tensors)

    return _signature_of(operands, keys), torch.Tensor


def _signature_of(operands: dict, keys: tuple = _OPERANDS) -> dict:
    """Per operand of `keys` (None kept): dtype, strides, device, rank and shape with M left out (the
    _M_ROWS operands: their columns; scale_a: nothing)."""
    sig = {}
    for k in keys:
        t = operands[k]
        if t is None:
            sig[k] = None
            continue
        shape = tuple(t.shape)
        shape = shape[1:] if k in _M_ROWS else () if k == "scale_a" else shape
        sig[k] = (t.dtype, t.stride(), t.get_device(), t.dim(), shape)
    return sig


def _torch_update_args(signature, tensor_type, operands: dict):
    """(m, pointers in the signature's order, scale_a's entries) if every operand the signature names
    is a `tensor_type` matching it (_signature_of) with one M for the _M_ROWS ones; else None."""
    ptrs, m, scale_a_size = [], None, 0
    for k, want in signature.items():
        t = operands[k]
        if want is None:
            if t is not None:
                return None
            ptrs.append(0)
            continue
        if not isinstance(t, tensor_type) or t.dtype != want[0] or t.stride() != want[1] or t.get_device() != want[2] \
                or t.dim() != want[3]:
            return None
        shape = tuple(t.shape)
        if k in _M_ROWS:
            if shape[1:] != want[4] or (m is not None and shape[0] != m):
                return None
            m = shape[0]
        elif k == "scale_a":
            scale_a_size = shape[0]
        elif shape != want[4]:
            return None
        ptrs.append(t.data_ptr())
    return m, ptrs, scale_a_size


class GemmNode:
    """A recorded GEMM: the handle :func:`update` takes. Keeps the operands it was last given."""

    def __init__(self, node, operands: dict, alpha: float, beta: float):
        self._node = node
        self._operands = operands
        self.alpha = alpha
        self.beta = beta
        # NOTES: a DLPack import costs a few µs an array (Plan keeps the same fast path for runs);
        # torch tensors shaped as recorded but for M go to C++ as pointers.
        self._torch = _torch_node_signature(operands)

    @property
    def updatable(self) -> bool:
        """False when the plan's GEMM is not one updatable kernel (cuBLASLt, split-K): it was recorded
        by plain capture, and :func:`update` raises; ``why_fixed`` says why."""
        return self._node.updatable

    @property
    def why_fixed(self) -> str:
        return self._node.why_fixed

    @property
    def max_m(self) -> int:
        return self._node.max_m


def record(plan: Plan, a, b, d, c=None, bias=None, scale_a=None, scale_b=None, *, alpha: Optional[float] = None,
           beta: Optional[float] = None, max_m: int = 0, grid: str = "max_m", stream: Any = None) -> GemmNode:
    """Record ``plan``'s GEMM into the graph being captured on ``stream``.

    Parameters
    ----------
    plan : Plan
        Built for the largest problem (M = ``max_m``); ``backend="sm90"`` and ``split_k_mode="none"``
        give an updatable node.
    a, b, d, c, bias, scale_a, scale_b : arrays
        The operands of this recording, as for :meth:`Plan.run`.
    max_m : int
        The largest M later updates may set (default: this recording's M).
    grid : str
        ``"max_m"`` (default): the node's grid stays the one of ``max_m`` (CTAs without a tile at a
        smaller M exit at once), so an update changes kernel parameters only; ``"follows_m"``: every
        update also sets the grid for the new M, which makes the update and the next graph launch
        dearer for the host (see ``graphgemm::graph::NodeGrid``).
    stream : optional
        The capturing stream (default: the arrays' framework's current stream, which is the
        capture stream inside ``torch.cuda.graph``).

    Raises
    ------
    ValueError
        No capture is active on the stream, or the operands do not fit the plan.
    """
    alpha = plan.alpha if alpha is None else alpha
    beta = plan.beta if beta is None else beta
    node = _C.GemmNode(plan._plan, a, b, d, c, bias, scale_a, scale_b, alpha, beta, max_m, grid,
                       resolve_stream(stream, a, d))
    return GemmNode(node, dict(zip(_OPERANDS, (a, b, d, c, bias, scale_a, scale_b))), alpha, beta)


def _check_names(operands: dict, known: tuple, function: str) -> None:
    unknown = set(operands) - set(known)
    if unknown:
        raise TypeError(f"unknown operands {sorted(unknown)}; {function} takes {', '.join(known)}")


def _raw_handles(graph: Any) -> tuple:
    if isinstance(graph, tuple) and len(graph) == 2:
        return int(graph[0]), int(graph[1])
    if hasattr(graph, "raw_cuda_graph_exec") and hasattr(graph, "raw_cuda_graph"):
        return int(graph.raw_cuda_graph_exec()), int(graph.raw_cuda_graph())
    raise TypeError(
        "graph must be a torch.cuda.CUDAGraph captured with keep_graph=True (and instantiated), or a tuple "
        f"(cudaGraphExec_t, cudaGraph_t) of ints; got {type(graph).__name__}"
    )


def upload(graph: Any, stream: Any = None) -> None:
    """Upload an instantiated graph's work to the GPU (``cudaGraphUpload``), in stream order.

    Call it once, after ``instantiate()`` and before the first replay, for a graph whose nodes
    :func:`update` will change. Measured on H100: in graphgemm's C++ graph bench (8 one-thread
    kernels a replay), executable graphs first launched without an upload replayed 4-7% slower once
    a node had been updated, the same graphs uploaded first as fast updated as not (graphgemm's C++
    ``GraphExec`` uploads for you); in torch graphs of 12 GEMM nodes, one updated before each
    replay, no difference was measured (updated / plain 1.02-1.04x either way,
    ``tools/diag/torch_upload_probe.py``). PyTorch does not upload the graphs it instantiates.

    Parameters
    ----------
    graph : torch.cuda.CUDAGraph or (exec, graph) ints
        As for :func:`update`.
    stream : None, int or a stream object
        Where to upload. ``None``: torch's current stream for a ``torch.cuda.CUDAGraph``, else the
        legacy default stream. Nothing is uploaded while ``stream`` is capturing (the graph is then
        uploaded at its first replay, as without this call).
    """
    exec_handle, _ = _raw_handles(graph)
    if stream is None and not isinstance(graph, tuple):
        import torch

        stream = torch.cuda.current_stream()
    _C.graph_upload(exec_handle, resolve_stream(stream))


def update(graph: Any, node: GemmNode, *, alpha: Optional[float] = None, beta: Optional[float] = None,
           **operands) -> None:
    """Give the recorded GEMM new operands / scalars / M in the instantiated graph, without recapture.

    Parameters
    ----------
    graph : torch.cuda.CUDAGraph or (exec, graph) ints
        The executable graph the node's capture was instantiated into. For torch, capture with
        ``keep_graph=True`` and call ``instantiate()`` (or replay once) first.
    node : GemmNode
        From :func:`record`.
    alpha, beta : float, optional
    **operands
        Any of ``a, b, d, c, bias, scale_a, scale_b``; the others keep their last values. A new M is
        given by ``a`` and ``d`` with M rows (M ≤ ``node.max_m``).

    Raises
    ------
    ValueError
        The arguments do not fit the recorded GEMM, or the handle is stale or of another graph; the
        graph is left as it was.
    TypeError
        Unknown operand names.
    """
    _check_names(operands, _OPERANDS, "update")
    merged = dict(node._operands, **operands)
    exec_handle, graph_handle = _raw_handles(graph)
    a_ = node.alpha if alpha is None else alpha
    b_ = node.beta if beta is None else beta
    fast = _torch_update_args(*node._torch, merged) if _TORCH_FAST_PATH and node._torch is not None else None
    if fast is not None:
        m, ptrs, scale_a_size = fast
        node._node.update_pointers(exec_handle, graph_handle, m, *ptrs[:6], scale_a_size, ptrs[6], a_, b_)
    else:
        node._node.update(exec_handle, graph_handle, *(merged[k] for k in _OPERANDS), a_, b_)
    node._operands, node.alpha, node.beta = merged, a_, b_


_CHAIN_OPERANDS = ("x", "y", "weights", "biases", "scale_a", "alpha")


class ChainNode:
    """A recorded :class:`graphgemm.Chain`: the handle :func:`update_chain` takes. Keeps the operands
    it was last given."""

    def __init__(self, node, chain: Chain, operands: dict):
        self._node = node
        self._chain = chain
        self._operands = operands
        # x and y as recorded (torch tensors only): a step whose x and y match but for M, without
        # scales, goes to C++ as pointers and M (as GEMM nodes' updates do).
        self._torch_xy = _torch_node_signature(operands, ("x", "y"))

    @property
    def setup_updates(self) -> int:
        """How many updates also rewrote the chain's setup node: those from the first one whose
        weights or biases were not the recorded ones (dearer: record the weights the graph will run)."""
        return self._node.setup_updates

    @property
    def max_m(self) -> int:
        return self._chain.max_m


def record_chain(chain: Chain, x, y, *, weights=None, biases=None, scale_a=None, alpha=None,
                 stream: Any = None) -> ChainNode:
    """Record ``chain`` into the graph being captured on ``stream`` (``torch.cuda.graph`` included).

    The chain becomes two kernel nodes (a one-CTA setup node with the layers' fixed parameters and
    the chain node); after instantiation :func:`update_chain` gives it a new M (up to
    ``chain.max_m``), ``x``, ``y``, scales and alpha by rewriting the chain node's parameters alone.

    Parameters
    ----------
    chain : Chain
        Built with ``max_m`` the most rows a step will have. It must outlive the graph (its workspace
        is the graph's).
    x, y, weights, biases, scale_a, alpha
        As for :meth:`Chain.run` (the per-layer ones default to the chain's).
    stream : optional
        The capturing stream (default: the arrays' framework's current stream, which is the capture
        stream inside ``torch.cuda.graph``).

    Raises
    ------
    ValueError
        No capture is active on the stream, or the operands do not fit the chain.
    """
    ops = dict(x=x, y=y, **chain._operands(weights, biases, scale_a, alpha))
    node = _C.ChainNode(chain._chain, *(ops[k] for k in _CHAIN_OPERANDS), resolve_stream(stream, x, y))
    return ChainNode(node, chain, ops)


def update_chain(graph: Any, node: ChainNode, **operands) -> None:
    """Give the recorded chain new operands / M in the instantiated graph, without recapture.

    Parameters
    ----------
    graph : torch.cuda.CUDAGraph or (exec, graph) ints
        As for :func:`update`.
    node : ChainNode
        From :func:`record_chain`.
    **operands
        Any of ``x, y, weights, biases, scale_a, alpha`` (per-layer ones as for :class:`graphgemm.Chain`);
        the others keep their last values. A new M is given by ``x`` and ``y`` with M rows (1 <= M <=
        ``node.max_m``; ``scale_a`` then needs M entries). New weights or biases also rewrite the setup
        node, on this and every later update.

    Raises
    ------
    ValueError
        The arguments do not fit the recorded chain, or the handle is stale or of another graph; the
        graph is left as it was.
    TypeError
        Unknown operand names.
    """
    _check_names(operands, _CHAIN_OPERANDS, "update_chain")
    merged = dict(node._operands)
    merged.update({k: v for k, v in operands.items() if k in ("x", "y")})
    layer_ops = node._chain._operands(operands.get("weights"), operands.get("biases"), operands.get("scale_a"),
                                      operands.get("alpha"))
    for k in ("weights", "biases", "scale_a", "alpha"):
        if k in operands:
            merged[k] = layer_ops[k]
    exec_handle, graph_handle = _raw_handles(graph)
    if "weights" in operands or "biases" in operands:
        node._node.update(exec_handle, graph_handle, *(merged[k] for k in _CHAIN_OPERANDS))
    else:  # a step: the C++ node keeps the weights' and biases' views of the last update
        fast = _torch_step_args(node, merged) if _TORCH_FAST_PATH else None
        if fast is not None:
            m, (x_ptr, y_ptr), _ = fast
            node._node.update_step_pointers(exec_handle, graph_handle, m, x_ptr, y_ptr, merged["alpha"])
        else:
            node._node.update_step(exec_handle, graph_handle, merged["x"], merged["y"], merged["scale_a"],
                                   merged["alpha"])
    node._operands = merged


def _torch_step_args(node: ChainNode, merged: dict):
    """_torch_update_args of a chain step's x and y where the step has no scales; else None."""
    if node._torch_xy is None or any(s is not None for s in merged["scale_a"]):
        return None
    return _torch_update_args(*node._torch_xy, merged)
