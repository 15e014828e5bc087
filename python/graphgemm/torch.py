"""graphgemm's PyTorch layer: ``torch.ops.graphgemm.*`` operators, registered from C++.

They run on PyTorch's current stream, work inside ``torch.cuda.graph`` capture and under
``torch.compile(fullgraph=True)`` (fake kernels below give the output metadata), and take their
workspace from PyTorch's caching allocator.

Example
-------
>>> import torch, graphgemm.torch as ggt
>>> x = torch.randn(16, 4096, device="cuda", dtype=torch.bfloat16)
>>> w = torch.randn(6144, 4096, device="cuda", dtype=torch.bfloat16)
>>> y = ggt.linear(x, w)                      # x @ w.T, graphgemm's Hopper kernels
"""

from __future__ import annotations

import glob
import os
from typing import Optional

import torch

_here = os.path.dirname(os.path.abspath(__file__))
_libs = sorted(glob.glob(os.path.join(_here, "_torch_ops*.so")))
if not _libs:
    raise ImportError(
        "graphgemm was built without its PyTorch operators (no _torch_ops library next to graphgemm/__init__.py): "
        "rebuild with torch importable at build time (pip install . --no-build-isolation)"
    )
torch.ops.load_library(_libs[0])

__all__ = ["gemm", "linear", "scaled_mm"]


def _default_out(dtype: torch.dtype) -> torch.dtype:
    return {torch.int8: torch.int32, torch.float8_e4m3fn: torch.bfloat16}.get(dtype, dtype)


@torch.library.register_fake("graphgemm::gemm")
def _gemm_fake(a, b, bias=None, c=None, alpha=1.0, beta=0.0, out_dtype=None):
    return a.new_empty((a.shape[0], b.shape[1]), dtype=out_dtype or _default_out(a.dtype))


@torch.library.register_fake("graphgemm::gemm.out")
def _gemm_out_fake(a, b, bias=None, c=None, alpha=1.0, beta=0.0, *, out):
    return None


@torch.library.register_fake("graphgemm::linear")
def _linear_fake(x, w, bias=None):
    return x.new_empty((*x.shape[:-1], w.shape[0]))


@torch.library.register_fake("graphgemm::scaled_mm")
def _scaled_mm_fake(x_q, w_q, scale_x, scale_w, bias=None, out_dtype=None):
    return x_q.new_empty((x_q.shape[0], w_q.shape[0]), dtype=out_dtype or torch.bfloat16)


def gemm(a: torch.Tensor, b: torch.Tensor, bias: Optional[torch.Tensor] = None, c: Optional[torch.Tensor] = None,
         alpha: float = 1.0, beta: float = 0.0, out_dtype: Optional[torch.dtype] = None,
         out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """``alpha * (a @ b) + bias + beta * c``.

    Parameters
    ----------
    a : Tensor (M, K)
    b : Tensor (K, N)
        For a Linear weight ``w`` (N, K), pass ``w.t()`` (no copy).
    bias : Tensor (N,), optional
    c : Tensor (M, N), optional
    alpha, beta : float
    out_dtype : torch.dtype, optional
        Defaults to the input dtype (int32 for int8, bfloat16 for float8).
    out : Tensor (M, N), optional
        Written in place and returned.
    """
    if out is not None:
        torch.ops.graphgemm.gemm.out(a, b, bias, c, alpha, beta, out=out)
        return out
    return torch.ops.graphgemm.gemm(a, b, bias, c, alpha, beta, out_dtype)


def linear(x: torch.Tensor, w: torch.Tensor, bias: Optional[torch.Tensor] = None) -> torch.Tensor:
    """``x @ w.T + bias`` for ``x`` of shape (..., K) and a Linear weight ``w`` of shape (N, K)."""
    return torch.ops.graphgemm.linear(x, w, bias)


def scaled_mm(x_q: torch.Tensor, w_q: torch.Tensor, scale_x: torch.Tensor, scale_w: torch.Tensor,
              bias: Optional[torch.Tensor] = None, out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """W8A8: ``(x_q @ w_q.T) * scale_x[:, None] * scale_w[None, :] + bias`` in ``out_dtype``.

    Parameters
    ----------
    x_q : Tensor (M, K), int8 or float8_e4m3fn
    w_q : Tensor (N, K), same dtype
    scale_x : Tensor, M or 1 float32 entries (per token or per tensor)
    scale_w : Tensor, N or 1 float32 entries (per channel or per tensor)
    bias : Tensor (N,), optional
    out_dtype : torch.dtype

    Notes
    -----
    Until graphgemm's own W8A8 kernels land this runs the integer product through cuBLASLt and
    applies the scales and bias in one elementwise pass.
    """
    return torch.ops.graphgemm.scaled_mm(x_q, w_q, scale_x, scale_w, bias, out_dtype)
