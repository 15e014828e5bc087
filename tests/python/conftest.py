import pytest

import graphgemm


def cuda_available() -> bool:
    return graphgemm.cuda_device_count() > 0


requires_gpu = pytest.mark.skipif(not cuda_available(), reason="skipped: no CUDA device")
