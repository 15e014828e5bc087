import pytest

import graphgemm


def cuda_available() -> bool:
    return graphgemm.cuda_device_count() > 0


requires_gpu = pytest.mark.skipif(not cuda_available(), reason="skipped: no CUDA device")


def skip_unless_hopper(torch, why: str):
    """A skip mark for tests of the sm90 kernels: "skipped: no CUDA device" where there is none (the
    test modules' torch is None exactly then), `why` on a GPU that is not Hopper."""
    if torch is None:
        reason = "skipped: no CUDA device"
    else:
        reason = None if torch.cuda.get_device_capability() == (9, 0) else why
    return pytest.mark.skipif(reason is not None, reason=reason or "")
