"""graphgemm: GEMMs for NVIDIA Hopper GPUs, built for CUDA graphs.

Arrays are any DLPack CUDA arrays (PyTorch, CuPy, JAX, Warp, ...). Every call takes an explicit
``stream=``; without one, PyTorch's current stream is used for torch tensors and CuPy's for CuPy
arrays (the legacy default stream otherwise).

Example
-------
>>> import torch, graphgemm
>>> x = torch.randn(16, 4096, device="cuda", dtype=torch.bfloat16)
>>> w = torch.randn(6144, 4096, device="cuda", dtype=torch.bfloat16)   # a Linear weight, N x K
>>> y = torch.empty(16, 6144, device="cuda", dtype=torch.bfloat16)
>>> plan = graphgemm.Plan(x, w.t(), y)        # y = x @ w.T, built once
>>> plan.run(x, w.t(), y)                     # capture-safe: no allocation, no synchronization
>>> plan.config                               # which kernel, and why
"""

from __future__ import annotations

import numbers
from typing import Any, Optional

from . import _C

__all__ = ["Plan", "Chain", "gemm", "cuda_device_count", "__version__"]
__version__ = "0.1.0"

cuda_device_count = _C.cuda_device_count


def _framework(array: Any) -> str:
    return type(array).__module__.split(".", 1)[0]


def _torch_signature(operands) -> Optional[tuple]:
    """Per operand (None kept): shape, strides, dtype and device index of torch tensors; None if
    any operand is not a torch tensor. Equal signatures mean only the buffers differ."""
    sig = []
    for t in operands:
        if t is None:
            sig.append(None)
        elif _framework(t) == "torch":
            sig.append((tuple(t.shape), t.stride(), t.dtype, t.get_device()))
        else:
            return None
    return tuple(sig)


def _torch_pointers(operands, signature, tensor_type) -> Optional[list]:
    """Data pointers of the operands if they are torch tensors with exactly the planned signature
    (see :func:`_torch_signature`), else None. The run path's check, kept to attribute reads."""
    ptrs = []
    for t, want in zip(operands, signature):
        if want is None:
            if t is not None:
                return None
            ptrs.append(0)
        elif (isinstance(t, tensor_type) and t.shape == want[0] and t.stride() == want[1] and t.dtype is want[2]
              and t.get_device() == want[3]):
            ptrs.append(t.data_ptr())
        else:
            return None
    return ptrs


def resolve_stream(stream: Any, *arrays: Any) -> int:
    """Return the CUDA stream handle (an int) to run on.

    Parameters
    ----------
    stream : None, int, or a stream object
        ``None`` picks the current stream of the arrays' framework (PyTorch, CuPy), else the legacy
        default stream (0). An int is taken as a ``cudaStream_t`` handle. Objects exposing
        ``__cuda_stream__`` (CUDA Python protocol), ``cuda_stream`` (``torch.cuda.Stream``) or
        ``ptr`` (``cupy.cuda.Stream``) are accepted.
    *arrays
        The operands, to find the framework when ``stream`` is None.
    """
    if stream is None:
        for a in arrays:
            fw = _framework(a)
            if fw == "torch":
                import torch

                return torch.cuda.current_stream(a.device).cuda_stream
            if fw == "cupy":
                import cupy

                return cupy.cuda.get_current_stream().ptr
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    if hasattr(stream, "cuda_stream"):
        return int(stream.cuda_stream)
    if hasattr(stream, "ptr"):
        return int(stream.ptr)
    raise TypeError(
        f"stream must be None, an int handle or a CUDA stream object (torch.cuda.Stream, cupy.cuda.Stream, "
        f"or one with __cuda_stream__); got {type(stream).__name__}"
    )


