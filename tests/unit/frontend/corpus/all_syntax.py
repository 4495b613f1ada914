# Every statement and expression kind the parser maps, in the shapes Triton
# kernels and their host code use. all_syntax.expected is CPython's own `ast`
# of this file, printed by ../ast_dump.py; regenerate it with
#   python3 tests/unit/frontend/ast_dump.py tests/unit/frontend/corpus/all_syntax.py > ...expected
import triton
import triton.language as tl
import os.path, numpy as np
from triton import jit, cdiv as cd
from triton.language.extra import libdevice
from . import sibling
from ..pkg.mod import *
from __future__ import annotations

X = tl.constexpr(42)
Y: tl.constexpr = 0x_FF
Z: int
a = b = c = 1_000
p, q = q, p
(r, s), *t = [1, 2, 3]
u = 18446744073709551615
v = 9223372036854775808
w = 123456789012345678901234567890
f1, f2, f3, f4 = 1e-6, .5, 5., 1_0.2_5e+1_0
o1, o2, o3 = 0o17, 0b1010, 0XdeadBEEF
s1 = 'it\'s' "\x41\u00e9\n" r'\d+\\'
by = b'\x00\x7f' b'\101'
s2 = f"{X!r:>{w}} and {Y + 1}" 'tail'
s3 = """multi
line""" + '''also'''
e = ...
n = None
bb = True and False or not None
cmp = a < b <= c == 1 != 2 > 0 >= -1
mem = a in b and a not in c and a is None and a is not b
ar = -a + +b * ~c / 2 // 3 % 4 ** 5 @ m << 1 >> 2 & 3 | 4 ^ 5
tern = a if b else c
lam = lambda x, y=1, *z, k, **kw: x + y
d = {'a': 1, **other, 2: [3]}
st = {1, 2}
lc = [i * j for i in range(3) if i for j in range(i) if j if j > 1]
sc = {i for i in x}
dc = {k: v for k, v in x.items()}
ge = sum(i for i in x)
we = (y := 10)
sl = x[1:2, ::3, ..., None, a:b:c, :]
sl2 = x[:, None]
sl3 = x[0]
sl4 = x[1,]
call = f(a, *args, b=1, **kw)
attr = a.b.c.d
sub = tl.arange(0, 16)[:, None] * stride
aug = 0
aug += 1; aug -= 2; aug *= 3; aug //= 4; aug **= 2; aug <<= 1; aug |= 1


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])
@triton.jit(do_not_specialize=['n'])
def kernel(x_ptr, y_ptr: tl.pointer_type, n, BLOCK: tl.constexpr = 1024, *, eps: float = 1e-5) -> None:
    """Docstring."""
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if pid == 0:
        pass
    elif pid == 1:
        x = x + 1
    elif pid == 2:
        x = x * 2
    else:
        x = -x
    for i in range(0, 10, 2):
        if i > 5:
            break
        continue
    for k in tl.static_range(4):
        x += k
    else:
        x -= 1
    while n > 0:
        n -= 1
    else:
        n = 0
    with tl.device_assert(x), open(f) as (fa, fb):
        pass
    assert n >= 0, "n must be >= 0"
    assert n
    tl.store(y_ptr + offs, x, mask=mask)
    return


async def coro(a, /, b):
    await a
    async for i in b:
        yield i
    async with a as b:
        pass


class Holder(Base, metaclass=Meta):
    field: int = 0

    def method(self):
        global G
        nonlocal_ok = 1
        del self.x
        raise ValueError("no")


def gen():
    yield
    yield from gen()
    try:
        pass
    except Exception as exc:
        pass
    else:
        pass
    finally:
        pass


match cmd:
    case [x, y]:
        pass
    case _:
        pass

if __name__ == "__main__":
    kernel[(cd(n, 1024),)](x, y, n, BLOCK=1024, num_warps=8)
    kernel[grid](x, y, n)
with (open(a) as f, open(b) as g):
    pass
with (a, b):
    pass
with (yield):
    pass
x[*a]
x[a:b, *c]
f(*a, *b, c=1, **d, **e)
f(x for x in y)
@(lambda f: f)
def g(): pass
@a.b[1](2)
def h(): pass
lambda *, k=1: k
lambda *a, **k: 0
a = not not x
b = -(-1)
c = 1 if a else 2 if b else 3
d = a[1][2].b(c)[d:e]
e = [*a, *b]
t = *a, b
for x, *y in z: pass
for (i, j) in k: pass
del a, b[1]
print(f"{x=}", f'{a["k"]}', f"{'nested'}")
x = "a" "b" f"c{d}" 'e'
y = 0_0
z = 1_000.000_1e-1_0
w = 0xDEAD_beef
v = 1E5
u = 1.
r = (1)
q = (1,)
p = ()
o = [] 
n = {}
m = {**a}
l = a if b else (c, d)
k = a @ b
j = a.b.c.d.e.f
i = a < b == c
async def foo():
    return [i async for i in aiter() if await i]
class A(B, C, metaclass=M): x = 1
if a: pass
elif b: pass
elif c: pass
assert (a, b)
global_x: "str" = 's'
