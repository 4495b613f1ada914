//===- SymbolicTir.h - tile IR values as Z3 terms, lane by lane -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Evaluates a value of a Function at one symbolic lane of its tile: the
/// result is a Z3 term over the free variables of a Side (program ids, lane
/// indices, loop iteration counts, values loaded from memory) and of the
/// launch (scalar arguments, grid). For a `[4] i32` value
///
///   %4 = arange 0, 4          at lane l:  l
///   %5 = mul %pid, 4          pid * 4
///   %6 = add splat(%5), %4    pid * 4 + l
///   %7 = addptr splat(%x), %6 pointer to argument x, offset pid * 4 + l
///
/// Shape ops map the lane (broadcast takes index 0 along grown dims,
/// expand_dims drops one, permute reorders, reshape re-linearises), so every
/// value is evaluated only at the lanes the access it feeds reads.
///
/// Integers are bit-vectors: in the Wrapping model of their own width (as the
/// GPU computes), in the Exact model all 64 bits wide (no wraparound: the
/// conventional reading, which assumes tensors below 2^31 elements). i1 is
/// a Z3 Bool. A loop's induction variable is lb + t * step for an iteration
/// count t bounded by the loop; a carried value is init + t * delta when
/// each iteration adds the same delta (pointer increments, counters), and
/// unknown otherwise. Floats and anything else the model does not follow
/// are Kind::None; integers and booleans computed from loaded data are fresh
/// variables marked Data (their dtype's whole range).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_SYMBOLICTIR_H
#define TESSEL_COMPILER_ANALYSIS_SYMBOLICTIR_H

#include "compiler/analysis/TermRange.h"
#include "compiler/ir/Ops.h"

#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel::analysis {

enum class IntModel { Wrapping, Exact };

/// One value at one lane.
struct Sym {
  enum class Kind { None, Int, Bool, Ptr };
  Kind K = Kind::None;
  z3::expr E;        ///< Int: a bit-vector; Bool: a Bool; Ptr: the offset in elements (64 bits)
  int Base = -1;     ///< Ptr: the kernel parameter it points into, -1 when unknown
  bool Data = false; ///< depends on values loaded from memory (or on anything not modelled)
  explicit Sym(z3::context &C) : E(C) {}
};

/// The free variables of one copy of the kernel's execution: an access's
/// program, lane and loop iterations. Two copies (the access and a
/// reference access it is compared with) are two Sides.
struct SideVars {
  std::string Tag;
  unsigned Id = 0;                   ///< unique per Encoder (cache keys)
  std::vector<z3::expr> Pid;         ///< three program ids
  std::vector<z3::expr> Constraints; ///< their domains: pid < grid, loop bounds
  std::vector<z3::expr> Vars;        ///< every variable created for this side
  std::set<unsigned> VarIds;
  struct Loop {
    z3::expr T;  ///< iteration count
    z3::expr Iv; ///< lb + T * step, in the induction variable's width
  };
  std::map<const ir::Op *, Loop> Loops;
  std::vector<const ir::Op *> LoopOrder; ///< loops in creation order
  /// Integers loaded from a tensor whose contents the launch bounds
  /// (Encoder::setContents): where from and the value, for counterexamples.
  struct Loaded {
    int Param;
    z3::expr Offset; ///< elements from the parameter's base
    z3::expr Value;
  };
  std::vector<Loaded> Loads;
};

class Encoder {
public:
  /// Params: for each Function parameter, its value when the launch fixes it
  /// (a concrete integer), else nullopt (a symbolic argument variable).
  Encoder(z3::context &C, const ir::Function &F, IntModel Model, const std::vector<std::optional<int64_t>> &Params,
          const std::array<std::optional<int64_t>, 3> &Grid);

  z3::context &ctx() { return C; }
  IntModel model() const { return Model; }
  /// The symbolic integer parameters and grid dims, with their names.
  const std::vector<std::pair<std::string, z3::expr>> &launchVars() const { return LaunchVars; }
  /// Range constraints on launch variables (integer arguments 1..2^31-1, grid >= 1).
  const std::vector<z3::expr> &launchConstraints() const { return LaunchConstraints; }
  z3::expr grid(int Axis) const { return Grid[Axis]; }

