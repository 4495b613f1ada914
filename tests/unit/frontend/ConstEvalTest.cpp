//===- ConstEvalTest.cpp - tests of ConstEval.cpp and PyValue.cpp ---------===//
/// \file
/// Python semantics case by case: each expectation is what CPython prints
/// for the same expression (`repr(eval(expr))`), checked when written.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ConstEval.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"

#include <gtest/gtest.h>

using namespace tessel;

namespace {

/// Evaluates the value of the last statement `_ = EXPR` of Source, with the
/// module's globals, functions and imports visible through discover().
std::string evalLast(const std::string &Source) {
  auto F = ParsedFile::parse(std::make_shared<SourceText>(Source));
  ProblemSink Sink;
  ModuleInfo Info = discover(F->module(), Sink);
  const auto *Last = ast::cast<ast::AssignStmt>(F->module().Body.back());
  ConstEval CE(Info, [&](const std::string &N) {
    if (auto It = Info.Globals.find(N); It != Info.Globals.end())
      return It->second.Value;
    if (auto It = Info.Functions.find(N); It != Info.Functions.end())
      return PyValue::function(It->second);
    if (auto It = Info.Imports.find(N); It != Info.Imports.end())
      return PyValue::qualified(It->second);
    return PyValue();
  });
  return CE.eval(Last->Value).repr();
}

std::string ev(const std::string &Expr) { return evalLast("_ = " + Expr + "\n"); }

TEST(ConstEval, Arithmetic) {
  EXPECT_EQ(ev("1 + 2 * 3"), "7");
  EXPECT_EQ(ev("7 // 2"), "3");
  EXPECT_EQ(ev("-7 // 2"), "-4");
  EXPECT_EQ(ev("7 // -2"), "-4");
  EXPECT_EQ(ev("-7 % 3"), "2");
  EXPECT_EQ(ev("7 % -3"), "-2");
  EXPECT_EQ(ev("7 / 2"), "3.5");
  EXPECT_EQ(ev("2 ** 10"), "1024");
  EXPECT_EQ(ev("2 ** -1"), "0.5");
  EXPECT_EQ(ev("1 << 20"), "1048576");
  EXPECT_EQ(ev("-16 >> 2"), "-4");
  EXPECT_EQ(ev("6 & 3 | 8 ^ 1"), "11");
  EXPECT_EQ(ev("-7.5 // 2"), "-4.0");
  EXPECT_EQ(ev("1e-6 * 2"), "2e-06");
  EXPECT_EQ(ev("True + True"), "2");
  EXPECT_EQ(ev("~5"), "-6");
  EXPECT_EQ(ev("'ab' + 'c'"), "'abc'");
  EXPECT_EQ(ev("[1] * 3"), "[1, 1, 1]");
  EXPECT_EQ(ev("(1, 2) + (3,)"), "(1, 2, 3)");
}

TEST(ConstEval, OverflowAndErrorsAreUnknown) {
  EXPECT_EQ(ev("2 ** 64"), "<unknown>");
  EXPECT_EQ(ev("9223372036854775807 + 1"), "<unknown>");
  EXPECT_EQ(ev("1 // 0"), "<unknown>");
  EXPECT_EQ(ev("1 ** 1000000000000000000"), "1"); // answered without looping
  EXPECT_EQ(ev("18446744073709551615"), "<unknown>");
  EXPECT_EQ(ev("undefined_name + 1"), "<unknown>");
  EXPECT_EQ(ev("range(10 ** 9)"), "<unknown>");
}

TEST(ConstEval, ComparisonsAndLogic) {
  EXPECT_EQ(ev("1 < 2 < 3"), "True");
  EXPECT_EQ(ev("1 < 3 < 2"), "False");
  EXPECT_EQ(ev("1 == 1.0"), "True");
  EXPECT_EQ(ev("(1, 2) == [1, 2]"), "False");
  EXPECT_EQ(ev("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}"), "True");
  EXPECT_EQ(ev("3 in [1, 2, 3]"), "True");
  EXPECT_EQ(ev("'x' not in 'abc'"), "True");
  EXPECT_EQ(ev("None is None"), "True");
  EXPECT_EQ(ev("0 or 'default'"), "'default'");
  EXPECT_EQ(ev("1 and 0"), "0");
  EXPECT_EQ(ev("not []"), "True");
  EXPECT_EQ(ev("'yes' if 2 > 1 else 'no'"), "'yes'");
  EXPECT_EQ(ev("x if 1 < 0 else 5"), "5"); // the branch not taken is never evaluated
}

TEST(ConstEval, ContainersSubscriptsSlices) {
  EXPECT_EQ(ev("[1, 2, 3][-1]"), "3");
  EXPECT_EQ(ev("[0, 1, 2, 3, 4][1:4]"), "[1, 2, 3]");
  EXPECT_EQ(ev("[0, 1, 2, 3, 4][::-2]"), "[4, 2, 0]");
  EXPECT_EQ(ev("(0, 1, 2)[5:]"), "()");
  EXPECT_EQ(ev("'hello'[1:3]"), "'el'");
  EXPECT_EQ(ev("{'BLOCK': 128}['BLOCK']"), "128");
  EXPECT_EQ(ev("{'a': 1, **{'b': 2}}"), "{'a': 1, 'b': 2}");
  EXPECT_EQ(ev("[*range(3), 9]"), "[0, 1, 2, 9]");
  EXPECT_EQ(ev("(5,)"), "(5,)");
  EXPECT_EQ(ev("[1, 2][5]"), "<unknown>");
}

TEST(ConstEval, Comprehensions) {
  EXPECT_EQ(ev("[i * j for i in range(1, 4) if i != 2 for j in [10, 20] if j > 10]"), "[20, 60]");
  EXPECT_EQ(ev("[(a, b) for a, b in zip([1, 2], 'xy')]"), "[(1, 'x'), (2, 'y')]");
  EXPECT_EQ(evalLast("i = 99\n_ = [i for i in range(2)] + [i]\n"), "[0, 1, 99]"); // no leak
}

TEST(ConstEval, Builtins) {
  EXPECT_EQ(ev("list(range(0, 10, 3))"), "[0, 3, 6, 9]");
  EXPECT_EQ(ev("list(range(5, 0, -2))"), "[5, 3, 1]");
  EXPECT_EQ(ev("len([1, 2, 3])"), "3");
  EXPECT_EQ(ev("min(4, 2, 8)"), "2");
  EXPECT_EQ(ev("max([1.5, 3, 2])"), "3");
  EXPECT_EQ(ev("max([], default=7)"), "7");
  EXPECT_EQ(ev("sum([1, 2, 3], 10)"), "16");
  EXPECT_EQ(ev("abs(-3)"), "3");
  EXPECT_EQ(ev("int(3.9)"), "3");
  EXPECT_EQ(ev("int(-3.9)"), "-3");
  EXPECT_EQ(ev("int('ff', 16)"), "255");
  EXPECT_EQ(ev("float('inf')"), "inf");
  EXPECT_EQ(ev("float(2)"), "2.0");
  EXPECT_EQ(ev("bool(0)"), "False");
  EXPECT_EQ(ev("str(1.5) + str(True)"), "'1.5True'");
  EXPECT_EQ(ev("tuple([1, 2])"), "(1, 2)");
  EXPECT_EQ(ev("list(enumerate('ab', 1))"), "[(1, 'a'), (2, 'b')]");
  EXPECT_EQ(ev("isinstance(3, int)"), "True");
  EXPECT_EQ(ev("isinstance(True, int)"), "True");
  EXPECT_EQ(ev("isinstance(3.0, (int, str))"), "False");
  EXPECT_EQ(ev("sorted([3, 1, 2], reverse=True)"), "[3, 2, 1]");
  EXPECT_EQ(ev("round(2.5)"), "2");
  // float.fromhex: Python's hex floats, whose `0x` is optional (digits stay hex).
  EXPECT_EQ(ev("float.fromhex('0x1p-126')"), "1.1754943508222875e-38");
  EXPECT_EQ(ev("float.fromhex('-0x1.8p1')"), "-3.0");
  EXPECT_EQ(ev("float.fromhex('1.8')"), "1.5");
  EXPECT_EQ(ev("float.fromhex(' inf ')"), "inf");
  EXPECT_EQ(ev("float.fromhex('0x1p99999')"), "<unknown>"); // OverflowError in Python
  EXPECT_EQ(ev("float.fromhex('xyz')"), "<unknown>");
}

TEST(ConstEval, AConditionalExpressionWhoseBranchesAgreeHasTheirValue) {
  // `tl.constexpr(x) if HAS_TRITON else x` (vllm): the same value either way.
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.constexpr(2.5) if HAS_TRITON else 2.5\n"), "2.5");
  EXPECT_EQ(evalLast("_ = 1 if UNKNOWN else 2\n"), "<unknown>");
  EXPECT_EQ(evalLast("_ = 1 if UNKNOWN else 1.0\n"), "<unknown>"); // equal, but not the same type
}

TEST(ConstEval, TritonHelpers) {
  EXPECT_EQ(evalLast("import triton\n_ = triton.cdiv(1000, 128)\n"), "8");
  EXPECT_EQ(evalLast("import triton\n_ = triton.cdiv(-5, 2)\n"), "-2");
  EXPECT_EQ(evalLast("import triton\n_ = triton.next_power_of_2(1000)\n"), "1024");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.constexpr(64)\n"), "64");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.float16\n"), "triton.language.float16");
  EXPECT_EQ(evalLast("import torch\n_ = torch.bfloat16\n"), "torch.bfloat16");
  EXPECT_EQ(evalLast("import triton\n_ = triton.Config({'BLOCK': 64}, num_warps=8, num_stages=2, maxnreg=128)\n"),
            "triton.Config({'BLOCK': 64}, num_warps=8, num_stages=2, num_ctas=1, maxnreg=128)");
  EXPECT_EQ(evalLast("from triton import Config\n_ = Config(kwargs={'B': 1})\n"),
            "triton.Config({'B': 1}, num_warps=4, num_stages=3, num_ctas=1)");
  EXPECT_EQ(evalLast("import triton\n_ = triton.Config(128)\n"), "<unknown>");
  EXPECT_EQ(evalLast("import math\n_ = math.ceil(2.1) + math.floor(-0.5)\n"), "2");
}

