//===- KernelReuse.cpp - reusing a kernel's analysis after an edit --------===//
#include "compiler/sema/KernelReuse.h"

#include <algorithm>

namespace tessel::sema {

namespace {

// Bytes of multi-byte UTF-8 sequences count as identifier characters, so a
// non-ASCII name is never split into a shorter one.
bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' || static_cast<unsigned char>(C) >= 0x80;
}
bool isIdentChar(char C) { return isIdentStart(C) || (C >= '0' && C <= '9'); }

/// Collects a kernel's inputs: a worklist of texts whose identifiers are
/// resolved through the module's names.
class InputCollector {
public:
  InputCollector(const ModuleNames &Names, const SourceText &Text, std::string &Facts, KernelInputs &Out)
      : Names(Names), Text(Text), Seen(Names.size(), false), Facts(Facts), Out(Out) {}

  void scan(std::string_view S) {
    size_t I = 0;
    while (I < S.size()) {
      if (!isIdentStart(S[I])) {
        ++I;
        continue;
      }
      size_t Begin = I;
      while (I < S.size() && isIdentChar(S[I]))
        ++I;
      std::optional<size_t> Id = Names.find(S.substr(Begin, I - Begin));
      if (Id && *Id >= Seen.size())
        Seen.resize(*Id + 1, false); // a lazy index grows as names are looked up
      if (Id && !Seen[*Id]) {
        Seen[*Id] = true;
        resolve(Names.entry(*Id));
      }
    }
  }

  /// The kernel's own name: its fact counts, but its text is scanned once,
  /// as the kernel, not again as a helper.
  void markKernel(const std::string &Name) {
    if (std::optional<size_t> Id = Names.find(Name)) {
      if (*Id >= Seen.size())
        Seen.resize(*Id + 1, false);
      Seen[*Id] = true;
      Facts += Names.entry(*Id).Fact;
    }
  }

private:
  void resolve(const ModuleNames::Entry &E) {
    Facts += E.Fact;
    if (E.Helper) {
      Out.Segments.push_back(E.Helper->Range);
      scan(Text.slice(E.Helper->Range));
    }
    if (!E.Aliased.empty())
      scan(E.Aliased);
  }

  const ModuleNames &Names;
  const SourceText &Text;
  std::vector<bool> Seen;
  std::string &Facts;
  KernelInputs &Out;
};

} // namespace

bool ModuleNames::makeEntry(const SourceText &Text, const ModuleInfo &Info, const std::string &Name, Entry &E) {
  // The same lookups as KernelChecker::evalGlobal; a name in several tables
  // records all of them, in this order.
  bool Found = false;
  if (auto It = Info.Jit.find(Name); It != Info.Jit.end()) {
    E.Fact += "jit " + Name + ";";
    E.Helper = It->second.Def;
    Found = true;
  }
  if (auto It = Info.Imports.find(Name); It != Info.Imports.end()) {
    E.Fact += "import " + Name + "=" + It->second + ";";
    Found = true;
  }
  if (auto It = Info.Globals.find(Name); It != Info.Globals.end()) {
    const GlobalSymbol &G = It->second;
    E.Fact += "global " + Name + (G.IsConstexpr ? " constexpr " : " ") + G.Value.repr() + " {";
    E.Fact += Text.slice(G.Range);
    E.Fact += "};";
    // `act = relu`: the kernel reaches relu's text through the global.
    if (G.Value.kind() == PyValue::Kind::Function && G.Value.asFunction())
      E.Aliased = G.Value.asFunction()->Name;
    Found = true;
  }
  if (Info.Functions.count(Name)) {
    E.Fact += "def " + Name + ";";
    Found = true;
  }
  return Found;
}

ModuleNames::ModuleNames(const ParsedFile &File, const ModuleInfo &Info, bool Lazy) {
  for (const std::string &Star : Info.StarImports)
    StarFact += "star " + Star + ";";
  if (Lazy) {
    Text = &File.text();
    this->Info = &Info;
    return;
  }
  std::vector<const std::string *> Names;
  for (const auto &[Name, Fn] : Info.Jit)
    Names.push_back(&Name);
  for (const auto &[Name, Path] : Info.Imports)
    Names.push_back(&Name);
  for (const auto &[Name, G] : Info.Globals)
    Names.push_back(&Name);
  for (const auto &[Name, Def] : Info.Functions)
    Names.push_back(&Name);
  for (const std::string *Name : Names) {
    auto [It, New] = Index.emplace(*Name, Entries.size());
    if (!New)
      continue;
    Entries.emplace_back();
    makeEntry(File.text(), Info, *Name, Entries.back());
    if (!Name->empty())
      Shapes[static_cast<unsigned char>((*Name)[0])] |= 1u << lengthBit(Name->size());
  }
}

