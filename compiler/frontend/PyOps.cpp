//===- PyOps.cpp - Python operator semantics on PyValues ------------------===//
#include "compiler/frontend/PyOps.h"

#include "compiler/types/Types.h"

#include <cmath>
#include <limits>

namespace tessel {

using ast::BinOpKind;

static PyValue intResult(__int128 X) {
  if (X < std::numeric_limits<int64_t>::min() || X > std::numeric_limits<int64_t>::max())
    return PyValue();
  return PyValue::integer(static_cast<int64_t>(X));
}

static int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

static int64_t floorMod(int64_t A, int64_t B) {
  int64_t M = A % B;
  if (M != 0 && ((M < 0) != (B < 0)))
    M += B;
  return M;
}

static PyValue intBinary(BinOpKind Op, int64_t A, int64_t B) {
  __int128 X = A, Y = B;
  switch (Op) {
  case BinOpKind::Add:
    return intResult(X + Y);
  case BinOpKind::Sub:
    return intResult(X - Y);
  case BinOpKind::Mult:
    return intResult(X * Y);
  case BinOpKind::Div:
    if (B == 0)
      return PyValue();
    return PyValue::floating(static_cast<double>(A) / static_cast<double>(B));
  case BinOpKind::FloorDiv:
    if (B == 0 || (A == std::numeric_limits<int64_t>::min() && B == -1))
      return PyValue();
    return PyValue::integer(floorDiv(A, B));
  case BinOpKind::Mod:
    if (B == 0)
      return PyValue();
    if (B == -1)
      return PyValue::integer(0);
    return PyValue::integer(floorMod(A, B));
  case BinOpKind::Pow: {
    if (B < 0)
      return PyValue::floating(std::pow(static_cast<double>(A), static_cast<double>(B)));
    // 0, 1 and -1 never overflow: answer directly instead of looping B times.
    if (A == 0 || A == 1)
      return PyValue::integer(B == 0 ? 1 : A);
    if (A == -1)
      return PyValue::integer(B % 2 ? -1 : 1);
    __int128 R = 1;
    for (int64_t I = 0; I < B; ++I) {
      R *= X;
      if (R > std::numeric_limits<int64_t>::max() || R < std::numeric_limits<int64_t>::min())
        return PyValue();
    }
    return intResult(R);
  }
  case BinOpKind::LShift:
    if (B < 0 || B >= 63)
      return B < 0 ? PyValue() : (A == 0 ? PyValue::integer(0) : PyValue());
    return intResult(X << B);
  case BinOpKind::RShift:
    if (B < 0)
      return PyValue();
    return PyValue::integer(B >= 64 ? (A < 0 ? -1 : 0) : (A >> B));
  case BinOpKind::BitOr:
    return PyValue::integer(A | B);
  case BinOpKind::BitXor:
    return PyValue::integer(A ^ B);
  case BinOpKind::BitAnd:
    return PyValue::integer(A & B);
  case BinOpKind::MatMult:
    return PyValue();
  }
  return PyValue();
}

static PyValue floatBinary(BinOpKind Op, double A, double B) {
  switch (Op) {
  case BinOpKind::Add:
    return PyValue::floating(A + B);
  case BinOpKind::Sub:
    return PyValue::floating(A - B);
  case BinOpKind::Mult:
    return PyValue::floating(A * B);
  case BinOpKind::Div:
    return B == 0 ? PyValue() : PyValue::floating(A / B);
  case BinOpKind::FloorDiv:
    return B == 0 ? PyValue() : PyValue::floating(std::floor(A / B));
  case BinOpKind::Mod: {
    if (B == 0)
      return PyValue();
    double M = std::fmod(A, B);
    if (M != 0 && ((M < 0) != (B < 0)))
      M += B;
    return PyValue::floating(M);
  }
  case BinOpKind::Pow:
    return PyValue::floating(std::pow(A, B));
  default:
    return PyValue();
  }
}

static PyValue concat(const PyValue &L, const PyValue &R) {
  PyList Out = L.elements();
  Out.insert(Out.end(), R.elements().begin(), R.elements().end());
  return L.kind() == PyValue::Kind::Tuple ? PyValue::tuple(std::move(Out)) : PyValue::list(std::move(Out));
}

static PyValue repeat(const PyValue &Seq, int64_t N) {
  if (N > 100000 || static_cast<int64_t>(Seq.elements().size()) * std::max<int64_t>(N, 0) > 100000)
    return PyValue();
  PyList Out;
  for (int64_t I = 0; I < N; ++I)
    Out.insert(Out.end(), Seq.elements().begin(), Seq.elements().end());
  return Seq.kind() == PyValue::Kind::Tuple ? PyValue::tuple(std::move(Out)) : PyValue::list(std::move(Out));
}

PyValue literalValue(const ast::ConstantExpr &C) {
  switch (C.CK) {
  case ast::ConstantKind::None:
    return PyValue::none();
  case ast::ConstantKind::Bool:
    return PyValue::boolean(C.BoolValue);
  case ast::ConstantKind::Int:
    if (C.IntOverflow || C.IntIsUnsigned64)
      return PyValue(); // beyond int64: outside what PyValue holds
    return PyValue::integer(C.IntValue);
  case ast::ConstantKind::Float:
    return PyValue::floating(C.FloatValue);
  case ast::ConstantKind::String:
    return PyValue::string(C.StrValue);
  case ast::ConstantKind::Bytes:
  case ast::ConstantKind::Ellipsis:
    return PyValue();
  }
  return PyValue();
}

PyValue pyBinaryOp(BinOpKind Op, const PyValue &L, const PyValue &R) {
  if (L.isUnknown() || R.isUnknown())
    return PyValue();
  if (L.isIntLike() && R.isIntLike())
    return intBinary(Op, L.asInt(), R.asInt());
  if (L.isNumber() && R.isNumber())
    return floatBinary(Op, L.asFloat(), R.asFloat());
  if (Op == BinOpKind::Add && L.isStr() && R.isStr())
    return PyValue::string(L.asStr() + R.asStr());
  if (Op == BinOpKind::Add && L.isSequence() && L.kind() == R.kind())
    return concat(L, R);
  if (Op == BinOpKind::Mult && L.isSequence() && R.isIntLike())
    return repeat(L, R.asInt());
  if (Op == BinOpKind::Mult && R.isSequence() && L.isIntLike())
    return repeat(R, L.asInt());
  return PyValue();
}

/// type(V).__name__ for the scalar kinds; "" for the others.
static std::string pyTypeName(const PyValue &V) {
  switch (V.kind()) {
  case PyValue::Kind::None:
    return "NoneType";
  case PyValue::Kind::Bool:
    return "bool";
  case PyValue::Kind::Int:
    return "int";
  case PyValue::Kind::Float:
    return "float";
  case PyValue::Kind::Str:
    return "str";
  default:
    return "";
  }
}

std::string pyBinaryOpTypeError(BinOpKind Op, const PyValue &L, const PyValue &R) {
  std::string LT = pyTypeName(L), RT = pyTypeName(R);
  // None stays silent: a variable is None on one side of a constexpr branch
  // tessel cannot decide (`x = tl.load(...) if USE_X else None`), and the
  // arithmetic sits under the same condition.
  if (LT.empty() || RT.empty() || L.isNone() || R.isNone())
    return "";
  std::string Unsupported =
      "unsupported operand type(s) for " + std::string(spelling(Op)) + ": '" + LT + "' and '" + RT + "'";
  bool Bits = Op == BinOpKind::LShift || Op == BinOpKind::RShift || Op == BinOpKind::BitAnd || Op == BinOpKind::BitOr ||
              Op == BinOpKind::BitXor;
  if (L.isNumber() && R.isNumber())
    return (Bits && (L.isFloat() || R.isFloat())) || Op == BinOpKind::MatMult ? Unsupported : "";
  // str's own operators (concatenation, %-formatting) raise other messages.
  if (L.isStr())
    return "";
  // A number and a string: only int * str (repetition) is defined.
  if (Op == BinOpKind::Mult)
    return "";
  return Unsupported;
}

PyValue pyUnaryOp(ast::UnaryOpKind Op, const PyValue &V) {
  switch (Op) {
  case ast::UnaryOpKind::Not: {
    std::optional<bool> T = V.truthy();
    return T ? PyValue::boolean(!*T) : PyValue();
  }
  case ast::UnaryOpKind::USub:
    if (V.isIntLike())
      return intResult(-static_cast<__int128>(V.asInt()));
    return V.isFloat() ? PyValue::floating(-V.asFloat()) : PyValue();
  case ast::UnaryOpKind::UAdd:
    if (V.isBool())
      return PyValue::integer(V.asInt());
    return V.isNumber() ? V : PyValue();
  case ast::UnaryOpKind::Invert:
    return V.isIntLike() ? PyValue::integer(~V.asInt()) : PyValue();
  }
  return PyValue();
}

static std::optional<int> order(const PyValue &L, const PyValue &R) {
  if (L.isIntLike() && R.isIntLike())
    return L.asInt() < R.asInt() ? -1 : (L.asInt() > R.asInt() ? 1 : 0);
  if (L.isNumber() && R.isNumber()) {
    double A = L.asFloat(), B = R.asFloat();
    if (std::isnan(A) || std::isnan(B))
      return std::nullopt;
    return A < B ? -1 : (A > B ? 1 : 0);
  }
  if (L.isStr() && R.isStr())
    return L.asStr().compare(R.asStr()) < 0 ? -1 : (L.asStr() == R.asStr() ? 0 : 1);
  // Sequences of one kind compare element by element, then by length
  // (`(3, 6, 0) >= (3, 0, 0)`: packaging's versions are compared so).
  if (L.isSequence() && L.kind() == R.kind()) {
    const PyList &A = L.elements(), &B = R.elements();
    for (size_t I = 0; I < A.size() && I < B.size(); ++I) {
      std::optional<int> O = order(A[I], B[I]);
      if (!O || *O != 0)
        return O;
    }
    return A.size() < B.size() ? -1 : (A.size() > B.size() ? 1 : 0);
  }
  return std::nullopt;
}

PyValue pyCompare(ast::CmpOpKind Op, const PyValue &L, const PyValue &R) {
  if (L.isUnknown() || R.isUnknown())
    return PyValue();
  using ast::CmpOpKind;
  switch (Op) {
  case CmpOpKind::Eq:
  case CmpOpKind::NotEq: {
    std::optional<bool> E = L.equals(R);
    if (!E)
      return PyValue();
    return PyValue::boolean(Op == CmpOpKind::Eq ? *E : !*E);
  }
  case CmpOpKind::Is:
  case CmpOpKind::IsNot: {
    // Identity is decidable for None and bools, the cases kernels use, and
    // for triton.language's dtypes, which are module singletons (`dtype is
    // tl.float32`: a specialization's types are those objects).
    if (L.kind() == PyValue::Kind::Qualified && R.kind() == PyValue::Kind::Qualified) {
      constexpr std::string_view Lang = "triton.language.";
      auto Dtype = [&](const PyValue &V) -> std::optional<ScalarKind> {
        std::string_view P = V.qualifiedPath();
        return P.substr(0, Lang.size()) == Lang ? scalarKindFromLanguageName(P.substr(Lang.size())) : std::nullopt;
      };
      std::optional<ScalarKind> A = Dtype(L), B = Dtype(R);
      if (!A || !B)
        return PyValue();
      return PyValue::boolean((*A == *B) == (Op == CmpOpKind::Is));
    }
    if (!(L.isNone() || R.isNone() || (L.isBool() && R.isBool())))
      return PyValue();
    bool Same = L.kind() == R.kind() && (!L.isBool() || L.asBool() == R.asBool());
    return PyValue::boolean(Op == CmpOpKind::Is ? Same : !Same);
  }
  case CmpOpKind::In:
  case CmpOpKind::NotIn: {
    bool Found = false;
    if (R.isSequence()) {
      for (const PyValue &E : R.elements()) {
        std::optional<bool> Eq = L.equals(E);
        if (!Eq)
          return PyValue();
        Found |= *Eq;
      }
    } else if (R.kind() == PyValue::Kind::Dict) {
      Found = R.lookup(L) != nullptr;
    } else if (R.isStr() && L.isStr()) {
      Found = R.asStr().find(L.asStr()) != std::string::npos;
    } else {
      return PyValue();
    }
    return PyValue::boolean(Op == CmpOpKind::In ? Found : !Found);
  }
  default:
    break;
  }
  std::optional<int> O = order(L, R);
  if (!O)
    return PyValue();
  switch (Op) {
  case CmpOpKind::Lt:
    return PyValue::boolean(*O < 0);
  case CmpOpKind::LtE:
    return PyValue::boolean(*O <= 0);
  case CmpOpKind::Gt:
    return PyValue::boolean(*O > 0);
  case CmpOpKind::GtE:
    return PyValue::boolean(*O >= 0);
  default:
    return PyValue();
  }
}

} // namespace tessel