TEST(ConstEval, DtypesLimitsAndTheEnvironment) {
  // triton.language's dtypes: predicates, bit widths, identity.
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.float16.is_fp16()\n"), "True");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.uint8.is_int_signed()\n"), "False");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.int1.is_int_unsigned()\n"), "True");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.bfloat16.primitive_bitwidth\n"), "16");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.float32 is tl.float32\n"), "True");
  EXPECT_EQ(evalLast("import triton.language as tl\n_ = tl.float16 is not tl.float32\n"), "True");
  // PyTorch's numeric limits, which libraries turn into constexprs.
  EXPECT_EQ(evalLast("import torch\n_ = torch.finfo(torch.float16).max\n"), "65504.0");
  EXPECT_EQ(evalLast("import torch\n_ = torch.iinfo(torch.int32).min\n"), "-2147483648");
  EXPECT_EQ(evalLast("import torch\n_ = torch.finfo(torch.float32).eps\n"), "1.1920928955078125e-07");
  // PyTorch raises here: no value, and no constant a kernel could misuse.
  EXPECT_EQ(evalLast("import torch\n_ = torch.finfo(torch.int8)\n"), "<unknown>");
  EXPECT_EQ(evalLast("import torch\n_ = torch.finfo(torch.int8).max\n"), "<unknown>");
  // A switch read from the environment takes its default.
  EXPECT_EQ(evalLast("import os\n_ = os.environ.get('FAST_OPS', '0') == '1'\n"), "False");
  EXPECT_EQ(evalLast("import os\n_ = os.getenv('HOME_DIR')\n"), "None");
}

