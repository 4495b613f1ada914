#!/usr/bin/env python3
"""Prints CPython's `ast` of a file in the compact form of compiler/frontend/AstDump.cpp.

Used to check tessel's parser against Python's own: for a file F,
`python3 ast_dump.py F` and tessel's dump must agree line for line. Constructs
tessel keeps opaque print as `ClassName!`; f-strings keep only their
interpolated expressions, as JoinedStrExpr does.
"""
import ast
import sys

OPAQUE_EXPR = {"Set", "SetComp", "DictComp", "GeneratorExp", "NamedExpr", "Await", "Yield", "YieldFrom"}
OPAQUE_STMT = {"Raise", "Try", "TryStar", "Global", "Nonlocal", "Delete", "Match", "TypeAlias"}


def flo(x):
    return repr(x)


def lst(xs):
    return "[" + ", ".join(d(x) for x in xs) + "]"


def opt(x):
    return "None" if x is None else d(x)


def params(a):
    out = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for p, df in zip(pos, defaults):
        out.append(param("", p, df))
    if a.vararg:
        out.append(param("*", a.vararg, None))
    for p, df in zip(a.kwonlyargs, a.kw_defaults):
        out.append(param("kw:", p, df))
    if a.kwarg:
        out.append(param("**", a.kwarg, None))
    return "[" + ", ".join(out) + "]"


def param(prefix, p, default):
    s = prefix + p.arg
    if p.annotation is not None:
        s += ":" + d(p.annotation)
    if default is not None:
        s += "=" + d(default)
    return s


def fvalues(j):
    out = []
    for v in j.values:
        if isinstance(v, ast.FormattedValue):
            out.append(v.value)
            if v.format_spec is not None:
                out.extend(x for x in fvalues_nodes(v.format_spec))
    return out


def fvalues_nodes(j):
    for v in j.values:
        if isinstance(v, ast.FormattedValue):
            yield v.value
            if v.format_spec is not None:
                yield from fvalues_nodes(v.format_spec)


def const(v):
    if v is None or isinstance(v, bool):
        return repr(v)
    if v is Ellipsis:
        return "Ellipsis"
    if isinstance(v, int):
        return "<bigint>" if v >= 2**64 else str(v)
    if isinstance(v, float):
        return flo(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, bytes):
        return "b" + repr(v.decode("latin-1"))
    return "Constant!"


def d(n):
    k = type(n).__name__
    if k in OPAQUE_EXPR or k in OPAQUE_STMT:
        return k + "!"
    if isinstance(n, ast.Name):
        return f"Name({n.id})"
    if isinstance(n, ast.Constant):
        return const(n.value)
    if isinstance(n, ast.Attribute):
        return f"Attribute({d(n.value)}, {n.attr})"
    if isinstance(n, ast.Call):
        kws = ", ".join(("**" if k.arg is None else k.arg + "=") + d(k.value) for k in n.keywords)
        return f"Call({d(n.func)}, {lst(n.args)}, [{kws}])"
    if isinstance(n, ast.Subscript):
        return f"Subscript({d(n.value)}, {d(n.slice)})"
    if isinstance(n, ast.Slice):
        return f"Slice({opt(n.lower)}, {opt(n.upper)}, {opt(n.step)})"
    if isinstance(n, ast.Tuple):
        return f"Tuple({lst(n.elts)})"
    if isinstance(n, ast.List):
        return f"List({lst(n.elts)})"
    if isinstance(n, ast.ListComp):
        gens = ", ".join(f"comprehension({d(g.target)}, {d(g.iter)}, {lst(g.ifs)})" for g in n.generators)
        return f"ListComp({d(n.elt)}, [{gens}])"
    if isinstance(n, ast.BinOp):
        return f"BinOp({d(n.left)}, {type(n.op).__name__}, {d(n.right)})"
    if isinstance(n, ast.UnaryOp):
        return f"UnaryOp({type(n.op).__name__}, {d(n.operand)})"
    if isinstance(n, ast.BoolOp):
        return f"BoolOp({type(n.op).__name__}, {lst(n.values)})"
    if isinstance(n, ast.Compare):
        ops = ", ".join(type(o).__name__ for o in n.ops)
        return f"Compare({d(n.left)}, [{ops}], {lst(n.comparators)})"
    if isinstance(n, ast.IfExp):
        return f"IfExp({d(n.test)}, {d(n.body)}, {d(n.orelse)})"
    if isinstance(n, ast.JoinedStr):
        return f"JoinedStr({lst(list(fvalues_nodes(n)))})"
    if isinstance(n, ast.Lambda):
        return f"Lambda({params(n.args)}, {d(n.body)})"
    if isinstance(n, ast.Dict):
        return f"Dict([{', '.join(opt(k) for k in n.keys)}], {lst(n.values)})"
    if isinstance(n, ast.Starred):
        return f"Starred({d(n.value)})"
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"{k}({n.name}, {params(n.args)}, {opt(n.returns)}, {lst(n.decorator_list)}, {lst(n.body)})"
    if isinstance(n, ast.ClassDef):
        return f"ClassDef({n.name}, {lst(n.decorator_list)}, {lst(n.body)})"
    if isinstance(n, ast.Assign):
        return f"Assign({lst(n.targets)}, {d(n.value)})"
    if isinstance(n, ast.AnnAssign):
        return f"AnnAssign({d(n.target)}, {d(n.annotation)}, {opt(n.value)})"
    if isinstance(n, ast.AugAssign):
        return f"AugAssign({d(n.target)}, {type(n.op).__name__}, {d(n.value)})"
    if isinstance(n, ast.Return):
        return f"Return({opt(n.value)})"
    if isinstance(n, ast.If):
        return f"If({d(n.test)}, {lst(n.body)}, {lst(n.orelse)})"
    if isinstance(n, (ast.For, ast.AsyncFor)):
        return f"{k}({d(n.target)}, {d(n.iter)}, {lst(n.body)}, {lst(n.orelse)})"
    if isinstance(n, ast.While):
        return f"While({d(n.test)}, {lst(n.body)}, {lst(n.orelse)})"
    if isinstance(n, (ast.With, ast.AsyncWith)):
        items = ", ".join(f"withitem({d(i.context_expr)}, {opt(i.optional_vars)})" for i in n.items)
        return f"{k}([{items}], {lst(n.body)})"
    if isinstance(n, (ast.Pass, ast.Break, ast.Continue)):
        return k
    if isinstance(n, ast.Expr):
        return f"Expr({d(n.value)})"
    if isinstance(n, ast.Assert):
        return f"Assert({d(n.test)}, {opt(n.msg)})"
    if isinstance(n, ast.Import):
        return "Import([" + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in n.names) + "])"
    if isinstance(n, ast.ImportFrom):
        names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in n.names)
        return f"ImportFrom({n.module}, [{names}], {n.level})"
    return k + "?"


if __name__ == "__main__":
    tree = ast.parse(open(sys.argv[1], encoding="utf-8").read())
    for s in tree.body:
        print(d(s))