std::optional<size_t> ModuleNames::find(std::string_view Name) const {
  if (Info) {
    if (auto It = Index.find(Name); It != Index.end())
      return It->second;
    Entry E;
    std::string Key(Name);
    if (!makeEntry(*Text, *Info, Key, E))
      return std::nullopt;
    LazyNames.push_back(std::move(Key));
    Index.emplace(LazyNames.back(), Entries.size());
    Entries.push_back(std::move(E));
    return Entries.size() - 1;
  }
  if (Name.empty() || !(Shapes[static_cast<unsigned char>(Name[0])] >> lengthBit(Name.size()) & 1u))
    return std::nullopt;
  auto It = Index.find(Name);
  if (It == Index.end())
    return std::nullopt;
  return It->second;
}

static std::string optionTail(const AnalyzeOptions &Opts) {
  return "; arch " + std::to_string(Opts.Arch) + "; max " + std::to_string(Opts.MaxSpecializations) + "; facts " +
         (Opts.RecordValueFacts ? "1" : "0") + ";";
}

std::string optionFacts(const std::string &Kernel, const AnalyzeOptions &Opts) {
  return "kernel " + Kernel + optionTail(Opts);
}

OptionFactsPrefix::OptionFactsPrefix(const AnalyzeOptions &Opts) : Tail(optionTail(Opts)) {}

bool OptionFactsPrefix::begins(std::string_view Facts, std::string_view Kernel) const {
  constexpr std::string_view Head = "kernel ";
  return Facts.size() >= Head.size() + Kernel.size() + Tail.size() && Facts.substr(0, Head.size()) == Head &&
         Facts.substr(Head.size(), Kernel.size()) == Kernel &&
         Facts.substr(Head.size() + Kernel.size(), Tail.size()) == Tail;
}

KernelInputs kernelInputs(const ModuleNames &Names, const ParsedFile &File, const JitFunction &Kernel,
                          const std::vector<Specialization> &Specs, const AnalyzeOptions &Opts, std::string_view Role) {
  KernelInputs In;
  const SourceText &Text = File.text();
  In.Segments.push_back(Kernel.Def->Range);
  std::string Facts = optionFacts(Kernel.Name, Opts);
  InputCollector Collect(Names, Text, Facts, In);
  Facts += Names.starFact();
  Collect.markKernel(Kernel.Name);
  Collect.scan(Text.slice(Kernel.Def->Range));
  std::vector<SourceRange> Sources;
  for (const Specialization &S : Specs) {
    Facts += "spec {" + S.Description + "}";
    for (const auto &[K, V] : S.Constexprs) {
      if (V.refersToTree())
        In.Reusable = false;
      std::string Repr = V.isUnknown() ? "?" : V.repr();
      Facts += K + "=" + Repr + ",";
      Collect.scan(Repr);
    }
    for (const auto &[K, T] : S.ArgTypes)
      Facts += K + ":" + T.str() + ",";
    Facts += " warps " + std::to_string(S.NumWarps) + " stages " + std::to_string(S.NumStages) + " grid//";
    for (int64_t Axis : S.FloorDividedGridAxes)
      Facts += std::to_string(Axis) + ",";
    Facts += " at {";
    Facts += Text.slice(S.Source);
    Facts += "};";
    if (!S.Source.empty())
      Sources.push_back(S.Source);
  }
  In.Segments.insert(In.Segments.end(), Sources.begin(), Sources.end());
  Facts += Role;
  In.Facts = std::move(Facts);
  return In;
}

/// Does a syntax error touch R? tree-sitter's recovery inside a broken
/// statement depends on the text around it, so equal text no longer means an
/// equal tree there; only error-free segments are compared by text.
static bool nearSyntaxError(const ParsedFile &File, SourceRange R) {
  for (const ast::SyntaxError &E : File.module().SyntaxErrors)
    if (E.Range.Begin <= R.End && R.Begin <= E.Range.End)
      return true;
  return false;
}

