//===- Literals.cpp - decoding Python literal tokens ----------------------===//
/// \file
/// Implements Literals.h: integer magnitudes with 64-bit overflow detection,
/// floats through strtod, and Python's escape rules for str and bytes.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Literals.h"

#include <cctype>
#include <cstdlib>

namespace tessel::literals {

static int digitValue(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'z')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'Z')
    return C - 'A' + 10;
  return 99;
}

IntLiteral parseInt(std::string_view Text) {
  IntLiteral R;
  if (!Text.empty() && (Text.back() == 'j' || Text.back() == 'J')) {
    R.Imaginary = true;
    R.Valid = true;
    return R;
  }
  // Python 2 long suffix: tree-sitter accepts it; Python 3 does not, but the
  // value is still the obvious one.
  if (!Text.empty() && (Text.back() == 'l' || Text.back() == 'L'))
    Text.remove_suffix(1);
  unsigned Base = 10;
  if (Text.size() > 1 && Text[0] == '0') {
    char P = static_cast<char>(std::tolower(static_cast<unsigned char>(Text[1])));
    if (P == 'x')
      Base = 16;
    else if (P == 'o')
      Base = 8;
    else if (P == 'b')
      Base = 2;
    if (Base != 10)
      Text.remove_prefix(2);
  }
  bool SawDigit = false;
  for (char C : Text) {
    if (C == '_')
      continue;
    int D = digitValue(C);
    if (D >= static_cast<int>(Base))
      return R;
    SawDigit = true;
    if (R.Overflow)
      continue;
    unsigned __int128 Next = static_cast<unsigned __int128>(R.Magnitude) * Base + static_cast<unsigned>(D);
    if (Next > UINT64_MAX)
      R.Overflow = true;
    else
      R.Magnitude = static_cast<uint64_t>(Next);
  }
  R.Valid = SawDigit;
  return R;
}

FloatLiteral parseFloat(std::string_view Text) {
  FloatLiteral R;
  std::string Clean;
  Clean.reserve(Text.size());
  for (char C : Text)
    if (C != '_')
      Clean.push_back(C);
  if (!Clean.empty() && (Clean.back() == 'j' || Clean.back() == 'J')) {
    R.Imaginary = true;
    Clean.pop_back();
  }
  char *End = nullptr;
  R.Value = std::strtod(Clean.c_str(), &End);
  R.Valid = End && *End == '\0' && !Clean.empty();
  return R;
}

StringPrefix parsePrefix(std::string_view StringStart) {
  StringPrefix P;
  for (char C : StringStart) {
    switch (std::tolower(static_cast<unsigned char>(C))) {
    case 'r':
      P.Raw = true;
      break;
    case 'b':
      P.Bytes = true;
      break;
    case 'f':
      P.Format = true;
      break;
    default:
      break;
    }
    if (C == '"' || C == '\'')
      break;
  }
  return P;
}

static void appendUtf8(std::string &Out, uint32_t Cp) {
  if (Cp < 0x80) {
    Out.push_back(static_cast<char>(Cp));
  } else if (Cp < 0x800) {
    Out.push_back(static_cast<char>(0xC0 | (Cp >> 6)));
    Out.push_back(static_cast<char>(0x80 | (Cp & 0x3F)));
  } else if (Cp < 0x10000) {
    Out.push_back(static_cast<char>(0xE0 | (Cp >> 12)));
    Out.push_back(static_cast<char>(0x80 | ((Cp >> 6) & 0x3F)));
    Out.push_back(static_cast<char>(0x80 | (Cp & 0x3F)));
  } else {
    Out.push_back(static_cast<char>(0xF0 | (Cp >> 18)));
    Out.push_back(static_cast<char>(0x80 | ((Cp >> 12) & 0x3F)));
    Out.push_back(static_cast<char>(0x80 | ((Cp >> 6) & 0x3F)));
    Out.push_back(static_cast<char>(0x80 | (Cp & 0x3F)));
  }
}

/// Reads exactly N hex digits at Body[I..]; false if they are not all there.
static bool readHex(std::string_view Body, size_t I, size_t N, uint32_t &Value) {
  if (I + N > Body.size())
    return false;
  Value = 0;
  for (size_t K = 0; K < N; ++K) {
    int D = digitValue(Body[I + K]);
    if (D >= 16)
      return false;
    Value = Value * 16 + static_cast<uint32_t>(D);
  }
  return true;
}

/// Python reads source with universal newlines: a literal CR LF or lone CR
/// inside a string is a plain LF in its value.
static std::string normalizeNewlines(std::string_view Body) {
  std::string Out;
  Out.reserve(Body.size());
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] != '\r') {
      Out.push_back(Body[I]);
      continue;
    }
    Out.push_back('\n');
    if (I + 1 < Body.size() && Body[I + 1] == '\n')
      ++I;
  }
  return Out;
}

std::string decodeBody(std::string_view RawBody, StringPrefix Prefix) {
  std::string Normalized;
  std::string_view Body = RawBody;
  if (RawBody.find('\r') != std::string_view::npos) {
    Normalized = normalizeNewlines(RawBody);
    Body = Normalized;
  }
  if (Prefix.Raw)
    return std::string(Body);
  std::string Out;
  Out.reserve(Body.size());
  for (size_t I = 0; I < Body.size(); ++I) {
    char C = Body[I];
    if (C != '\\' || I + 1 == Body.size()) {
      Out.push_back(C);
      continue;
    }
    char E = Body[++I];
    switch (E) {
    case '\n':
      break; // backslash-newline continues the literal
    case '\r':
      if (I + 1 < Body.size() && Body[I + 1] == '\n')
        ++I;
      break;
    case '\\':
      Out.push_back('\\');
      break;
    case '\'':
      Out.push_back('\'');
      break;
    case '"':
      Out.push_back('"');
      break;
    case 'a':
      Out.push_back('\a');
      break;
    case 'b':
      Out.push_back('\b');
      break;
    case 'f':
      Out.push_back('\f');
      break;
    case 'n':
      Out.push_back('\n');
      break;
    case 'r':
      Out.push_back('\r');
      break;
    case 't':
      Out.push_back('\t');
      break;
    case 'v':
      Out.push_back('\v');
      break;
    case 'x': {
      uint32_t V;
      if (!readHex(Body, I + 1, 2, V)) {
        Out += "\\x";
        break;
      }
      if (Prefix.Bytes)
        Out.push_back(static_cast<char>(V));
      else
        appendUtf8(Out, V);
      I += 2;
      break;
    }
    case 'u':
    case 'U': {
      size_t N = E == 'u' ? 4 : 8;
      uint32_t V;
      if (Prefix.Bytes || !readHex(Body, I + 1, N, V) || V > 0x10FFFF) {
        Out.push_back('\\');
        Out.push_back(E);
        break;
      }
      appendUtf8(Out, V);
      I += N;
      break;
    }
    default:
      if (E >= '0' && E <= '7') {
        uint32_t V = static_cast<uint32_t>(E - '0');
        for (int K = 0; K < 2 && I + 1 < Body.size() && Body[I + 1] >= '0' && Body[I + 1] <= '7'; ++K)
          V = V * 8 + static_cast<uint32_t>(Body[++I] - '0');
        if (Prefix.Bytes)
          Out.push_back(static_cast<char>(V & 0xFF));
        else
          appendUtf8(Out, V);
        break;
      }
      // Unknown escapes (and `\N{...}`) keep the backslash, as Python does.
      Out.push_back('\\');
      Out.push_back(E);
      break;
    }
  }
  return Out;
}

} // namespace tessel::literals
