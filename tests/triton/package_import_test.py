"""The runner loads a kernel file that lives in a package as the library imports it: its relative imports
resolve, even where the package's __init__ imports the file itself (attorch's act_kernels.py:
`from .utils import element_wise_kernel_configs`, and attorch/__init__.py importing the layer that imports
the kernels). Plain Python, no torch: load_module only runs the file's statements."""
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
print("ok")