TEST(ConstEval, LocalHelperFunctions) {
  const char *Src = "def configs(stages, *, warps=4):\n"
                    "    out = []\n"
                    "    for s in stages:\n"
                    "        if s == 5:\n"
                    "            continue\n"
                    "        out.append((s, warps))\n"
                    "    out += [(0, 0)]\n"
                    "    out.extend([(9, 9)])\n"
                    "    return out\n"
                    "_ = configs([3, 4, 5, 6], warps=8)\n";
  EXPECT_EQ(evalLast(Src), "[(3, 8), (4, 8), (6, 8), (0, 0), (9, 9)]");
  const char *Loop = "def f(n):\n"
                     "    total = 0\n"
                     "    i = 0\n"
                     "    while True:\n"
                     "        if i >= n:\n"
                     "            break\n"
                     "        total += i\n"
                     "        i += 1\n"
                     "    d = {}\n"
                     "    d['sum'] = total\n"
                     "    return d\n"
                     "_ = f(5)\n";
  EXPECT_EQ(evalLast(Loop), "{'sum': 10}");
  EXPECT_EQ(evalLast("def g(a, b=2, *rest, **kw):\n    return (a, b, rest, kw)\n_ = g(1, 3, 4, x=5)\n"),
            "(1, 3, (4,), {'x': 5})");
  EXPECT_EQ(evalLast("def h():\n    raise ValueError()\n_ = h()\n"), "<unknown>");
  EXPECT_EQ(evalLast("def r(n):\n    return r(n + 1)\n_ = r(0)\n"), "<unknown>");               // depth bound
  EXPECT_EQ(evalLast("def spin():\n    while True:\n        pass\n_ = spin()\n"), "<unknown>"); // step bound
  EXPECT_EQ(evalLast("f = lambda x, y=10: x * y\n_ = f(3)\n"), "30");
  EXPECT_EQ(evalLast("def k(a):\n    return a\n_ = k()\n"), "<unknown>"); // missing argument
}

