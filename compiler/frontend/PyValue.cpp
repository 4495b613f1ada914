//===- PyValue.cpp - compile-time Python values ---------------------------===//
/// \file
/// Truthiness, equality and repr with Python's rules: bool is an int,
/// `1 == 1.0`, a tuple never equals a list, dict equality ignores order,
/// and repr spells floats the way Python does (`1e-06`, `100.0`).
//===----------------------------------------------------------------------===//
#include "compiler/frontend/PyValue.h"

#include "compiler/frontend/Ast.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tessel {

std::optional<bool> PyValue::truthy() const {
  switch (K) {
  case Kind::Unknown:
    return std::nullopt;
  case Kind::None:
    return false;
  case Kind::Bool:
  case Kind::Int:
    return I != 0;
  case Kind::Float:
    return F != 0;
  case Kind::Str:
    return !S->empty();
  case Kind::Tuple:
  case Kind::List:
    return !L->empty();
  case Kind::Dict:
    return !D->empty();
  // Modules, functions, dtypes and configs are ordinary objects: truthy.
  case Kind::Qualified:
  case Kind::Function:
  case Kind::Lambda:
  case Kind::Config:
  case Kind::Descriptor:
    return true;
  case Kind::Tensor: // bool() of a tensor needs its values
    return std::nullopt;
  }
  return std::nullopt;
}

std::string reprString(const std::string &S) {
  // Python prefers single quotes unless the text has one and no double quote.
  bool HasSingle = S.find('\'') != std::string::npos, HasDouble = S.find('"') != std::string::npos;
  char Q = HasSingle && !HasDouble ? '"' : '\'';
  std::string Out(1, Q);
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    // U+0080..U+00A0 and U+00AD are not printable for Python: escaped.
    if (C == 0xC2 && I + 1 < S.size()) {
      unsigned char D = static_cast<unsigned char>(S[I + 1]);
      if (D <= 0xA0 || D == 0xAD) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\x%02x", D);
        Out += Buf;
        ++I;
        continue;
      }
    }
    switch (C) {
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C == static_cast<unsigned char>(Q)) {
        Out += '\\';
        Out += static_cast<char>(C);
      } else if (C < 0x20 || C == 0x7F) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\x%02x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C); // UTF-8 passes through, as Python prints printable text
      }
    }
  }
  Out += Q;
  return Out;
}

std::string reprFloat(double X) {
  if (std::isnan(X))
    return "nan";
  if (std::isinf(X))
    return X > 0 ? "inf" : "-inf";
  // Shortest round-trip digits, then Python's layout: positional for
  // exponents in [-4, 16), scientific with a signed two-digit exponent else.
  char Buf[64];
  auto Res = std::to_chars(Buf, Buf + sizeof Buf, X, std::chars_format::scientific);
  std::string Sci(Buf, Res.ptr);
  size_t EPos = Sci.find('e');
  std::string Mant = Sci.substr(0, EPos);
  int Exp = std::stoi(Sci.substr(EPos + 1));
  bool Neg = !Mant.empty() && Mant[0] == '-';
  if (Neg)
    Mant.erase(0, 1);
  std::string Digits;
  for (char C : Mant)
    if (C != '.')
      Digits += C;
  std::string Out = Neg ? "-" : "";
  if (Exp >= -4 && Exp < 16) {
    if (Exp < 0) {
      Out += "0." + std::string(static_cast<size_t>(-Exp - 1), '0') + Digits;
    } else if (static_cast<int>(Digits.size()) <= Exp + 1) {
      Out += Digits + std::string(static_cast<size_t>(Exp + 1) - Digits.size(), '0') + ".0";
    } else {
      Out += Digits.substr(0, static_cast<size_t>(Exp + 1)) + "." + Digits.substr(static_cast<size_t>(Exp + 1));
    }
    return Out;
  }
  Out += Digits.substr(0, 1);
  if (Digits.size() > 1)
    Out += "." + Digits.substr(1);
  char ExpBuf[16];
  std::snprintf(ExpBuf, sizeof ExpBuf, "e%c%02d", Exp < 0 ? '-' : '+', Exp < 0 ? -Exp : Exp);
  return Out + ExpBuf;
}

static std::string joinRepr(const PyList &Elts) {
  std::string Out;
  for (size_t I = 0; I < Elts.size(); ++I) {
    if (I)
      Out += ", ";
    Out += Elts[I].repr();
  }
  return Out;
}

static std::string dictRepr(const PyDict &Items) {
  std::string Out = "{";
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      Out += ", ";
    Out += Items[I].first.repr() + ": " + Items[I].second.repr();
  }
  return Out + "}";
}

bool PyValue::refersToTree() const {
  switch (K) {
  case Kind::Function:
  case Kind::Lambda:
    return true;
  case Kind::Tuple:
  case Kind::List:
    for (const PyValue &E : elements())
      if (E.refersToTree())
        return true;
    return false;
  case Kind::Dict:
    for (const auto &[Key, X] : items())
      if (Key.refersToTree() || X.refersToTree())
        return true;
    return false;
  case Kind::Config:
    for (const auto &[Key, X] : asConfig().Kwargs)
      if (Key.refersToTree() || X.refersToTree())
        return true;
    return asConfig().PreHook && asConfig().PreHook->refersToTree();
  default:
    return false;
  }
}