std::optional<Rebaser> Rebaser::match(const ParsedFile &OldFile, const KernelInputs &Old, const ParsedFile &NewFile,
                                      const KernelInputs &New) {
  if (!Old.Reusable || !New.Reusable || Old.Facts != New.Facts || Old.Segments.size() != New.Segments.size())
    return std::nullopt;
  Rebaser R;
  for (size_t I = 0; I < Old.Segments.size(); ++I) {
    SourceRange O = Old.Segments[I], N = New.Segments[I];
    if (OldFile.text().slice(O) != NewFile.text().slice(N) || nearSyntaxError(OldFile, O) ||
        nearSyntaxError(NewFile, N))
      return std::nullopt;
    R.Moves.push_back({O, int64_t(N.Begin) - int64_t(O.Begin)});
  }
  return R;
}

std::optional<Rebaser> Rebaser::matchMoved(const ParsedFile &OldFile, const KernelInputs &Old,
                                           const ParsedFile &NewFile, const KernelInputs &New) {
  // What matchKnownText cannot know without the old file: no syntax error
  // touched the old segments either.
  for (SourceRange O : Old.Segments)
    if (nearSyntaxError(OldFile, O))
      return std::nullopt;
  return matchKnownText(Old, NewFile, New);
}

std::optional<Rebaser> Rebaser::matchKnownText(const KernelInputs &Old, const ParsedFile &NewFile,
                                               const KernelInputs &New) {
  if (!Old.Reusable || !New.Reusable || Old.Facts != New.Facts || Old.Segments.size() != New.Segments.size())
    return std::nullopt;
  Rebaser R;
  for (size_t I = 0; I < Old.Segments.size(); ++I) {
    SourceRange O = Old.Segments[I], N = New.Segments[I];
    if (O.End - O.Begin != N.End - N.Begin || nearSyntaxError(NewFile, N))
      return std::nullopt;
    R.Moves.push_back({O, int64_t(N.Begin) - int64_t(O.Begin)});
  }
  return R;
}

bool Rebaser::rebase(SourceRange &R) const {
  if (R == SourceRange{})
    return true; // "no range" (a specialization from the defaults alone)
  for (const auto &[Segment, Shift] : Moves)
    if (Segment.contains(R)) {
      R.Begin = static_cast<uint32_t>(R.Begin + Shift);
      R.End = static_cast<uint32_t>(R.End + Shift);
      return true;
    }
  return false;
}

bool Rebaser::rebase(KernelAnalysis &K) const {
  if (!rebase(K.SpecializationSource))
    return false;
  for (ValueFact &V : K.Values)
    if (!rebase(V.Range) || V.Constexpr.refersToTree())
      return false;
  for (MemoryAccess &A : K.Accesses)
    if (!rebase(A.CallRange) || !rebase(A.PointerRange) || (A.EnclosingWhere && !rebase(*A.EnclosingWhere)))
      return false;
  for (DotFact &D : K.Dots)
    if (!rebase(D.CallRange))
      return false;
  return true;
}

bool Rebaser::unmoved() const {
  return std::all_of(Moves.begin(), Moves.end(), [](const auto &M) { return M.second == 0; });
}

bool Rebaser::covers(SourceRange R) const {
  if (R == SourceRange{})
    return true;
  return std::any_of(Moves.begin(), Moves.end(), [&](const auto &M) { return M.first.contains(R); });
}

bool Rebaser::covers(const KernelAnalysis &K) const {
  if (!covers(K.SpecializationSource))
    return false;
  for (const ValueFact &V : K.Values)
    if (!covers(V.Range) || V.Constexpr.refersToTree())
      return false;
  for (const MemoryAccess &A : K.Accesses)
    if (!covers(A.CallRange) || !covers(A.PointerRange) || (A.EnclosingWhere && !covers(*A.EnclosingWhere)))
      return false;
  return true;
}

bool Rebaser::rebase(Problem &P) const {
  return moveOwnRanges(P, [this](SourceRange &R) { return rebase(R); });
}

} // namespace tessel::sema