TEST(ConstEval, DeeplyNestedValuesBecomeUnknown) {
  // Without a bound this builds a value ~25,000 levels deep, whose repr,
  // comparison and destruction would each overflow the stack.
  EXPECT_EQ(evalLast("x = []\nfor i in range(100000):\n    x = [x]\n_ = x\n"), "<unknown>");
  EXPECT_EQ(ev("[[[[1]]]]"), "[[[[1]]]]");
}

TEST(ConstEval, GlobalsAreReadInOrder) {
  EXPECT_EQ(evalLast("B = 64\nB = B * 2\n_ = B\n"), "128");
  EXPECT_EQ(evalLast("xs = []\nfor i in range(3):\n    xs.append(i * i)\n_ = xs\n"), "[0, 1, 4]");
}

TEST(PyValue, ReprTruthEquality) {
  EXPECT_EQ(PyValue::floating(100.0).repr(), "100.0");
  EXPECT_EQ(PyValue::floating(1e16).repr(), "1e+16");
  EXPECT_EQ(PyValue::floating(0.0001).repr(), "0.0001");
  EXPECT_EQ(PyValue::floating(0.00001).repr(), "1e-05");
  EXPECT_EQ(PyValue::floating(-2.5).repr(), "-2.5");
  EXPECT_EQ(PyValue::string("it's").repr(), "\"it's\"");
  EXPECT_EQ(PyValue::string("a\nb").repr(), "'a\\nb'");
  EXPECT_EQ(PyValue::tuple({PyValue::integer(16), PyValue::integer(32)}).repr(), "(16, 32)");
  EXPECT_EQ(PyValue::none().truthy(), std::optional<bool>(false));
  EXPECT_EQ(PyValue().truthy(), std::nullopt);
  EXPECT_EQ(PyValue::qualified("triton.language.float16").truthy(), std::optional<bool>(true));
  EXPECT_EQ(PyValue::boolean(true).equals(PyValue::integer(1)), std::optional<bool>(true));
  EXPECT_EQ(PyValue::integer(1).equals(PyValue()), std::nullopt);
  EXPECT_EQ(PyValue::list({PyValue::integer(1), PyValue()}).equals(PyValue::list({PyValue::integer(2), PyValue()})),
            std::optional<bool>(false));
  PyValue D = PyValue::dict({{PyValue::string("a"), PyValue::integer(1)}});
  ASSERT_TRUE(D.lookup(PyValue::string("a")));
  EXPECT_EQ(D.lookup(PyValue::string("a"))->asInt(), 1);
  EXPECT_EQ(D.lookup(PyValue::string("b")), nullptr);
}

} // namespace

namespace {

TEST(ConstEval, TritonsVersionPicksTheBranchLibrariesWriteFor3) {
  // lmdeploy: `if TRITON_VERSION >= version.parse('3.0.0'): fast_expf = tl.math.exp`;
  // tuples order as CPython's do.
  EXPECT_EQ(ev("(3, 6, 0) >= (3, 0, 0)"), "True");
  EXPECT_EQ(ev("(3, 6) < (3, 6, 0)"), "True");
  EXPECT_EQ(ev("[2, 1] > [2]"), "True");
  EXPECT_EQ(evalLast("import triton\nfrom packaging import version\nV = version.parse(triton.__version__)\n"
                     "_ = V >= version.parse('3.0.0') and V < version.Version('3.7')\n"),
            "True");
  EXPECT_EQ(evalLast("from packaging import version\n_ = version.parse('3.0.0rc1')\n"), "<unknown>");
  // The other spellings of a version parse: distutils', pkg_resources', and a
  // library's own `Version` from a package outside the project (unsloth:
  // `from unsloth_zoo.utils import Version`, a wrapper of packaging's).
  EXPECT_EQ(evalLast("import triton\nfrom unsloth_zoo.utils import Version\n"
                     "_ = Version(triton.__version__) >= Version('3.0.0')\n"),
            "True");
  EXPECT_EQ(evalLast("import triton\nfrom distutils.version import LooseVersion\n"
                     "_ = LooseVersion(triton.__version__) < LooseVersion('2.1')\n"),
            "False");
  EXPECT_EQ(evalLast("import triton, pkg_resources\n"
                     "_ = pkg_resources.parse_version(triton.__version__) > pkg_resources.parse_version('3.5.1')\n"),
            "True");
  // A call of another name on a version string says nothing.
  EXPECT_EQ(evalLast("from mylib import normalize\n_ = normalize('3.0.0')\n"), "<unknown>");
}

} // namespace
