//===- KernelReuse.h - reusing a kernel's analysis after an edit -*- C++ -*-===//
/// \file
/// An edit inside one kernel should re-check that kernel only. A kernel's
/// analysis depends on its own text, the text of every @jit helper it may
/// inline, the module-level names it resolves (imports, globals, other
/// functions), its specializations and the options: kernelInputs() collects
/// those, over-approximating (every identifier in the text counts as read),
/// so equal inputs mean an equal analysis, as long as no syntax error
/// touches them (tree-sitter's recovery depends on the surrounding text).
/// A Rebaser then moves the old analysis's byte ranges to where the same text
/// sits in the new version; a range outside every input segment, or a fact
/// that points into the old tree, makes the kernel ineligible, and it is
/// checked afresh.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_KERNELREUSE_H
#define TESSEL_COMPILER_SEMA_KERNELREUSE_H

#include "compiler/sema/KernelChecker.h"

#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace tessel::sema {

/// The module-level names a kernel's text may resolve (the tables
/// KernelChecker::evalGlobal reads), indexed once per file and shared by
/// every kernel's kernelInputs.
class ModuleNames {
public:
  struct Entry {
    std::string Fact;                             ///< what the name resolves to, spelled out
    const ast::FunctionDefStmt *Helper = nullptr; ///< a @jit function's `def`: its text is read too
    std::string Aliased;                          ///< a global bound to a function: that function's name is read too
  };
  /// Lazy: entries are made as names are looked up, for a keystroke that
  /// derives the inputs of one kernel (indexing the 39,000 names of a
  /// 13,000-kernel file per keystroke showed in its profile); not safe to
  /// share between threads then. Otherwise every name is indexed up front.
  ModuleNames(const ParsedFile &File, const ModuleInfo &Info, bool Lazy = false);
  std::optional<size_t> find(std::string_view Name) const;
  const Entry &entry(size_t Id) const { return Entries[Id]; }
  /// The module's `from m import *` statements, spelled out: a name no table
  /// has resolves through them (or is undefined without them), so they are
  /// an input of every kernel of the file.
  const std::string &starFact() const { return StarFact; }
  size_t size() const { return Entries.size(); }

private:
  static unsigned lengthBit(size_t Length) { return Length < 31 ? unsigned(Length) : 31u; }
  /// Name's entry from Info's tables, as the eager index makes it; false when
  /// no table has it.
  static bool makeEntry(const SourceText &Text, const ModuleInfo &Info, const std::string &Name, Entry &E);

  std::string StarFact;
  const SourceText *Text = nullptr;          ///< lazy only
  const ModuleInfo *Info = nullptr;          ///< lazy only
  mutable std::deque<std::string> LazyNames; ///< stable storage for Index's views

  mutable std::unordered_map<std::string_view, size_t> Index; ///< views into the ModuleInfo's keys
  mutable std::deque<Entry> Entries;
  /// Per first byte, a bit per name length (31: longer): most identifiers
  /// in a kernel are locals that fail this test before any hashing.
  uint32_t Shapes[256] = {};
};

/// Role is appended to the facts (the caller's kernel-or-helper decision).
KernelInputs kernelInputs(const ModuleNames &Names, const ParsedFile &File, const JitFunction &Kernel,
                          const std::vector<Specialization> &Specs, const AnalyzeOptions &Opts,
                          std::string_view Role = {});
/// How every KernelInputs::Facts of Kernel under Opts starts: the options.
std::string optionFacts(const std::string &Kernel, const AnalyzeOptions &Opts);
/// The test `Facts` starts with optionFacts(Kernel, Opts), without building
/// that string for each of a file's kernels on every keystroke.
class OptionFactsPrefix {
public:
  explicit OptionFactsPrefix(const AnalyzeOptions &Opts);
  bool begins(std::string_view Facts, std::string_view Kernel) const;

private:
  std::string Tail; ///< what follows the kernel's name
};

/// Maps byte ranges of an old version's input segments onto the equal-text
/// segments of the new version.
class Rebaser {
public:
  /// A rebaser when Old (read from OldFile) and New (from NewFile) are the
  /// same inputs, and no syntax error touches them; nullopt otherwise.
  static std::optional<Rebaser> match(const ParsedFile &OldFile, const KernelInputs &Old, const ParsedFile &NewFile,
                                      const KernelInputs &New);
  /// The same when the caller already knows that Old's segments had New's
  /// texts and no syntax error touched them (a cache keyed by those texts,
  /// which need not keep the old file alive).
  static std::optional<Rebaser> matchKnownText(const KernelInputs &Old, const ParsedFile &NewFile,
                                               const KernelInputs &New);
  /// The same when New's segments are Old's moved past an edit that touched
  /// none of them (analyzeFile's moved inputs: the pieces outside the changed
  /// one hold the same text), so their texts are not compared again (a
  /// keystroke compared the whole 5 MB text twice over).
  static std::optional<Rebaser> matchMoved(const ParsedFile &OldFile, const KernelInputs &Old,
                                           const ParsedFile &NewFile, const KernelInputs &New);

  /// Each returns false, leaving its argument partly moved, when a range
  /// lies outside every segment or a value refers to the old tree.
  bool rebase(SourceRange &R) const;
  bool rebase(KernelAnalysis &K) const;
  bool rebase(Problem &P) const;
  /// Every segment keeps its offset: what the old version's analysis says
  /// holds as it is, and may be shared (covers() instead of rebase()).
  bool unmoved() const;
  /// rebase(K) would succeed (with unmoved(), it would change nothing).
  bool covers(const KernelAnalysis &K) const;

private:
  bool covers(SourceRange R) const;

  std::vector<std::pair<SourceRange, int64_t>> Moves; ///< old segment, shift to its new place
};

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_KERNELREUSE_H
