//===- LaunchSpec.cpp - how a kernel is launched, as the user states it ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A hand-written lexer and recursive-descent parser for the launch-spec
/// language, the directive finder, and the evaluator that turns a spec into
/// concrete launches. Errors are Problems of kind LaunchSpec at the range of
/// the offending token or expression; after one, the parser skips to the
/// next `name=` and carries on, so one bad entry never hides the others.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/types/Types.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

namespace tessel::launch {

//===----------------------------------------------------------------------===//
// DTypes
//===----------------------------------------------------------------------===//

namespace {

struct DTypeAlias {
  std::string_view Spelling;
  std::string_view Canonical;
};

constexpr DTypeAlias DTypes[] = {
    {"fp8e4nv", "fp8e4nv"},
    {"fp8e4b8", "fp8e4b8"},
    {"fp8e4b15", "fp8e4b15"},
    {"fp8e5", "fp8e5"},
    {"fp8e5b16", "fp8e5b16"},
    {"fp16", "fp16"},
    {"bf16", "bf16"},
    {"fp32", "fp32"},
    {"fp64", "fp64"},
    {"f16", "fp16"},
    {"f32", "fp32"},
    {"f64", "fp64"},
    {"float16", "fp16"},
    {"bfloat16", "bf16"},
    {"float32", "fp32"},
    {"float64", "fp64"},
    {"float8e4nv", "fp8e4nv"},
    {"float8e4b8", "fp8e4b8"},
    {"float8e4b15", "fp8e4b15"},
    {"float8e5", "fp8e5"},
    {"float8e5b16", "fp8e5b16"},
    {"i1", "i1"},
    {"bool", "i1"},
    {"int1", "i1"},
    {"i8", "i8"},
    {"i16", "i16"},
    {"i32", "i32"},
    {"i64", "i64"},
    {"int8", "i8"},
    {"int16", "i16"},
    {"int32", "i32"},
    {"int64", "i64"},
    {"u8", "u8"},
    {"u16", "u16"},
    {"u32", "u32"},
    {"u64", "u64"},
    {"uint8", "u8"},
    {"uint16", "u16"},
    {"uint32", "u32"},
    {"uint64", "u64"},
};

} // namespace

std::string canonicalDType(std::string_view Spelling) {
  for (const DTypeAlias &A : DTypes)
    if (A.Spelling == Spelling)
      return std::string(A.Canonical);
  return {};
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {

enum class Tok { End, Name, Int, Float, Str, Punct, Bad };

struct Token {
  Tok K = Tok::End;
  std::string_view Text;
  SourceRange Range;
};

class Lexer {
public:
  Lexer(std::string_view Text, uint32_t Base) : Text(Text), Base(Base) {}

  std::vector<Token> run() {
    std::vector<Token> Out;
    while (true) {
      skipBlanks();
      if (Pos >= Text.size()) {
        Out.push_back({Tok::End, {}, range(Pos, Pos)});
        return Out;
      }
      Out.push_back(next());
    }
  }

private:
  SourceRange range(size_t B, size_t E) const {
    return {Base + static_cast<uint32_t>(B), Base + static_cast<uint32_t>(E)};
  }

  /// Blanks include line continuations: `\` before a newline, and the `#`
  /// that opens each continued comment line.
  void skipBlanks() {
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (C == '\n') {
        AtLineStart = true;
        ++Pos;
      } else if (C == ' ' || C == '\t' || C == '\r') {
        ++Pos;
      } else if (C == '\\' && Pos + 1 < Text.size() && (Text[Pos + 1] == '\n' || Text[Pos + 1] == '\r')) {
        ++Pos;
      } else if (C == '#' && AtLineStart) {
        AtLineStart = false;
        ++Pos;
      } else {
        return;
      }
    }
  }

  static bool isWordChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

  Token next() {
    AtLineStart = false;
    size_t B = Pos;
    char C = Text[Pos];
    if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      while (Pos < Text.size() && (isWordChar(Text[Pos]) || Text[Pos] == '.'))
        ++Pos;
      return make(Tok::Name, B);
    }
    if (std::isdigit(static_cast<unsigned char>(C)) ||
        (C == '.' && Pos + 1 < Text.size() && std::isdigit(static_cast<unsigned char>(Text[Pos + 1])))) {
      const bool Hex = Text.substr(B, 2) == "0x" || Text.substr(B, 2) == "0X";
      bool Float = false;
      while (Pos < Text.size()) {
        char D = Text[Pos];
        bool Exponent = !Hex && (D == 'e' || D == 'E');
        bool ExpSign = !Hex && (D == '+' || D == '-') && (Text[Pos - 1] == 'e' || Text[Pos - 1] == 'E');
        if (!isWordChar(D) && D != '.' && !ExpSign)
          break;
        Float = Float || D == '.' || Exponent;
        ++Pos;
      }
      return make(Float ? Tok::Float : Tok::Int, B);
    }
    if (C == '\'' || C == '"') {
      // A string constexpr (`ACTIVATION="leaky_relu"`): no escapes, one line.
      size_t Close = Text.find(C, Pos + 1);
      size_t Newline = Text.find('\n', Pos + 1);
      if (Close != std::string_view::npos && Close < Newline) {
        Pos = Close + 1;
        return make(Tok::Str, B);
      }
      Pos = std::min(Newline, Text.size());
      return make(Tok::Bad, B);
    }
    if (C == '/' && Pos + 1 < Text.size() && Text[Pos + 1] == '/') {
      Pos += 2;
      return make(Tok::Punct, B);
    }
    if (std::string_view("=[](),;:+-*/%").find(C) != std::string_view::npos) {
      ++Pos;
      return make(Tok::Punct, B);
    }
    ++Pos;
    // Keep a multi-byte UTF-8 character whole so the range covers it.
    while (Pos < Text.size() && (static_cast<unsigned char>(Text[Pos]) & 0xC0) == 0x80)
      ++Pos;
    return make(Tok::Bad, B);
  }

  Token make(Tok K, size_t B) { return {K, Text.substr(B, Pos - B), range(B, Pos)}; }

  std::string_view Text;
  uint32_t Base;
  size_t Pos = 0;
  bool AtLineStart = false;
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Recursive descent over the tokens. The first error of an entry is
/// recorded and sets Failed; every parse function returns at once while
/// Failed is set (the `if (Failed)` lines), and parseEntry then skips to the
/// next `name=` and clears it.
class Parser {
public:
  Parser(std::string_view Text, uint32_t Base) : Toks(Lexer(Text, Base).run()) {
    Result.Spec.Range = {Base, Base + static_cast<uint32_t>(Text.size())};
  }

  ParsedLaunchSpec run() {
    while (peek().K != Tok::End)
      parseEntry();
    return std::move(Result);
  }

private:
  const Token &peek(size_t Ahead = 0) const { return Toks[std::min(I + Ahead, Toks.size() - 1)]; }
  const Token &take() {
    const Token &T = Toks[I];
    if (I + 1 < Toks.size())
      ++I;
    return T;
  }
  bool isPunct(std::string_view P, size_t Ahead = 0) const {
    return peek(Ahead).K == Tok::Punct && peek(Ahead).Text == P;
  }

  void fail(SourceRange R, std::string Message) {
    if (Failed)
      return;
    Result.Problems.push_back({ProblemKind::LaunchSpec, R, std::move(Message), {}, {}, {}});
    Failed = true;
  }

  static std::string describe(const Token &T) {
    if (T.K == Tok::End)
      return "the end of the spec";
    return "'" + std::string(T.Text) + "'";
  }

  void expectPunct(std::string_view P, std::string_view Context) {
    if (isPunct(P)) {
      take();
      return;
    }
    fail(peek().Range, "expected '" + std::string(P) + "' " + std::string(Context) + ", got " + describe(peek()));
  }

  /// Skips to the next `name=` (the start of the next entry).
  void recover() {
    while (peek().K != Tok::End && !(peek().K == Tok::Name && isPunct("=", 1)))
      take();
  }

  void parseEntry() {
    size_t Start = I;
    parseEntryBody();
    if (!Failed)
      return;
    Failed = false;
    if (I == Start)
      take();
    recover();
  }

  void parseEntryBody() {
    if (peek().K != Tok::Name || !isPunct("=", 1)) {
      if (peek().K == Tok::Bad)
        return fail(peek().Range, "unexpected character " + describe(peek()) + " in launch spec");
      return fail(peek().Range, "expected `name=value`, got " + describe(peek()));
    }
    const Token &Name = take();
    take(); // '='
    std::string Key(Name.Text);
    if (!Seen.insert(Key).second)
      return fail(Name.Range, "duplicate entry '" + Key + "' in launch spec");
    if (Key.find('.') != std::string::npos)
      return fail(Name.Range, "'" + Key + "' is not a valid entry name");
    parseValueFor(Key, Name.Range);
  }

  void parseValueFor(const std::string &Key, SourceRange NameRange) {
    LaunchSpec &S = Result.Spec;
    if (Key == "kernel") {
      if (peek().K != Tok::Name)
        return fail(peek().Range, "expected a kernel name after 'kernel=', got " + describe(peek()));
      S.Kernel = std::string(take().Text);
      return;
    }
    if (Key == "grid") {
      SpecExpr G = parseExpr();
      if (Failed)
        return;
      std::vector<SpecExpr> Dims = G.K == SpecExpr::Kind::Tuple ? std::move(G.Args) : std::vector<SpecExpr>{G};
      if (Dims.empty() || Dims.size() > 3)
        return fail(G.Range, "grid must have 1, 2 or 3 dimensions, got " + std::to_string(Dims.size()));
      S.Grid = std::move(Dims);
      return;
    }
    if (Key == "num_warps" || Key == "num_stages" || Key == "num_ctas") {
      SpecExpr E = parseScalarExpr();
      if (Failed)
        return;
      (Key == "num_warps" ? S.NumWarps : Key == "num_stages" ? S.NumStages : S.NumCtas) = std::move(E);
      return;
    }
    if (peek().K == Tok::Name && isPunct("[", 1) && !canonicalDType(peek().Text).empty())
      return parseTensor(Key, NameRange);
    if (peek().K == Tok::Name && isPunct("[", 1))
      return fail(peek().Range, "unknown dtype '" + std::string(peek().Text) +
                                    "'; expected a Triton dtype such as fp32, fp16, bf16, i32, i64, u8 or fp8e4nv");
    ValueSpec V;
    V.Name = Key;
    if (isPunct("[")) {
      SourceRange Open = take().Range;
      V.IsList = true;
      while (!isPunct("]")) {
        if (peek().K == Tok::End)
          return fail(Open, "unterminated '[': expected ']'");
        V.Instances.push_back(parseScalarExpr());
        if (Failed)
          return;
        if (peek().K == Tok::End)
          return fail(Open, "unterminated '[': expected ']'");
        if (!isPunct("]"))
          expectPunct(",", "between instances");
        if (Failed)
          return;
      }
      SourceRange Close = take().Range;
      if (V.Instances.empty())
        return fail({Open.Begin, Close.End}, "'" + Key + "' lists no instances");
      V.Range = {NameRange.Begin, Close.End};
    } else {
      V.Instances.push_back(parseScalarExpr());
      if (Failed)
        return;
      V.Range = {NameRange.Begin, V.Instances.back().Range.End};
    }
    S.Values.push_back(std::move(V));
  }

  /// Expressions up to `]` or `;`, comma separated, into Out.
  void parseDimList(std::vector<SpecExpr> &Out, SourceRange Open) {
    while (!isPunct("]") && !isPunct(";")) {
      if (peek().K == Tok::End)
        return fail(Open, "unterminated '[': expected ']'");
      Out.push_back(parseScalarExpr());
      if (Failed)
        return;
      if (peek().K == Tok::End)
        return fail(Open, "unterminated '[': expected ']'");
      if (!isPunct("]") && !isPunct(";"))
        expectPunct(",", "between dimensions");
      if (Failed)
        return;
    }
  }

  void parseTensor(const std::string &Key, SourceRange NameRange) {
    TensorSpec T;
    T.Name = Key;
    const Token &DT = take();
    T.DType = canonicalDType(DT.Text);
    T.DTypeRange = DT.Range;
    SourceRange Open = take().Range; // '['
    parseDimList(T.Dims, Open);
    if (Failed)
      return;
    if (isPunct(";")) {
      SourceRange Semi = take().Range;
      parseDimList(T.Strides, Open);
      if (Failed)
        return;
      if (T.Strides.size() != T.Dims.size())
        return fail({Semi.Begin, peek().Range.Begin}, "'" + Key + "' has " + std::to_string(T.Dims.size()) +
                                                          " dimensions but " + std::to_string(T.Strides.size()) +
                                                          " strides");
    }
    SourceRange Close = peek().Range;
    expectPunct("]", "after the dimensions");
    if (Failed)
      return;
    T.Range = {NameRange.Begin, Close.End};
    while (isPunct(":")) {
      take();
      if (peek().K != Tok::Name)
        return fail(peek().Range, "expected a flag after ':', got " + describe(peek()));
      const Token &Flag = take();
      T.Range.End = Flag.Range.End;
      if (Flag.Text == "randint") {
        parseRandintBounds(T);
        if (Failed)
          return;
        continue;
      }
      if (Flag.Text == "desc") {
        parseDescBlock(T);
        if (Failed)
          return;
        continue;
      }
      if (Flag.Text == "nan") {
        T.PadNan = true;
        continue;
      }
      if (!applyFlag(T, Flag.Text))
        return fail(Flag.Range, "unknown tensor flag ':" + std::string(Flag.Text) +
                                    "'; expected out, rand, randn, zeros, ones, arange, randint(LOW, HIGH), "
                                    "desc(BLOCK, ...) or nan");
    }
    if (T.PadNan && T.DescBlock.empty())
      return fail(T.Range, "':nan' is the padding of a tensor descriptor: give '" + Key + "' a ':desc(...)' first");
    if (!T.DescBlock.empty() && T.DescBlock.size() != T.Dims.size())
      return fail(T.Range, "'" + Key + "' has " + std::to_string(T.Dims.size()) + " dimensions but its descriptor " +
                               "block has " + std::to_string(T.DescBlock.size()));
    Result.Spec.Tensors.push_back(std::move(T));
  }

  /// `:desc(BM, BK)`: the block shape of the host TensorDescriptor the
  /// kernel receives; expressions over the spec's names.
  void parseDescBlock(TensorSpec &T) {
    SourceRange Open = peek().Range;
    expectPunct("(", "after ':desc'");
    while (!Failed && !isPunct(")")) {
      if (peek().K == Tok::End)
        return fail(Open, "unterminated '(': expected ')'");
      T.DescBlock.push_back(parseScalarExpr());
      if (Failed)
        return;
      if (!isPunct(")"))
        expectPunct(",", "between the block dimensions of ':desc'");
    }
    if (Failed)
      return;
    SourceRange Close = take().Range;
    if (T.DescBlock.empty())
      return fail({Open.Begin, Close.End}, "':desc()' gives no block shape");
    T.Range.End = Close.End;
  }

  /// `:randint(LOW, HIGH)`: integer literals, LOW < HIGH (torch.randint's
  /// bounds, HIGH excluded).
  void parseRandintBounds(TensorSpec &T) {
    expectPunct("(", "after ':randint'");
    int64_t Bounds[2] = {0, 0};
    for (int I = 0; I < 2 && !Failed; ++I) {
      bool Negative = isPunct("-");
      if (Negative)
        take();
      if (peek().K != Tok::Int)
        return fail(peek().Range, "expected an integer bound of ':randint', got " + describe(peek()));
      SpecExpr E = parseNumber(take());
      Bounds[I] = Negative ? -E.Int : E.Int;
      if (I == 0)
        expectPunct(",", "between the bounds of ':randint'");
    }
    if (Failed)
      return;
    SourceRange Close = peek().Range;
    expectPunct(")", "after the bounds of ':randint'");
    if (Failed)
      return;
    if (Bounds[0] >= Bounds[1])
      return fail(Close, "':randint(" + std::to_string(Bounds[0]) + ", " + std::to_string(Bounds[1]) +
                             ")' draws from an empty range: LOW must be below HIGH");
    T.Init = TensorInit::Randint;
    T.Low = Bounds[0];
    T.High = Bounds[1];
    T.Range.End = Close.End;
  }

  static bool applyFlag(TensorSpec &T, std::string_view Flag) {
    if (Flag == "out")
      T.IsOutput = true;
    else if (Flag == "rand")
      T.Init = TensorInit::Rand;
    else if (Flag == "randn")
      T.Init = TensorInit::Randn;
    else if (Flag == "zeros")
      T.Init = TensorInit::Zeros;
    else if (Flag == "ones")
      T.Init = TensorInit::Ones;
    else if (Flag == "arange")
      T.Init = TensorInit::Arange;
    else
      return false;
    return true;
  }

  /// An expression that must not be a tuple.
  SpecExpr parseScalarExpr() {
    SpecExpr E = parseExpr();
    if (!Failed && E.K == SpecExpr::Kind::Tuple)
      fail(E.Range, "a tuple is only allowed as the value of 'grid'");
    return E;
  }

  static SpecExpr binary(SpecExpr::Kind K, SpecExpr L, SpecExpr R) {
    SpecExpr E;
    E.K = K;
    E.Range = {L.Range.Begin, R.Range.End};
    E.Args.push_back(std::move(L));
    E.Args.push_back(std::move(R));
    return E;
  }

  SpecExpr parseExpr() {
    SpecExpr L = parseTerm();
    while (!Failed && (isPunct("+") || isPunct("-"))) {
      auto K = take().Text == "+" ? SpecExpr::Kind::Add : SpecExpr::Kind::Sub;
      SpecExpr R = parseTerm();
      L = binary(K, std::move(L), std::move(R));
    }
    return L;
  }

  SpecExpr parseTerm() {
    SpecExpr L = parseUnary();
    while (!Failed && (isPunct("*") || isPunct("/") || isPunct("//") || isPunct("%"))) {
      std::string_view Op = take().Text;
      auto K = Op == "*"    ? SpecExpr::Kind::Mul
               : Op == "/"  ? SpecExpr::Kind::Div
               : Op == "//" ? SpecExpr::Kind::FloorDiv
                            : SpecExpr::Kind::Mod;
      SpecExpr R = parseUnary();
      L = binary(K, std::move(L), std::move(R));
    }
    return L;
  }

  SpecExpr parseUnary() {
    if (!isPunct("-") && !isPunct("+"))
      return parsePrimary();
    const Token &Sign = take();
    SpecExpr Inner = parseUnary();
    if (Sign.Text == "+" || Failed)
      return Inner;
    SpecExpr E;
    E.K = SpecExpr::Kind::Neg;
    E.Range = {Sign.Range.Begin, Inner.Range.End};
    E.Args.push_back(std::move(Inner));
    return E;
  }

  SpecExpr parseNumber(const Token &T) {
    SpecExpr E;
    E.Range = T.Range;
    std::string S(T.Text);
    S.erase(std::remove(S.begin(), S.end(), '_'), S.end());
    const char *Begin = S.c_str();
    char *End = nullptr;
    errno = 0;
    if (T.K == Tok::Int) {
      E.K = SpecExpr::Kind::Int;
      E.Int = std::strtoll(Begin, &End, 0);
    } else {
      E.K = SpecExpr::Kind::Float;
      E.Float = std::strtod(Begin, &End);
    }
    if (End != Begin + S.size() || errno == ERANGE)
      fail(T.Range,
           std::string(T.K == Tok::Int ? "invalid integer '" : "invalid number '") + std::string(T.Text) + "'");
    return E;
  }

  SpecExpr parseCall(const Token &T) {
    SpecExpr E;
    E.Range = T.Range;
    std::string Callee(T.Text);
    if (Callee.rfind("triton.", 0) == 0)
      Callee = Callee.substr(7);
    // 0 means "two or more".
    static const std::map<std::string, size_t, std::less<>> Arity = {
        {"cdiv", 2}, {"min", 0}, {"max", 0}, {"next_power_of_2", 1}};
    auto It = Arity.find(Callee);
    if (It == Arity.end()) {
      fail(T.Range,
           "unknown function '" + std::string(T.Text) + "'; a launch spec can call cdiv, min, max and next_power_of_2");
      return E;
    }
    take(); // '('
    E.K = SpecExpr::Kind::Call;
    E.Name = Callee;
    while (!isPunct(")")) {
      if (peek().K == Tok::End) {
        fail(T.Range, "unterminated call of '" + Callee + "': expected ')'");
        return E;
      }
      E.Args.push_back(parseExpr());
      if (!Failed && !isPunct(")"))
        expectPunct(",", "between arguments");
      if (Failed)
        return E;
    }
    E.Range.End = take().Range.End;
    size_t Want = It->second;
    if ((Want && E.Args.size() != Want) || (!Want && E.Args.size() < 2))
      fail(E.Range, Callee + "() takes " + (Want ? std::to_string(Want) : std::string("at least 2")) +
                        " arguments, got " + std::to_string(E.Args.size()));
    return E;
  }

  /// `(e)` or a tuple `(e, ...)` / `(e,)`.
  SpecExpr parseParenthesized() {
    SpecExpr E;
    SourceRange Open = take().Range;
    E.Range = Open;
    if (isPunct(")")) {
      fail({Open.Begin, peek().Range.End}, "empty parentheses");
      return E;
    }
    SpecExpr First = parseExpr();
    if (Failed)
      return First;
    if (isPunct(")")) {
      take();
      return First;
    }
    E.K = SpecExpr::Kind::Tuple;
    E.Args.push_back(std::move(First));
    while (isPunct(",")) {
      take();
      if (isPunct(")"))
        break;
      E.Args.push_back(parseExpr());
      if (Failed)
        return E;
    }
    if (!isPunct(")")) {
      fail(peek().Range, "expected ')' to close the tuple, got " + describe(peek()));
      return E;
    }
    E.Range = {Open.Begin, take().Range.End};
    return E;
  }

  SpecExpr parsePrimary() {
    const Token &T = peek();
    SpecExpr E;
    E.Range = T.Range;
    switch (T.K) {
    case Tok::Int:
    case Tok::Float:
      take();
      return parseNumber(T);
    case Tok::Str:
      take();
      E.K = SpecExpr::Kind::Str;
      E.Name = std::string(T.Text.substr(1, T.Text.size() - 2));
      return E;
    case Tok::Name:
      take();
      if (T.Text == "True" || T.Text == "False") {
        E.K = SpecExpr::Kind::Bool;
        E.Int = T.Text == "True";
        return E;
      }
      if (isPunct("("))
        return parseCall(T);
      if (T.Text.find('.') != std::string_view::npos)
        fail(T.Range, "'" + std::string(T.Text) + "' is not a name a launch spec can use");
      E.K = SpecExpr::Kind::Name;
      E.Name = std::string(T.Text);
      return E;
    case Tok::Punct:
      if (T.Text == "(")
        return parseParenthesized();
      fail(T.Range, "expected a value, got " + describe(T));
      return E;
    case Tok::Bad:
      fail(T.Range, "unexpected character " + describe(T) + " in launch spec");
      return E;
    case Tok::End:
      fail(T.Range, "expected a value, got the end of the spec");
      return E;
    }
    return E;
  }

  std::vector<Token> Toks;
  size_t I = 0;
  ParsedLaunchSpec Result;
  std::set<std::string> Seen;
  bool Failed = false;
};

} // namespace

ParsedLaunchSpec parseLaunchSpec(std::string_view Text, uint32_t Base) { return Parser(Text, Base).run(); }

const ValueSpec *LaunchSpec::value(std::string_view Name) const {
  for (const ValueSpec &V : Values)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

const TensorSpec *LaunchSpec::tensor(std::string_view Name) const {
  for (const TensorSpec &T : Tensors)
    if (T.Name == Name)
      return &T;
  return nullptr;
}

const ConcreteValue *ConcreteLaunch::value(std::string_view Name) const {
  for (const ConcreteValue &V : Values)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Directives
//===----------------------------------------------------------------------===//

std::vector<LaunchDirective> findLaunchDirectives(std::string_view Source) {
  std::vector<LaunchDirective> Out;
  size_t Pos = 0;
  auto lineEnd = [&](size_t From) {
    size_t E = Source.find('\n', From);
    return E == std::string_view::npos ? Source.size() : E;
  };
  auto skipSpaces = [&](size_t P, size_t End) {
    while (P < End && (Source[P] == ' ' || Source[P] == '\t'))
      ++P;
    return P;
  };
  while (Pos < Source.size()) {
    size_t End = lineEnd(Pos);
    size_t P = skipSpaces(Pos, End);
    size_t Hash = P;
    bool Match = P < End && Source[P] == '#';
    if (Match) {
      P = skipSpaces(P + 1, End);
      Match = Source.substr(P, 7) == "tessel:";
    }
    if (Match) {
      P = skipSpaces(P + 7, End);
      Match = Source.substr(P, 6) == "launch" &&
              (P + 6 == End || Source[P + 6] == ' ' || Source[P + 6] == '\t' || Source[P + 6] == '\r');
    }
    if (!Match) {
      Pos = End + 1;
      continue;
    }
    size_t BodyBegin = P + 6, BodyEnd = End;
    // A trailing backslash continues the directive on the next comment line.
    while (true) {
      size_t Last = BodyEnd;
      while (Last > BodyBegin && (Source[Last - 1] == ' ' || Source[Last - 1] == '\t' || Source[Last - 1] == '\r'))
        --Last;
      if (Last == BodyBegin || Source[Last - 1] != '\\' || BodyEnd >= Source.size())
        break;
      size_t NextEnd = lineEnd(BodyEnd + 1);
      size_t Q = skipSpaces(BodyEnd + 1, NextEnd);
      if (Q >= NextEnd || Source[Q] != '#')
        break;
      BodyEnd = NextEnd;
    }
    while (BodyEnd > BodyBegin && Source[BodyEnd - 1] == '\r')
      --BodyEnd;
    Out.push_back({{static_cast<uint32_t>(Hash), static_cast<uint32_t>(BodyEnd)},
                   {static_cast<uint32_t>(BodyBegin), static_cast<uint32_t>(BodyEnd)}});
    Pos = BodyEnd + 1;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Instantiation
//===----------------------------------------------------------------------===//

namespace {

struct Number {
  bool IsFloat = false;
  bool IsBool = false;
  bool IsStr = false;
  int64_t Int = 0;
  double Float = 0;
  std::string Str;
  double asDouble() const { return IsFloat ? Float : static_cast<double>(Int); }
};

/// Evaluates the expressions of one instance. The first error is reported
/// and sets Failed; evaluation then unwinds returning dummy numbers, and the
/// instance is dropped.
class Evaluator {
  /// Python's integers do not overflow; a launch's sizes must fit int64.
  static constexpr const char *Overflow = "integer overflow: the value does not fit in 64 bits";

public:
  Evaluator(const LaunchSpec &Spec, const std::map<std::string, size_t> &Choice, ProblemSink &Problems)
      : Spec(Spec), Choice(Choice), Problems(Problems) {}

  bool failed() const { return Failed; }

  void fail(SourceRange R, std::string Message) {
    if (Failed)
      return;
    Problems.report(ProblemKind::LaunchSpec, R, std::move(Message));
    Failed = true;
  }

  Number value(const std::string &Name, SourceRange UseRange) {
    if (auto It = Done.find(Name); It != Done.end())
      return It->second;
    const ValueSpec *V = Spec.value(Name);
    if (!V) {
      if (Spec.tensor(Name))
        fail(UseRange, "'" + Name + "' is a tensor, not a number");
      else
        fail(UseRange, "name '" + Name + "' is not defined in the launch spec");
      return {};
    }
    if (!Active.insert(Name).second) {
      fail(UseRange, "'" + Name + "' depends on itself");
      return {};
    }
    auto C = Choice.find(Name);
    Number N = eval(V->Instances[C == Choice.end() ? 0 : C->second]);
    Active.erase(Name);
    if (!Failed)
      Done[Name] = N;
    return N;
  }

  Number eval(const SpecExpr &E) {
    using K = SpecExpr::Kind;
    Number N;
    switch (E.K) {
    case K::Int:
      N.Int = E.Int;
      return N;
    case K::Bool:
      N.Int = E.Int;
      N.IsBool = true;
      return N;
    case K::Float:
      N.IsFloat = true;
      N.Float = E.Float;
      return N;
    case K::Name:
      return value(E.Name, E.Range);
    case K::Str:
      N.IsStr = true;
      N.Str = E.Name;
      return N;
    case K::Neg: {
      Number A = eval(E.Args[0]);
      if (A.IsStr)
        fail(E.Range, "a string can only stand alone as a value");
      if (A.IsFloat) {
        A.Float = -A.Float;
      } else if (A.Int == std::numeric_limits<int64_t>::min()) {
        fail(E.Range, Overflow);
        return N;
      } else {
        A.Int = -A.Int;
      }
      A.IsBool = false;
      return A;
    }
    case K::Tuple:
      fail(E.Range, "a tuple is only allowed as the value of 'grid'");
      return N;
    case K::Call:
      return call(E);
    default: {
      Number A = eval(E.Args[0]);
      Number B = eval(E.Args[1]);
      if (A.IsStr || B.IsStr)
        fail(E.Range, "a string can only stand alone as a value");
      return Failed ? N : arith(E, A, B);
    }
    }
  }

  /// An integer-valued expression; What names it in the message.
  int64_t integer(const SpecExpr &E, const std::string &What) {
    Number N = eval(E);
    if (!Failed && (N.IsFloat || N.IsStr))
      fail(E.Range, What + " must be an integer");
    return N.Int;
  }

private:
  Number arith(const SpecExpr &E, Number A, Number B) {
    using K = SpecExpr::Kind;
    Number N;
    if (E.K == K::Div || A.IsFloat || B.IsFloat) {
      double X = A.asDouble(), Y = B.asDouble();
      if ((E.K == K::Div || E.K == K::FloorDiv || E.K == K::Mod) && Y == 0) {
        fail(E.Range, "division by zero");
        return N;
      }
      N.IsFloat = true;
      switch (E.K) {
      case K::Add:
        N.Float = X + Y;
        break;
      case K::Sub:
        N.Float = X - Y;
        break;
      case K::Mul:
        N.Float = X * Y;
        break;
      case K::Div:
        N.Float = X / Y;
        break;
      case K::FloorDiv:
        N.Float = std::floor(X / Y);
        break;
      default:
        N.Float = X - Y * std::floor(X / Y);
        break;
      }
      return N;
    }
    int64_t X = A.Int, Y = B.Int;
    bool Overflowed = false;
    switch (E.K) {
    case K::Add:
      Overflowed = __builtin_add_overflow(X, Y, &N.Int);
      break;
    case K::Sub:
      Overflowed = __builtin_sub_overflow(X, Y, &N.Int);
      break;
    case K::Mul:
      Overflowed = __builtin_mul_overflow(X, Y, &N.Int);
      break;
    default:
      if (Y == 0) {
        fail(E.Range, "division by zero");
        return N;
      }
      Overflowed = X == std::numeric_limits<int64_t>::min() && Y == -1;
      break;
    }
    if (Overflowed) {
      fail(E.Range, Overflow);
      return N;
    }
    if (E.K == K::Add || E.K == K::Sub || E.K == K::Mul)
      return N;
    // Python's floor division and modulo (the spec reads like Python).
    int64_t Q = X / Y, R = X % Y;
    if (R != 0 && ((R < 0) != (Y < 0))) {
      --Q;
      R += Y;
    }
    N.Int = E.K == K::FloorDiv ? Q : R;
    return N;
  }

  Number call(const SpecExpr &E) {
    std::vector<Number> Args;
    for (const SpecExpr &A : E.Args) {
      Args.push_back(eval(A));
      if (Args.back().IsStr)
        fail(A.Range, E.Name + "() takes numbers, not a string");
    }
    Number N;
    if (Failed)
      return N;
    if (E.Name == "cdiv") {
      if (Args[0].IsFloat || Args[1].IsFloat) {
        fail(E.Range, "cdiv() takes integers");
        return N;
      }
      if (Args[1].Int == 0) {
        fail(E.Range, "division by zero");
        return N;
      }
      int64_t X = Args[0].Int, Y = Args[1].Int;
      if (X == std::numeric_limits<int64_t>::min() && Y == -1) {
        fail(E.Range, Overflow);
        return N;
      }
      int64_t Q = X / Y;
      if ((X % Y != 0) && ((X < 0) == (Y < 0)))
        ++Q;
      N.Int = Q;
      return N;
    }
    if (E.Name == "next_power_of_2") {
      if (Args[0].IsFloat) {
        fail(E.Range, "next_power_of_2() takes an integer");
        return N;
      }
      if (Args[0].Int > (int64_t{1} << 62)) {
        fail(E.Range, Overflow);
        return N;
      }
      int64_t P = 1;
      while (P < Args[0].Int)
        P <<= 1;
      N.Int = P;
      return N;
    }
    bool Max = E.Name == "max";
    N = Args[0];
    for (size_t I = 1; I < Args.size(); ++I)
      if (Max ? Args[I].asDouble() > N.asDouble() : Args[I].asDouble() < N.asDouble())
        N = Args[I];
    return N;
  }

  const LaunchSpec &Spec;
  const std::map<std::string, size_t> &Choice;
  ProblemSink &Problems;
  std::map<std::string, Number> Done;
  std::set<std::string> Active;
  bool Failed = false;
};

std::string numberText(const Number &N) {
  if (N.IsStr)
    return "'" + N.Str + "'";
  if (N.IsBool)
    return N.Int ? "True" : "False";
  if (!N.IsFloat)
    return std::to_string(N.Int);
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", N.Float);
  return Buf;
}

/// A non-negative integer, or a reported problem.
int64_t nonNegative(Evaluator &Ev, const SpecExpr &E, const std::string &What) {
  int64_t N = Ev.integer(E, "a " + What);
  if (!Ev.failed() && N < 0)
    Ev.fail(E.Range, What + " must not be negative, got " + std::to_string(N));
  return N;
}

void concreteTensor(Evaluator &Ev, const TensorSpec &T, ConcreteLaunch &L) {
  ConcreteTensor C{T.Name, T.DType, {}, {}, 0, T.IsOutput, T.Init, T.Low, T.High, {}, T.PadNan};
  for (const SpecExpr &D : T.Dims)
    C.Shape.push_back(nonNegative(Ev, D, "tensor dimension"));
  for (const SpecExpr &B : T.DescBlock) {
    C.DescBlock.push_back(Ev.integer(B, "descriptor block dimension"));
    if (!Ev.failed() && C.DescBlock.back() == 0)
      Ev.fail(B.Range, "a descriptor block dimension of 0");
  }
  // TensorDescriptor's validate_block_shape, with its message, at the
  // dimension it names (the whole block for the element count).
  if (BlockShapeProblem P = Ev.failed() ? BlockShapeProblem{} : blockShapeProblem(C.DescBlock))
    Ev.fail(P.Dim >= 0 ? T.DescBlock[static_cast<size_t>(P.Dim)].Range
                       : SourceRange{T.DescBlock.front().Range.Begin, T.DescBlock.back().Range.End},
            P.Message);
  for (const SpecExpr &S : T.Strides)
    C.Strides.push_back(nonNegative(Ev, S, "stride"));
  if (Ev.failed())
    return;
  if (C.Strides.empty()) {
    C.Strides.assign(C.Shape.size(), 1);
    for (int D = static_cast<int>(C.Shape.size()) - 2; D >= 0; --D)
      if (__builtin_mul_overflow(C.Strides[D + 1], C.Shape[D + 1], &C.Strides[D]))
        C.Strides[D] = std::numeric_limits<int64_t>::max();
  }
  C.StorageElements = storageElements(C.Shape, C.Strides);
  if (C.StorageElements < 0) {
    Ev.fail(T.Range, "tensor '" + T.Name + "' is too large: its elements do not fit in 64-bit offsets");
    return;
  }
  L.Tensors.push_back(std::move(C));
}

std::optional<ConcreteLaunch> instance(const LaunchSpec &Spec, const std::map<std::string, size_t> &Choice,
                                       ProblemSink &Problems) {
  Evaluator Ev(Spec, Choice, Problems);
  ConcreteLaunch L;
  for (const ValueSpec &V : Spec.Values) {
    Number N = Ev.value(V.Name, V.Range);
    L.Values.push_back({V.Name, N.IsFloat, N.IsBool, N.Int, N.Float, N.IsStr, N.Str});
    if (V.IsList)
      L.Label += (L.Label.empty() ? "" : ", ") + V.Name + "=" + numberText(N);
  }
  for (const TensorSpec &T : Spec.Tensors)
    concreteTensor(Ev, T, L);
  addDescriptorValues(L);
  for (size_t D = 0; D < Spec.Grid.size(); ++D)
    L.Grid[D] = nonNegative(Ev, Spec.Grid[D], "grid dimension");
  if (Spec.NumWarps) {
    L.NumWarps = Ev.integer(*Spec.NumWarps, "num_warps");
    if (!Ev.failed() && (L.NumWarps <= 0 || (L.NumWarps & (L.NumWarps - 1))))
      Ev.fail(Spec.NumWarps->Range, "num_warps must be a power of 2");
  }
  if (Spec.NumStages) {
    L.NumStages = Ev.integer(*Spec.NumStages, "num_stages");
    if (!Ev.failed() && L.NumStages < 0)
      Ev.fail(Spec.NumStages->Range, "num_stages must not be negative");
  }
  if (Spec.NumCtas) {
    L.NumCtas = Ev.integer(*Spec.NumCtas, "num_ctas");
    if (!Ev.failed() && L.NumCtas < 1)
      Ev.fail(Spec.NumCtas->Range, "num_ctas must be at least 1");
  }
  if (Ev.failed())
    return std::nullopt;
  return L;
}

} // namespace

std::vector<DescriptorParam> descriptorParams(const std::string &Name, size_t Rank) {
  using K = DescriptorParam::Kind;
  std::vector<DescriptorParam> Out{{Name, K::Base, 0}};
  auto Each = [&](const char *Suffix, K Kind) {
    for (size_t D = 0; D < Rank; ++D)
      Out.push_back({Name + Suffix + std::to_string(D), Kind, D});
  };
  Each(".shape.", K::Shape);
  Each(".stride.", K::Stride);
  Out.push_back({Name + ".padding", K::Padding, 0});
  Out.push_back({Name + ".roundF32ToTF32", K::RoundF32ToTF32, 0});
  Each(".shape_i32.", K::ShapeI32);
  Each(".stride_i64.", K::StrideI64);
  return Out;
}

void addDescriptorValues(ConcreteLaunch &L) {
  std::vector<ConcreteValue> Added;
  for (const ConcreteTensor &T : L.Tensors) {
    if (T.DescBlock.empty())
      continue;
    for (const DescriptorParam &P : descriptorParams(T.Name, T.Shape.size())) {
      if (P.K == DescriptorParam::Kind::Base || L.value(P.Name))
        continue;
      ConcreteValue V;
      V.Name = P.Name;
      switch (P.K) {
      case DescriptorParam::Kind::Shape:
      case DescriptorParam::Kind::ShapeI32:
        V.Int = P.Dim < T.Shape.size() ? T.Shape[P.Dim] : 0;
        break;
      case DescriptorParam::Kind::Stride:
      case DescriptorParam::Kind::StrideI64:
        V.Int = P.Dim < T.Strides.size() ? T.Strides[P.Dim] : 0;
        break;
      case DescriptorParam::Kind::Padding:
        V.IsBool = true;
        V.Int = T.PadNan;
        break;
      case DescriptorParam::Kind::RoundF32ToTF32:
      case DescriptorParam::Kind::Base:
        V.IsBool = true;
        break;
      }
      Added.push_back(std::move(V));
    }
  }
  L.Values.insert(L.Values.end(), Added.begin(), Added.end());
}

int64_t storageElements(const std::vector<int64_t> &Shape, const std::vector<int64_t> &Strides) {
  if (std::find(Shape.begin(), Shape.end(), 0) != Shape.end())
    return 0;
  int64_t Last = 0, Step = 0;
  for (size_t D = 0; D < Shape.size() && D < Strides.size(); ++D)
    if (__builtin_mul_overflow(Shape[D] - 1, Strides[D], &Step) || __builtin_add_overflow(Last, Step, &Last))
      return -1;
  return Last == std::numeric_limits<int64_t>::max() ? -1 : Last + 1;
}

std::vector<ConcreteLaunch> instantiate(const LaunchSpec &Spec, ProblemSink &Problems, size_t MaxInstances) {
  std::vector<const ValueSpec *> Lists;
  for (const ValueSpec &V : Spec.Values)
    if (V.IsList)
      Lists.push_back(&V);
  std::vector<ConcreteLaunch> Out;
  std::vector<size_t> Index(Lists.size(), 0);
  for (size_t Tried = 0; Tried < MaxInstances; ++Tried) {
    std::map<std::string, size_t> Choice;
    for (size_t I = 0; I < Lists.size(); ++I)
      Choice[Lists[I]->Name] = Index[I];
    if (std::optional<ConcreteLaunch> L = instance(Spec, Choice, Problems))
      Out.push_back(std::move(*L));
    // Odometer over the lists, the last varying fastest.
    size_t D = Lists.size();
    while (D > 0) {
      --D;
      if (++Index[D] < Lists[D]->Instances.size())
        break;
      Index[D] = 0;
      if (D == 0)
        return Out;
    }
    if (Lists.empty())
      return Out;
  }
  return Out;
}

} // namespace tessel::launch