class Plan:
    """A GEMM planned once, run many times: ``d = alpha * (a @ b) * (scale_a ⊗ scale_b) + bias + beta * c``.

    Building the plan chooses the backend and kernel and allocates its workspace (once). ``run``
    then validates, and enqueues on the stream: it never allocates or synchronizes, so it can be
    captured in a CUDA graph.

    Parameters
    ----------
    a : array, shape (M, K)
        Row-major (or column-major) CUDA array.
    b : array, shape (K, N)
        For a PyTorch ``Linear`` weight ``w`` (N x K), pass ``w.t()``.
    d : array, shape (M, N)
        Row-major output.
    c : array, shape (M, N), optional
        Added as ``beta * c``; needed when ``beta != 0``.
    bias : array, shape (N,), optional
        Added to every row; D's dtype (or float32).
    scale_a, scale_b : array, optional
        float32 scales per row of ``a`` (M or 1 entries) and per column of ``b`` (N or 1 entries).
    alpha, beta : float
    backend : {"auto", "sm90", "cublaslt"}
        ``auto`` runs graphgemm's own Hopper kernels where they implement the problem, cuBLASLt
        otherwise (``config`` says which, and why).
    sm90_kernel : str, optional
        Force one sm90 kernel instance by name (benchmarking).
    split_k_mode : {"auto", "none", "serial", "parallel", "stream_k"}
        Split the K dimension across CTAs for skinny, K-heavy problems. ``serial`` reduces the
        slices in a fixed order (bitwise deterministic); ``parallel`` writes fp32 partials and
        reduces them once; ``stream_k`` (sm90) shares the k-blocks of the last, partial wave of
        tiles equally among the SMs, for tile counts that fill them badly (``split_k_slices``
        must be 0); ``auto`` lets the
        heuristic decide (``config`` says what it chose).
    split_k_slices : int
        0 lets the heuristic choose; >= 1 asks for exactly that many slices.
    programmatic_launch : {"auto", "on", "off"} or bool
        sm90: launch with programmatic dependent launch, so that the kernel may start while the
        previous kernel on the stream finishes (it waits for it before reading anything that
        kernel may write). ``auto`` (the default) turns it on where the grid leaves a quarter of
        the SMs idle: it shortens small, launch-bound GEMMs and slows some full-grid ones
        (docs/sm90_notes.md, sessions 6, 8 and 13). ``True`` / ``False`` mean ``on`` / ``off``.
    split_k_cluster : int
        sm90, parallel split-K: how many CTAs of a thread-block cluster sum their slices through
        distributed shared memory before anything goes through the workspace. 0 lets the
        heuristic decide, 1 never, 2, 4 or 8 exactly that (``split_k_slices`` a multiple of it).
        When it equals the slice count the split needs no workspace (and no zeroing kernel).
    raster_order : {"auto", "m", "n"}
        sm90: the order in which the persistent CTAs take output tiles (for reuse of ``a`` and
        ``b`` in L2): ``raster_group`` consecutive tiles down M (``"m"``) or along N (``"n"``),
        the group sweeping the other dimension before the next one. ``auto``: the backend's
        choice (groups of 8 along M: as fast as any order measured on H100, docs/sm90_notes.md,
        session 19).
        Changes speed only, never results.
    raster_group : int
        sm90: tiles per raster group, 0 (the backend's choice) or 1 .. 65536.

    Raises
    ------
    ValueError
        Inconsistent shapes, leading dimensions, alignment, devices (the message says what to do).
    TypeError
        Unsupported dtypes or combinations.
    RuntimeError
        CUDA or library failures.
    """

    def __init__(self, a, b, d, c=None, bias=None, scale_a=None, scale_b=None, *, alpha: float = 1.0,
                 beta: float = 0.0, backend: str = "auto", sm90_kernel: str = "", split_k_mode: str = "auto",
                 split_k_slices: int = 0, programmatic_launch="auto", split_k_cluster: int = 0,
                 raster_order: str = "auto", raster_group: int = 0):
        if isinstance(programmatic_launch, bool):
            programmatic_launch = "on" if programmatic_launch else "off"
        self._plan = _C.Plan(a, b, d, c, bias, scale_a, scale_b, alpha, beta, backend, sm90_kernel, split_k_mode,
                             split_k_slices, programmatic_launch, split_k_cluster, raster_order, raster_group)
        # NOTES: DLPack import costs a few µs per array; torch tensors whose shapes, strides,
        # dtypes and devices are the planned ones go straight to C++ as pointers instead.
        self._signature = _torch_signature((a, b, d, c, bias, scale_a, scale_b))
        self._tensor_type = None
        if self._signature is not None:
            import torch

            self._tensor_type = torch.Tensor
        self.alpha = alpha
        self.beta = beta

    def run(self, a, b, d, c=None, bias=None, scale_a=None, scale_b=None, *, alpha: Optional[float] = None,
            beta: Optional[float] = None, stream: Any = None) -> None:
        """Enqueue the GEMM for these operands (same shapes, dtypes and layouts as planned).

        Parameters
        ----------
        a, b, d, c, bias, scale_a, scale_b : arrays
            As for the constructor; the buffers may differ from call to call.
        alpha, beta : float, optional
            Default to the values given when the plan was built.
        stream : optional
            See :func:`resolve_stream`.
        """
        alpha = self.alpha if alpha is None else alpha
        beta = self.beta if beta is None else beta
        operands = (a, b, d, c, bias, scale_a, scale_b)
        if self._signature is not None:
            ptrs = _torch_pointers(operands, self._signature, self._tensor_type)
            if ptrs is not None:
                self._plan.run_pointers(*ptrs, alpha, beta, resolve_stream(stream, a))
                return
        self._plan.run(*operands, alpha, beta, resolve_stream(stream, a, d))

    @property
    def config(self) -> str:
        """The chosen backend and kernel configuration, and why (e.g. ``"sm90: ... (2048 tiles ...)"``)."""
        return self._plan.config

    @property
    def backend(self) -> str:
        """``"sm90"`` or ``"cublaslt"``."""
        return self._plan.backend

    @property
    def workspace_size(self) -> int:
        """Bytes of device workspace the plan allocated when it was built."""
        return self._plan.workspace_size

    def __repr__(self) -> str:
        return f"graphgemm.Plan({self.config})"