std::string PyValue::repr() const {
  switch (K) {
  case Kind::Unknown:
    return "<unknown>";
  case Kind::None:
    return "None";
  case Kind::Bool:
    return I ? "True" : "False";
  case Kind::Int:
    return std::to_string(I);
  case Kind::Float:
    return reprFloat(F);
  case Kind::Str:
    return reprString(*S);
  case Kind::Tuple:
    return "(" + joinRepr(*L) + (L->size() == 1 ? ",)" : ")");
  case Kind::List:
    return "[" + joinRepr(*L) + "]";
  case Kind::Dict:
    return dictRepr(*D);
  case Kind::Qualified:
    return *S;
  case Kind::Function:
    return "<function " + (Fn ? Fn->Name : std::string("?")) + ">";
  case Kind::Lambda:
    return "<function <lambda>>";
  case Kind::Config: {
    std::string Out = "triton.Config(" + dictRepr(C->Kwargs) + ", num_warps=" + std::to_string(C->NumWarps) +
                      ", num_stages=" + std::to_string(C->NumStages) + ", num_ctas=" + std::to_string(C->NumCtas);
    if (C->MaxNReg)
      Out += ", maxnreg=" + std::to_string(*C->MaxNReg);
    return Out + ")";
  }
  case Kind::Tensor: {
    std::string Out = "<tensor " + T->DType + "[";
    for (size_t I = 0; I < T->Shape.size(); ++I)
      Out += (I ? ", " : "") + std::to_string(T->Shape[I]);
    return Out + "]>";
  }
  case Kind::Descriptor:
    return "TensorDescriptor(base=" + PyValue::tensor(Desc->Base).repr() + ", shape=" + Desc->Shape.repr() +
           ", strides=" + Desc->Strides.repr() + ", block_shape=" + Desc->BlockShape.repr() +
           ", padding=" + reprString(Desc->Padding) + ")";
  }
  return "<unknown>";
}

static std::optional<bool> sequenceEquals(const PyList &A, const PyList &B) {
  if (A.size() != B.size())
    return false;
  bool AllKnown = true;
  for (size_t I = 0; I < A.size(); ++I) {
    std::optional<bool> E = A[I].equals(B[I]);
    if (E && !*E)
      return false;
    AllKnown &= E.has_value();
  }
  if (!AllKnown)
    return std::nullopt;
  return true;
}

static std::optional<bool> dictEquals(const PyDict &A, const PyDict &B) {
  if (A.size() != B.size())
    return false;
  bool AllKnown = true;
  for (const auto &[Key, Value] : A) {
    const PyValue *Other = nullptr;
    for (const auto &[K2, V2] : B) {
      std::optional<bool> KE = Key.equals(K2);
      if (KE && *KE) {
        Other = &V2;
        break;
      }
      AllKnown &= KE.has_value();
    }
    if (!Other) {
      if (!AllKnown)
        return std::nullopt;
      return false;
    }
    std::optional<bool> VE = Value.equals(*Other);
    if (VE && !*VE)
      return false;
    AllKnown &= VE.has_value();
  }
  if (!AllKnown)
    return std::nullopt;
  return true;
}

std::optional<bool> PyValue::equals(const PyValue &O) const {
  if (isUnknown() || O.isUnknown())
    return std::nullopt;
  if (isNumber() && O.isNumber()) {
    if (isIntLike() && O.isIntLike())
      return I == O.I;
    return asFloat() == O.asFloat();
  }
  if (K != O.K)
    return false;
  switch (K) {
  case Kind::None:
    return true;
  case Kind::Str:
  case Kind::Qualified:
    return *S == *O.S;
  case Kind::Tuple:
  case Kind::List:
    return sequenceEquals(*L, *O.L);
  case Kind::Dict:
    return dictEquals(*D, *O.D);
  case Kind::Function:
    return Fn == O.Fn;
  case Kind::Lambda:
    return Lam == O.Lam;
  case Kind::Tensor: // `==` of tensors is elementwise
    return std::nullopt;
  case Kind::Config: {
    const PyConfig &A = *C, &B = *O.C;
    if (A.NumWarps != B.NumWarps || A.NumStages != B.NumStages || A.NumCtas != B.NumCtas || A.MaxNReg != B.MaxNReg ||
        bool(A.PreHook) != bool(B.PreHook) || (A.PreHook && !A.PreHook->equals(*B.PreHook).value_or(false)))
      return false;
    return dictEquals(A.Kwargs, B.Kwargs);
  }
  case Kind::Descriptor: // `is`: a descriptor equals only itself
    return Desc == O.Desc;
  default:
    return std::nullopt;
  }
}

const PyValue *PyValue::lookup(const PyValue &Key) const {
  if (K != Kind::Dict)
    return nullptr;
  for (const auto &[K2, V2] : *D) {
    std::optional<bool> E = K2.equals(Key);
    if (E && *E)
      return &V2;
  }
  return nullptr;
}

} // namespace tessel
