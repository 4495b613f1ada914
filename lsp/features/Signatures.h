//===- Signatures.h - parameter lists of what a kernel calls ----*- C++ -*-===//
/// \file
/// The parameters of a callee as signature help and keyword completion show
/// them: a `tl.*` builtin (from BuiltinDocs' signature, with which parameters
/// Triton needs as compile-time constants and which strings it accepts, after
/// shared/reference/triton-3.6-facts.md §1), a `@jit` function of the file
/// (its `def`, constexpr from the `tl.constexpr` annotation), or a launch
/// `kernel[grid](...)` (the kernel's parameters, then the launch options).
/// Callees are resolved through the file's imports, so `tl.load`,
/// `triton.language.load` and `from triton.language import load` agree.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_SIGNATURES_H
#define TESSEL_LSP_FEATURES_SIGNATURES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/support/SourceText.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct ParamInfo {
  std::string Name;  ///< "mask"; "*shape" keeps its star
  std::string Label; ///< as written in the signature: "mask=None"
  bool Constexpr = false;
  bool Variadic = false;           ///< `*args`: every later positional argument is this one
  bool LaunchOption = false;       ///< num_warps and the other options of a launch
  std::vector<std::string> Values; ///< the strings Triton accepts, when it checks them
  std::string Doc;
};

struct SignatureInfo {
  std::string Label; ///< "tl.load(pointer, mask=None, ...)"
  std::string Doc;
  std::vector<ParamInfo> Params;
  /// Offsets of each parameter's label inside Label.
  std::vector<std::pair<uint32_t, uint32_t>> ParamOffsets;
};

/// The signature of a callee another module of the project defines, by the
/// callee as written at the call ("kernel", "ops.kernel"); nullopt for
/// anything else. The server answers it through the project
/// (ProjectNavigation's signatureInProject).
using ImportedSignatures = std::function<std::optional<SignatureInfo>(const std::string &Callee, bool IsLaunch)>;

/// The signature of Callee as written at a call ("tl.load", "helper"), or
/// nullopt when it names nothing tessel knows. IsLaunch: `Callee[grid](`.
/// A callee the file's own tables do not know is asked of Imported (a
/// kernel imported from another module), when given.
std::optional<SignatureInfo> signatureOf(const ModuleInfo &Info, const SourceText &Text, const std::string &Callee,
                                         bool IsLaunch, const ImportedSignatures *Imported = nullptr);

/// The signature of the @jit function J of the module with Info and Text
/// (a launch's adds the launch options).
SignatureInfo jitSignature(const ModuleInfo &Info, const SourceText &Text, const JitFunction &J, bool IsLaunch);

/// The signature of a builtin by its name under triton.language ("load",
/// "math.exp"), or nullopt.
std::optional<SignatureInfo> builtinSignature(std::string_view Name);

/// Which parameter a call's argument binds to: the keyword's, else the
/// Positional-th (a variadic parameter takes the rest). -1 when none.
int activeParameter(const SignatureInfo &S, unsigned Positional, const std::string &Keyword);

/// The launch options of `kernel[grid](...)` (Triton 3.6's JITFunction.run).
const std::vector<ParamInfo> &launchOptions();

/// The names `triton.language.math` defines in Triton 3.6.
const std::vector<std::string_view> &mathNames();

/// `q` with its leading import alias spelled out: "tl.load" -> "triton.language.load".
std::string qualifyDotted(const ModuleInfo &Info, const std::string &Dotted);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_SIGNATURES_H
