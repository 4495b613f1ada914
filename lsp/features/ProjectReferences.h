//===- ProjectReferences.h - references and rename across the project -*- C++ -*-===//
/// \file
/// A top-level function (the case that matters: a `@jit` helper in a utils
/// module) is named in other files through their imports. This finds every
/// such token in the project: the definition and the uses in its own file
/// (References.h's search), and in each file that imports it the name in
/// the import statement (`from .utils import helper`, a re-export in an
/// `__init__.py` included), the uses of that name when the import binds it
/// unaliased, and the attribute uses `utils.helper` through a module import.
/// Whether a token means the function is decided by the project's import
/// resolution (compiler/project), never by spelling alone.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_PROJECTREFERENCES_H
#define TESSEL_LSP_FEATURES_PROJECTREFERENCES_H

#include "compiler/project/Project.h"
#include "lsp/features/References.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

/// A top-level function of the project: the file that defines it and its name.
struct ProjectFunction {
  std::string DefPath;
  std::string Name;
  SourceRange At; ///< the token under the cursor in the file asked about
};

/// The function the cursor names in F: one F defines (the cursor on its
/// `def` or a use) or one F imports from another module of the project.
/// Nullopt with Why for anything else (a local, a parameter, a builtin...).
std::optional<ProjectFunction> projectFunctionAt(const AnalyzedFile &F, uint32_t Offset, project::Project &P,
                                                 std::string &Why);

/// The occurrences in one file, with the text their ranges refer to.
struct FileOccurrences {
  std::string Path;
  std::shared_ptr<const SourceText> Text;
  std::vector<Occurrence> Occurrences;
};

/// Every occurrence of Fn in the files Candidates (absolute paths; the
/// defining file is searched whether listed or not), one entry per file
/// with at least one, the defining file first. Open buffers are read through
/// the project's overlays, so ranges refer to the editor's text.
std::vector<FileOccurrences> projectOccurrences(const ProjectFunction &Fn, const std::vector<std::string> &Candidates,
                                                project::Project &P);

/// The keywords that name parameter Param of Fn at its calls and launches
/// in the files Candidates other than Fn's own (`k[grid](..., BLOCK=128)`
/// in a host module that imports the kernel): References.h's search covers
/// the defining file, this the rest of the project. One entry per file.
std::vector<FileOccurrences> projectKeywordOccurrences(const ProjectFunction &Fn, const std::string &Param,
                                                       const std::vector<std::string> &Candidates, project::Project &P);

/// Why renaming Fn to NewName in those files would change what the code
/// means ("" when it would not): not an identifier, a keyword, or a name a
/// file already binds at module level.
std::string projectRenameProblem(const ProjectFunction &Fn, const std::vector<FileOccurrences> &Files,
                                 const std::string &NewName, project::Project &P);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_PROJECTREFERENCES_H