def gemm(a, b, d, c=None, bias=None, scale_a=None, scale_b=None, *, alpha: float = 1.0, beta: float = 0.0,
         backend: str = "auto", split_k_mode: str = "auto", split_k_slices: int = 0, stream: Any = None) -> Plan:
    """Plan and run one GEMM into ``d``; returns the plan, to run again without re-planning.

    See :class:`Plan` for the parameters.
    """
    plan = Plan(a, b, d, c, bias, scale_a, scale_b, alpha=alpha, beta=beta, backend=backend,
                split_k_mode=split_k_mode, split_k_slices=split_k_slices)
    plan.run(a, b, d, c, bias, scale_a, scale_b, stream=stream)
    return plan


def _per_layer(values, layers: int, name: str, default) -> list:
    """One entry a layer: ``values`` as a sequence of ``layers`` entries, or None (``default`` for
    every layer); a float alpha counts for every layer."""
    if values is None:
        return [default] * layers
    if name == "alpha" and isinstance(values, numbers.Real):
        return [float(values)] * layers
    values = list(values)
    if len(values) != layers:
        raise ValueError(f"{name} has {len(values)} entries but the chain has {layers} layers; give one a layer "
                         f"(None where a layer has none)")
    return [float(v) for v in values] if name == "alpha" else values


