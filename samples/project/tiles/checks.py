"""Input validation a wrapper calls before it launches (torchao's `_validate_grouped_hadamard_inputs`).

Raising unless the sizes are whole blocks makes the caller's `cdiv` grid exact: tessel reads these
checks from the launching file (samples/project/validated.py), through the call.
`GROUP_CONFIGS` and `WIDE_CONFIGS` are autotune config lists kernels of other modules import
(torchao's `quant_kernel_configs_with_groups`).
"""
import triton

TILE = 128
GROUP_CONFIGS = [triton.Config({"GROUP": g}, num_warps=4) for g in [16, 32, 64, 128]]
WIDE_CONFIGS = [triton.Config({"GROUP": g}, num_warps=4) for g in [64, 256]]


def validate_tiles(A, rows: int, cols: int) -> None:
    if A.ndim != 2:
        raise ValueError("A must be 2D")
    if rows != A.shape[0]:
        raise ValueError("rows must match A.shape[0]")
    if rows % TILE != 0:
        raise ValueError("rows must be divisible by 128")
    if A.shape[1] % TILE != 0:
        raise ValueError("A.shape[1] must be divisible by 128")


def validate_rows(A) -> None:
    if A.shape[0] % 64 != 0:
        raise ValueError("rows must be divisible by 64")
