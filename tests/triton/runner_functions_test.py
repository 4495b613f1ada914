"""The runner's functions that need no torch, on their own:

- load_module loads a kernel file that lives in a package as the library imports it: its relative imports
  resolve, even where the package's __init__ imports the file itself (attorch's act_kernels.py:
  `from .utils import element_wise_kernel_configs`, and attorch/__init__.py importing the layer that imports
  the kernels);
- bind_shadowed_options launches a kernel whose parameters are named after launch options with the options
  tessel compiled with (Liger's neighborhood attention: `num_stages: tl.constexpr` passed by position, 2,
  while the launch's option stays Triton's default 3)."""
import importlib.util
import os
import sys
import tempfile

runner_path = sys.argv[1]
spec = importlib.util.spec_from_file_location("triton_runner", runner_path)
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)


class Results:
    def __init__(self):
        self.data = {"notes": []}
        self.fatal_kind = None

    def fatal(self, kind, message):
        self.fatal_kind = (kind, message)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as root:
    lib = os.path.join(root, "clone", "mylib")
    write(os.path.join(lib, "__init__.py"), "from .layers import act\n")
    write(os.path.join(lib, "layers.py"), "from .kernels import act_kernel\ndef act():\n    return act_kernel\n")
    write(os.path.join(lib, "utils.py"), "CONFIGS = ['c0', 'c1']\n")
    write(os.path.join(lib, "kernels.py"),
          "from .utils import CONFIGS\nfrom . import utils as u\n\n"
          "def act_kernel():\n    return CONFIGS\n\nFIRST = u.CONFIGS[0]\n")
    # a file outside any package keeps its plain name and loads as before
    write(os.path.join(root, "loose", "k.py"), "X = 1\n")

    assert runner.enclosing_package(os.path.join(lib, "kernels.py")) == ("mylib", os.path.join(root, "clone"))
    assert runner.enclosing_package(os.path.join(root, "loose", "k.py")) == ("", "")

    r = Results()
    m = runner.load_module(os.path.join(lib, "kernels.py"), [], r)
    assert r.fatal_kind is None, r.fatal_kind
    assert r.data["notes"] == [], r.data["notes"]
    assert m.act_kernel() == ["c0", "c1"] and m.FIRST == "c0"
    assert "mylib.kernels" not in sys.modules or sys.modules["mylib.kernels"] is not m

    r = Results()
    m = runner.load_module(os.path.join(root, "loose", "k.py"), [], r)
    assert m.X == 1 and m.__name__ == "k" and not m.__package__, (m.__name__, m.__package__)

# No parameter named after an option: every argument by keyword, every option.
assert runner.bind_shadowed_options(["x", "n", "BLOCK"], {"x": 1, "n": 2, "BLOCK": 3},
                                    {"num_warps": 4, "num_stages": 3}) == \
    ([], {"x": 1, "n": 2, "BLOCK": 3}, {"num_warps": 4, "num_stages": 3})
# The parameter's value is the option's (tutorial 02 launched with num_stages=4 as a keyword): one keyword.
assert runner.bind_shadowed_options(["x", "num_stages"], {"x": 1, "num_stages": 4},
                                    {"num_warps": 8, "num_stages": 4}) == \
    ([], {"x": 1, "num_stages": 4}, {"num_warps": 8})
# They differ: the parameters up to it by position, the option left out (Triton's default), the rest kept.
assert runner.bind_shadowed_options(["a", "b", "num_stages", "num_warps", "BLOCK"],
                                    {"a": 1, "b": 2, "num_stages": 2, "num_warps": 4, "BLOCK": 64},
                                    {"num_warps": 4, "num_stages": 3}) == \
    ([1, 2, 2], {"num_warps": 4, "BLOCK": 64}, {})
# An equal option bound by position with a differing one goes by position too, never again as an option
# (a parameter given twice is a TypeError).
assert runner.bind_shadowed_options(["x", "num_warps", "num_stages"], {"x": 1, "num_warps": 4, "num_stages": 2},
                                    {"num_warps": 4, "num_stages": 3}) == \
    ([1, 4, 2], {}, {})
# A parameter before it that tessel's launch leaves out (a default, a heuristic): keywords as before.
assert runner.bind_shadowed_options(["a", "b", "num_stages"], {"b": 2, "num_stages": 2},
                                    {"num_warps": 4, "num_stages": 3}) == \
    ([], {"b": 2, "num_stages": 2}, {"num_warps": 4})
print("ok")