  /// What the launch says a pointer parameter's tensor holds, by parameter
  /// index: every element an integer in [first, second] (`torch.randint(0,
  /// 8, ...)` gives [0, 7]). An integer loaded through such a parameter is
  /// then a variable in that range, not data: an offset built from it
  /// (`table + idx + 1`) is decided like any other.
  void setContents(std::vector<std::optional<std::pair<int64_t, int64_t>>> Ranges) { Contents = std::move(Ranges); }

  /// A new side (its program ids constrained by the grid).
  std::shared_ptr<SideVars> newSide(const std::string &Tag);
  /// Fresh lane variables for a tile of Shape on side S, with 0 <= l < dim.
  std::vector<z3::expr> lanes(SideVars &S, const std::vector<int64_t> &Shape);

  /// V at lane Idx on side S.
  Sym eval(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx);
  /// What must hold for Op to execute on side S: the conditions of the
  /// enclosing `if`s (loop domains are added to S's constraints).
  z3::expr pathCondition(SideVars &S, const ir::Op *Op);
  /// The conjunction of Mask's leaves with every `<=` against a size read as
  /// `<` that size (see BoundsProver.h); Data set when a leaf depends on data.
  Sym region(SideVars &S, const ir::Value *Mask, const std::vector<z3::expr> &Idx);

  /// Does E mention a variable of side S?
  bool mentions(const z3::expr &E, const SideVars &S);
  /// The bit-vector width integers of element type Ty get.
  unsigned width(const ElemType &Ty) const;
  /// An integer term as a signed 64-bit term.
  z3::expr toI64(const z3::expr &E, bool Signed);
  /// Free constants of E.
  std::vector<z3::expr> freeConstants(const z3::expr &E);
  /// Ranges of the variables made so far (program ids, lanes, iteration
  /// counts, launch variables) and of the terms built from them.
  TermRange &ranges() { return Ranges; }

private:
  struct Memo;
  Sym evalUncached(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx);
  Sym evalOp(SideVars &S, const ir::Op *O, unsigned Result, const std::vector<z3::expr> &Idx);
  Sym evalBlockArg(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx);
  Sym fresh(SideVars &S, const ElemType &Ty, bool Data);
  Sym intSym(const z3::expr &E) const;
  SideVars::Loop &loopState(SideVars &S, const ir::ForOp *L);
  z3::expr newVar(SideVars &S, const std::string &Name, const z3::sort &Sort);
  z3::expr constant(int64_t V, unsigned Width);
  z3::expr castInt(const z3::expr &E, bool SrcSigned, unsigned To);
  Sym leaf(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx);
  bool sizeLike(SideVars &S, const z3::expr &E);

  /// A loop-carried value that each iteration advances by the same delta.
  struct Recurrence {
    bool Affine = false;
    std::vector<z3::expr> Generic; ///< the lane variables Delta is written in
    z3::expr Delta;
    explicit Recurrence(z3::context &C) : Delta(C) {}
  };
  const Recurrence &recurrence(SideVars &S, const ir::ForOp *L, unsigned Carried);

  z3::context &C;
  const ir::Function &F;
  IntModel Model;
  std::vector<Sym> ParamSyms;
  std::vector<z3::expr> Grid;
  std::vector<std::pair<std::string, z3::expr>> LaunchVars;
  std::vector<z3::expr> LaunchConstraints;
  unsigned Counter = 0;
  /// Values bound while a recurrence is classified (placeholders for carried values).
  std::map<const ir::Value *, Sym> Bound;
  std::map<std::tuple<unsigned, const ir::Value *, std::vector<unsigned>>, Sym> Cache;
  std::map<std::tuple<unsigned, const ir::Op *, unsigned>, std::unique_ptr<Recurrence>> Recurrences;
  unsigned Classifying = 0;
  TermRange Ranges;
  std::vector<std::optional<std::pair<int64_t, int64_t>>> Contents;
};

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_SYMBOLICTIR_H
