"""A package of @jit helpers, re-exported here as kernel libraries do."""
from .math import BLOCK, fast_exp
from .memory import load_tile, store_tile

__all__ = ["BLOCK", "fast_exp", "load_tile", "store_tile"]