class Chain:
    """L GEMMs where each layer reads the previous layer's output, in ONE launch (Hopper):
    ``x_{l+1} = alpha_l * (x_l @ weights[l]) * scale_a[l][:, None] + biases[l]``, ``x_0 = x``, ``y = x_L``.

    An MLP's linear layers (without the activation functions between them) or a decode step's
    projections: layer l+1 starts on a block of rows as soon as layer l has stored it, with no kernel
    boundary, and the activations between layers stay in the chain's workspace. In a CUDA graph a
    chain is one updatable node (:func:`graphgemm.graph.record_chain`): a step that changes M, ``x``,
    ``y``, the scales or alpha updates one small parameter block instead of L GEMM nodes' (H100, C++ graph
    bench, session 48: a synchronized 4-layer step updated this way ran 1.26-1.46x faster than
    capturing the 4 GEMMs again and updating the graph; docs/STATUS.md).

    Building the chain checks every shape, dtype, layout and alignment, chooses the tile and
    allocates the workspace (once); ``run`` validates and enqueues: it never allocates or
    synchronizes, so it can be captured.

    Parameters
    ----------
    x : array, shape (M, K_0)
        Row-major bfloat16 or float16 CUDA array.
    y : array, shape (M, N_{L-1})
        Row-major output, ``x``'s dtype.
    weights : sequence of 1 to 8 arrays, shapes (K_l, N_l)
        Layer l's ``b`` operand, ``x``'s dtype, with K_0 = ``x``'s columns and K_{l+1} = N_l: for a
        PyTorch ``Linear`` weight ``w`` (N x K, row-major) pass ``w.t()``, as for :class:`Plan`. Every
        N_l and K_l a multiple of 8.
    biases : sequence of arrays (N_l,) or None, optional
        One entry a layer (None: no bias); bfloat16, float16 or float32.
    scale_a : sequence of arrays (M,) or None, optional
        One entry a layer (None: none): float32, row i of the layer's output times ``scale_a[l][i]``.
    alpha : float or sequence of floats
        One a layer, or one for all.
    max_m : int
        The most rows any run or graph update will have (sizes the workspace, fixes the grid); 0:
        ``x``'s rows.
    sm90_kernel : str, optional
        Run this tile configuration instead of the heuristic's (a name ``config`` prints).
    programmatic_launch : bool
        Let the chain's first (setup) kernel start while the kernel before it finishes.

    Raises
    ------
    ValueError
        Shapes, dtypes, layouts, alignment or devices the chain cannot run (the message says what to do).
    TypeError
        A GPU other than Hopper, or unsupported dtypes.
    RuntimeError
        CUDA failures, or no CUDA device.
    """

    def __init__(self, x, y, weights, biases=None, scale_a=None, alpha=1.0, *, max_m: int = 0, sm90_kernel: str = "",
                 programmatic_launch: bool = False):
        weights = list(weights)
        n = len(weights)
        self._layers = {
            "weights": weights,
            "biases": _per_layer(biases, n, "biases", None),
            "scale_a": _per_layer(scale_a, n, "scale_a", None),
            "alpha": _per_layer(alpha, n, "alpha", 1.0),
        }
        self._chain = _C.Chain(x, y, *self._layers.values(), max_m, sm90_kernel, bool(programmatic_launch))

    def _operands(self, weights, biases, scale_a, alpha) -> dict:
        """The per-layer operands of a run or graph recording: the given ones, else the chain's."""
        n = self.layers
        return {
            "weights": self._layers["weights"] if weights is None else _per_layer(weights, n, "weights", None),
            "biases": self._layers["biases"] if biases is None else _per_layer(biases, n, "biases", None),
            "scale_a": self._layers["scale_a"] if scale_a is None else _per_layer(scale_a, n, "scale_a", None),
            "alpha": self._layers["alpha"] if alpha is None else _per_layer(alpha, n, "alpha", 1.0),
        }

    def run(self, x, y, *, weights=None, biases=None, scale_a=None, alpha=None, stream: Any = None) -> None:
        """Enqueue the chain for ``x`` (M rows, 0 <= M <= ``max_m``) into ``y`` (M rows).

        ``weights``, ``biases``, ``scale_a`` and ``alpha`` default to those the chain was built with
        (a run with another M needs ``scale_a`` of M entries where the chain has scales). M = 0
        enqueues nothing. ``stream``: see :func:`resolve_stream`.
        """
        ops = self._operands(weights, biases, scale_a, alpha)
        if weights is None and biases is None:  # the C++ side holds the built weights' and biases' views
            self._chain.run_step(x, y, ops["scale_a"], ops["alpha"], resolve_stream(stream, x, y))
        else:
            self._chain.run(x, y, *ops.values(), resolve_stream(stream, x, y))

    def kernel_for(self, m: int) -> str:
        """The tile configuration a run with ``m`` rows uses: a :class:`Plan` built with
        ``backend="sm90", split_k_mode="none", sm90_kernel=`` this name runs one layer alone on the
        same tile, bit for bit the same."""
        return self._chain.kernel_for(m)

    @property
    def config(self) -> str:
        """Layers, widths, kernel, grid and workspace (e.g. ``"sm90 chain: 4 layers 512 -> ..."``)."""
        return self._chain.config

    @property
    def max_m(self) -> int:
        return self._chain.max_m

    @property
    def layers(self) -> int:
        return self._chain.layers

    @property
    def workspace_size(self) -> int:
        """Bytes of device workspace the chain allocated when it was built."""
        return self._chain.workspace_size

    def __repr__(self) -> str:
        return f"graphgemm.Chain({self.config})"
