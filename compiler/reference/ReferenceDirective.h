//===- ReferenceDirective.h - `# tessel: reference` in a kernel's file -*- C++ -*-===//
/// \file
/// The link from a Triton kernel to its CUDA C++ reference, written as a
/// comment next to the kernel (like `# tessel: launch`, docs/reference-kernels.md):
///
///   # tessel: reference softmax_ref.cu::softmax_rows<256> block=(256,) grid=(n_rows,)
///   #   x=x_ptr y=out_ptr torch=torch.softmax(x, -1)
///
/// (the first line ends in a backslash to continue on the second)
///
/// The first entry is FILE::NAME with optional template arguments (the file
/// relative to the Python file); then, in any order, `block=` and `grid=`
/// (launch-spec expressions over the launch's sizes and scalars, evaluated by
/// compiler/frontend's LaunchSpec), `kernel=` (the Triton kernel it belongs
/// to; default: the first kernel defined below it), `torch=` (a PyTorch
/// expression over the launch's tensors, the rest of the line), and
/// `PARAM=NAME` for a CUDA parameter whose name differs from the launch's.
///
/// Parsing never fails: what does not parse is an error with the byte range of
/// the offending text, and the entries that did parse are kept.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_REFERENCEDIRECTIVE_H
#define TESSEL_COMPILER_REFERENCE_REFERENCEDIRECTIVE_H

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/support/SourceRange.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::reference {

/// A CUDA parameter named in the directive: `PARAM=NAME`.
struct ParamRename {
  std::string Param, Name;
  SourceRange Range;
};

struct DirectiveError {
  SourceRange Range;
  std::string Message;
};

struct ReferenceDirective {
  SourceRange Range;        ///< from `#` to the end of the last continued line
  std::string File;         ///< as written: relative to the Python file, or absolute
  std::string Function;     ///< the `__global__` function's name
  std::string TemplateArgs; ///< "256" for `softmax_rows<256>`; empty: not a template instance
  SourceRange TargetRange;  ///< `FILE::NAME<...>`
  std::string Kernel;       ///< `kernel=`: the Triton kernel; empty: the next one defined below
  std::vector<ParamRename> Renames;
  std::vector<launch::SpecExpr> Block, Grid; ///< empty: not given
  std::string Torch;                         ///< `torch=`: empty when not given
  SourceRange TorchRange;
  std::vector<DirectiveError> Errors;

  /// The launch's name for CUDA parameter Param: its rename, else Param.
  std::string launchNameOf(std::string_view Param) const;
};

/// Every `# tessel: reference` directive of a Python file, in order (a
/// trailing backslash continues one on the next comment line).
std::vector<ReferenceDirective> findReferenceDirectives(std::string_view Source);

/// Parses the text after `reference`; Text[0] is at byte Base of the file.
ReferenceDirective parseReferenceDirective(std::string_view Text, uint32_t Base = 0);

/// The directive of kernel K in Source: one naming it with `kernel=`, else one
/// whose next `def` below is K's; nullopt when none. DefOffsets are the byte
/// offsets of the file's kernel definitions (decorator line), sorted, with names.
std::optional<ReferenceDirective> referenceFor(std::string_view Source, std::string_view Kernel,
                                               const std::vector<std::pair<uint32_t, std::string>> &KernelStarts);

/// Block or grid expressions evaluated over the launch's values (the grid
/// pads to three dimensions with 1). An error names what failed.
struct Dims3 {
  std::array<int64_t, 3> D = {1, 1, 1};
  std::string Error;
};
Dims3 evaluateDims(const std::vector<launch::SpecExpr> &Exprs, const launch::ConcreteLaunch &L, std::string_view What);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_REFERENCEDIRECTIVE_H
