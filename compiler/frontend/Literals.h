//===- Literals.h - decoding Python literal tokens --------------*- C++ -*-===//
/// \file
/// Pure functions that turn the text of Python number and string tokens into
/// values, as Python's tokenizer would: `0x_ff`, `1_000`, `1e-6`, escape
/// sequences, string prefixes. Kept apart from the tree conversion so they can
/// be tested on their own, and because the rules are Python's, not
/// tree-sitter's.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_LITERALS_H
#define TESSEL_COMPILER_FRONTEND_LITERALS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace tessel::literals {

struct IntLiteral {
  bool Valid = false;
  bool Imaginary = false; ///< `3j`: a complex constant, not an int
  uint64_t Magnitude = 0; ///< meaningful unless Overflow
  bool Overflow = false;  ///< the value needs more than 64 bits
};
/// Parses a decimal, hex, octal or binary integer token (underscores allowed).
IntLiteral parseInt(std::string_view Text);

struct FloatLiteral {
  bool Valid = false;
  bool Imaginary = false;
  double Value = 0;
};
FloatLiteral parseFloat(std::string_view Text);

/// What a string token's prefix says (`rb"..."`, `f'...'`, `u"..."`).
struct StringPrefix {
  bool Raw = false;
  bool Bytes = false;
  bool Format = false;
};
/// Reads the prefix letters of a string_start token ("rb\"", "f'''", "'").
StringPrefix parsePrefix(std::string_view StringStart);

/// Resolves escape sequences of a string body the way Python does for the
/// given prefix; raw strings come back unchanged. Unknown escapes keep their
/// backslash, `\N{...}` is kept verbatim (no Unicode name table here).
std::string decodeBody(std::string_view Body, StringPrefix Prefix);

} // namespace tessel::literals

#endif // TESSEL_COMPILER_FRONTEND_LITERALS_H
