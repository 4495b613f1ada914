//===- ProjectNavigation.h - definition, hover, completion through imports -*- C++ -*-===//
/// \file
/// The features that follow a name into another module of the project
/// (compiler/project resolves it, as Python imports it): go to a helper
/// defined in another file, hover its signature and docstring, complete the
/// names after `from pkg.mod import `, `import pkg.` and `mod.` where `mod`
/// is an imported module of the project. Each answers only for what the
/// project resolves; the single-file features answer for the rest (the
/// server asks them first), and what resolves to Unknown gets nothing.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_PROJECTNAVIGATION_H
#define TESSEL_LSP_FEATURES_PROJECTNAVIGATION_H

#include "compiler/project/Project.h"
#include "compiler/support/SourceRange.h"
#include "lsp/features/Completion.h"
#include "lsp/features/Hover.h"
#include "lsp/features/Signatures.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

/// The token at an offset of F and what it means in another module.
struct ImportedName {
  SourceRange Range; ///< the token in F
  project::Symbol Sym;
};

/// The name under Offset when it comes from another module of the project:
/// a use of an imported name (`helper(x)`, `m.helper(x)`) or a name of an
/// import statement (`from .utils import helper`). Locals shadow imports.
std::optional<ImportedName> importedNameAt(const AnalyzedFile &F, uint32_t Offset, project::Project &P);

/// A place in another file of the project, with that file's text (to
/// convert the range for the client).
struct ProjectLocation {
  std::string Path;
  SourceRange Range;
  std::shared_ptr<const SourceText> Text;
};

/// Where the imported name under Offset is defined: a function's name, a
/// global's assignment, or the start of a module.
std::optional<ProjectLocation> definitionInProject(const AnalyzedFile &F, uint32_t Offset, project::Project &P);

/// The signature, role (kernel, helper, plain function) and docstring of the
/// imported function under Offset; a module-level value's value.
std::optional<HoverInfo> hoverInProject(const AnalyzedFile &F, uint32_t Offset, project::Project &P);

/// Completions the project answers: module names after `import ` /
/// `from `, a module's names after `from m import `, an imported module's
/// names after `m.`; nullopt where the cursor is at none of those.
std::optional<std::vector<CompletionInfo>> completeInProject(const AnalyzedFile &F, uint32_t Offset,
                                                             project::Project &P);

/// The signature of a @jit function another module of the project defines,
/// by the callee as written in F ("kernel" from `from .ops import kernel`,
/// "ops.kernel"): what signature help and launch completion show inside
/// `kernel[grid](` of an imported kernel. nullopt for anything else.
std::optional<SignatureInfo> signatureInProject(const AnalyzedFile &F, const std::string &Callee, bool IsLaunch,
                                                project::Project &P);

/// The project's ModuleRef of F (its path, as the project names modules).
project::ModuleRef moduleRefOf(const AnalyzedFile &F, project::Project &P);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_PROJECTNAVIGATION_H
