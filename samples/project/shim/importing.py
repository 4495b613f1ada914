"""Whether triton is installed, and what stands for it when it is not (vllm's triton_utils.importing)."""
import importlib.util

HAS_TRITON = importlib.util.find_spec("triton") is not None


class TritonPlaceholder:
    def __getattr__(self, name):
        raise ImportError("triton is not installed")
