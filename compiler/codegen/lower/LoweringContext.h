//===- LoweringContext.h - state shared by the op lowerings -----*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// What every lowering family (one file each in this folder, declared in
/// Lowerings.h) works with while it turns tile-IR ops into LLVM IR:
///
///  - a Tile per IR value: its LinearLayout and one LLVM value per register
///    (NumRegs of them; a scalar has one, held by every thread);
///  - the IRBuilder, positioned where the op's code goes;
///  - the thread's lane and warp ids (computed once in the prologue block)
///    and, per layout, the thread's part of each coordinate;
///  - layout conversion (`convert`: in registers when the new layout only
///    selects registers, else through the dynamic shared memory), barriers,
///    shared buffers: every use of shared memory is a buffer of the
///    SharedMemoryPlanner, asked for with scratch() (used only by the code
///    emitted next) or openShared()/closeShared() (live across other code);
///    every use starts after a barrier, so buffers that are not live at the
///    same time may share bytes. A buffer's base is a placeholder until
///    finishShared() places the buffers and rewrites the bases to offsets of
///    `global_smem`;
///  - problems: an op a family cannot lower reports UnsupportedConstruct at
///    its range and gives poison results, so lowering goes on and reports
///    every such op once; the module is then dropped.
///
/// Control flow in the tile IR is uniform (conditions and bounds are
/// scalars every thread holds), so barriers may sit inside any region.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGCONTEXT_H
#define TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGCONTEXT_H

#include "compiler/codegen/AxisInfo.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/LayoutAssignment.h"
#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/SharedMemoryPlanner.h"
#include "compiler/codegen/TmaDescriptors.h"
#include "compiler/codegen/layout/ConversionSwizzle.h"
#include "compiler/codegen/layout/LinearLayout.h"
#include "compiler/codegen/layout/WgmmaLayout.h"
#include "compiler/ir/Ops.h"
#include "compiler/numerics/FloatFormats.h"
#include "compiler/support/SourceText.h"

#include <llvm/Analysis/InstSimplifyFolder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tessel::codegen {

/// The numerics format of an fp8 element kind (its decode table and
/// encoder); nullopt for every other kind.
std::optional<numerics::FloatFormat> fp8Format(ScalarKind K);

/// A descriptor the kernel copies through its tensor map (Tma.cpp).
struct TmaDescriptor {
  NvmmaLayout Layout;      ///< the block's buffer (Triton's descriptor encoding)
  int64_t Box[2] = {0, 0}; ///< rows and columns of one copy
  /// The map's generic address: a host descriptor's grid-constant
  /// parameter (KernelABI::Tma), or the global scratch a
  /// tl.make_tensor_descriptor built it in (TensormapCreate.cpp).
  llvm::Value *Map = nullptr;
};

/// An IR value in registers.
struct Tile {
  LinearLayout Layout;
  std::vector<llvm::Value *> Regs;
};

/// Registers' LLVM type for element type E (LoweringContext::regType).
llvm::Type *registerType(llvm::LLVMContext &Ctx, ElemType E);

class LoweringContext {
public:
  LoweringContext(const ir::Function &F, const CodegenOptions &Opts, llvm::Module &M, llvm::Function &Kernel,
                  const LayoutPlan &Plan, const AxisInfoAnalysis &AI);

  const CodegenOptions &Opts;
  llvm::LLVMContext &Ctx;
  llvm::Module &M;
  llvm::Function &Kernel;
  const LayoutPlan &Plan;
  const AxisInfoAnalysis &AI;
  /// Folds what instsimplify can as it builds (`add x, 0`, `mul x, 1`, the
  /// xor of a zero coordinate...): lowering per register makes many such
  /// values, and each costs the optimizer's passes more than the fold here.
  llvm::IRBuilder<llvm::InstSimplifyFolder> B;
  std::vector<Problem> Problems;

  // Loops.
  /// A loop-carried phi at B's insertion point (the loop header): Init from
  /// Pre, and until closeLoopPhi an opaque stand-in for the value from the
  /// latch. instsimplify threads an operation over a phi's incoming values,
  /// so over a phi that had only its initial value `k * BLOCK_K` in the
  /// body would fold to the first iteration's 0 (every stage read as stage 0).
  llvm::PHINode *loopPhi(llvm::Value *Init, llvm::BasicBlock *Pre, const llvm::Twine &Name = "");
  /// Gives P (from loopPhi) its value from the latch.
  void closeLoopPhi(llvm::PHINode *P, llvm::Value *Next, llvm::BasicBlock *Latch);
  /// Removes the stand-ins' declarations once every loop is closed; one
  /// still in use (a tessel bug) stays, and the module verifier rejects it.
  void finishLoops();

  // Values.
  /// The tile of V; poison in V's wanted layout when V was never lowered
  /// (after a reported problem).
  const Tile &get(const ir::Value *V);
  /// V's tile in layout L (converted when it is not).
  Tile getAs(const ir::Value *V, const LinearLayout &L);
  void set(const ir::Value *V, Tile T);
  /// The layout the plan wants for V (or WantedOverride's).
  LinearLayout wanted(const ir::Value *V) const {
    auto It = WantedOverride.find(V);
    return It != WantedOverride.end() ? It->second : Plan.wanted(V);
  }
  /// Layouts that replace the plan's while a lowering re-emits ops in
  /// another layout (Pipeline.cpp's producer).
  std::unordered_map<const ir::Value *, LinearLayout> WantedOverride;
  /// Set while a pipelined loop's rings are live (Pipeline.cpp): getAs then
  /// recomputes every pure value it can, floating-point ones too, since a
  /// conversion's scratch would add to the kernel's shared memory.
  bool RematerializeAll = false;
  /// V, a pure op's result, recomputed in layout L (its op lowered again
  /// with L for its result, its operands taken as getAs gives them) instead
  /// of converted through shared memory, as Triton's
  /// RemoveLayoutConversions rematerializes cheap values; nullopt for
  /// anything else. getAs does it for integer and mask tiles (indices,
  /// offsets, pointers, compares) everywhere, and for every pure value
  /// while a pipelined loop's rings are live (Pipeline.cpp).
  std::optional<Tile> rematerialize(const ir::Value *V, const LinearLayout &L);

  // Types.
  /// Registers' type: i1..i64, half, bfloat, float, double, fp8 as i8,
  /// pointers as `ptr addrspace(1)`.
  llvm::Type *regType(ElemType E);
  /// In memory: as regType, but i1 is a byte.
  llvm::Type *memType(ElemType E);
  llvm::Value *toMem(llvm::Value *V, ElemType E);
  llvm::Value *fromMem(llvm::Value *V, ElemType E);

  // Threads and coordinates.
  llvm::Value *laneId() const { return Lane; }
  llvm::Value *warpId() const { return Warp; }
  llvm::Value *threadId() const { return Tid; }
  /// tl.program_id(Axis) and tl.num_programs(Axis), Axis 0..2 (i32): the
  /// block's index in the grid and the grid's size along it.
  llvm::Value *programId(unsigned Axis);
  llvm::Value *numPrograms(unsigned Axis);
  /// The thread's part of each coordinate of L (i32, one per dimension).
  const std::vector<llvm::Value *> &threadCoord(const LinearLayout &L);
  /// Coordinate Dim of register R of L, for this thread (i32).
  llvm::Value *coord(const LinearLayout &L, unsigned R, unsigned Dim);
  /// True on the thread that owns its elements of L; null when every
  /// thread does (no replication).
  llvm::Value *ownerPredicate(const LinearLayout &L);
  /// Row-major element index of register R's coordinate (i32).
  llvm::Value *linearIndex(const LinearLayout &L, unsigned R);

  // Layouts and shared memory.
  Tile convert(const Tile &T, const LinearLayout &To, ElemType E);
  /// convert's shared-memory round trip through Buf (the tile squeezed by
  /// Rounds, one pass per round) as Triton's swizzled conversions
  /// (CodegenOptions::TritonEpilogue); false, nothing emitted and Out
  /// untouched, where the squeezed tile has no row of 16 bytes or more.
  bool convertSwizzled(const Tile &T, const LinearLayout &To, ElemType E, llvm::Value *Buf,
                       const ConversionRounds &Rounds, Tile &Out);
  /// Where register R of layout L (one of a conversion's two) sits in its
  /// buffer, given the thread's squeezed coordinates TC of L.
  using ConversionElement =
      std::function<llvm::Value *(const LinearLayout &L, const std::vector<llvm::Value *> &TC, unsigned R)>;
  /// The rounds of a conversion (ConversionRounds): in each, T's registers
  /// of the round are written VS at a time, then To's read VL at a time,
  /// each at its Element, barriers around; Out gets To's registers.
  void roundTrip(const Tile &T, const LinearLayout &To, ElemType E, const ConversionRounds &Rounds, unsigned VS,
                 unsigned VL, const ConversionElement &Element, Tile &Out);
  /// threadCoord(L) in the squeezed tile of Rounds.
  std::vector<llvm::Value *> squeezedThreadCoord(const LinearLayout &L, const ConversionRounds &Rounds);
  /// A buffer for the code emitted next (live at one program point only):
  /// its base pointer. What says what it holds, for the report.
  llvm::Value *scratch(SharedBufferKind K, std::string What, uint64_t Bytes);
  /// A buffer live until closeShared(Id), for the op being lowered, at an
  /// offset that is a multiple of Align (16 or more, a power of two).
  unsigned openShared(SharedBufferKind K, std::string What, uint64_t Bytes, unsigned Stages = 1, unsigned Align = 16);
  void closeShared(unsigned Id) {
    Planner.step();
    Planner.close(Id);
  }
  llvm::Value *sharedBase(unsigned Id) const { return Bases[Id]; }
  /// Buffer Id, which holds V for User, live from where V was computed when
  /// that is in User's block: Triton places a wgmma operand's local_alloc
  /// right after the operand's definition (AccelerateMatmul's
  /// getSharedMemoryMMAOperand), so the buffers of operands computed
  /// before several dots are live together.
  void liveFromDefinition(unsigned Id, const ir::Value *V, const ir::Op &User);
  /// Writes T's registers into buffer Base at their row-major index plus
  /// ElemOffset (after a barrier when Barrier), as elements of memType(E).
  void stageToShared(const Tile &T, ElemType E, llvm::Value *Base, int64_t ElemOffset = 0, bool Barrier = true);
  /// Pointer to element Index (i32) of memType(E) in buffer Base.
  llvm::Value *sharedElement(llvm::Value *Base, ElemType E, llvm::Value *Index);
  /// "128x64 fp16": a tile type for buffer descriptions.
  static std::string tileString(const std::vector<int64_t> &Shape, ElemType E);
  void barrier();
  /// Places every buffer and rewrites the placeholder bases; returns the
  /// kernel's dynamic shared memory (SharedMemoryPlanner::total).
  uint64_t finishShared();
  const SharedMemoryPlanner &sharedPlan() const { return Planner; }
  /// The program point after each lowered op's results were made.
  std::unordered_map<const ir::Value *, unsigned> ProducedAt;

  // Software pipelining (Pipeliner.h, Pipeline.cpp).
  /// The loops to pipeline; null when none are.
  const PipelinePlan *Pipelines = nullptr;
  /// The shared stage that holds V's tile in this iteration (a pipelined
  /// load's, row major and swizzled as DotMma reads it); null when V is in
  /// registers.
  llvm::Value *stagedOperand(const ir::Value *V) const {
    auto It = Staged.find(V);
    return It == Staged.end() ? nullptr : It->second;
  }
  /// The wgmma dot whose group stays in flight after it (wait_group 1), set
  /// by Pipeline.cpp while it lowers the body of a loop that waits for it
  /// later; null: every wgmma dot waits for its own group.
  const ir::Op *AsyncWgmmaDot = nullptr;
  /// With it, in a chained loop (Pipeline.cpp's chainedAsyncDot): the dot
  /// whose wait also completes the group AsyncWgmmaDot left in flight in
  /// the previous iteration, and the carried accumulator that group writes,
  /// whose registers pass through that wait.
  const ir::Op *AsyncWgmmaDrain = nullptr;
  const ir::Value *AsyncWgmmaAcc = nullptr;
  void setStagedOperand(const ir::Value *V, llvm::Value *Stage) {
    if (Stage)
      Staged[V] = Stage;
    else
      Staged.erase(V);
  }

  // Descriptors copied through tensor maps: host ones (Codegen.cpp fills
  // it) and those TensormapCreate.cpp builds from DescriptorPlan's.
  std::unordered_map<const ir::Value *, TmaDescriptor> TmaDescriptors;
  const TmaDescriptorPlan *DescriptorPlan = nullptr;
  /// Base's tensor map; null when Base is no descriptor copied by TMA.
  const TmaDescriptor *tmaDescriptor(const ir::Value *Base) const {
    auto It = TmaDescriptors.find(Base);
    return It == TmaDescriptors.end() ? nullptr : &It->second;
  }

  /// The mbarrier wait a pipelined TMA load owes before its stage is read
  /// (Pipeline.cpp): emitted where the load op is lowered in the body.
  struct StageWait {
    llvm::Value *Barrier = nullptr, *Phase = nullptr;
  };
  std::unordered_map<const ir::Op *, StageWait> StageWaits;

  /// Runs Then after Op (an op of the block being lowered) has been lowered:
  /// the end of a buffer's life that ops nested in Op read (Tma.cpp).
  void afterOp(const ir::Op &Op, std::function<void()> Then) { AfterOp[&Op].push_back(std::move(Then)); }

  // Blocks and ops.
  void lowerBlock(const ir::Block &Blk);
  void lowerOp(const ir::Op &O);
  /// Lowers a combine region on scalar operands (custom reduce / scan).
  std::vector<llvm::Value *> lowerScalarRegion(const ir::Block &Blk, const std::vector<llvm::Value *> &Args);
  void unsupported(const ir::Op &O, const std::string &What);
  /// Gives each result of O poison in its wanted layout.
  void poisonResults(const ir::Op &O);

  // Helpers.
  llvm::Value *i32(int64_t V) { return B.getInt32(static_cast<uint32_t>(V)); }
  llvm::Function *intrinsic(unsigned ID, llvm::ArrayRef<llvm::Type *> Tys = {});
  /// A declaration of a libdevice function (`__nv_expf`...).
  llvm::FunctionCallee libdevice(const std::string &Name, llvm::Type *Ret, llvm::ArrayRef<llvm::Type *> Args);
  /// Inline PTX (Triton's PTXBuilder style): Asm with constraint string.
  llvm::Value *inlineAsm(llvm::Type *Ret, const std::string &Asm, const std::string &Constraints,
                         llvm::ArrayRef<llvm::Value *> Args, bool SideEffects = true);
  /// Tile of a scalar (every thread holds the one register).
  Tile scalarTile(llvm::Value *V) const;
  /// Gives every instruction of an op its line in Source, in scope SP.
  void setDebugScope(llvm::DISubprogram *SP, const SourceText *Source) {
    Scope = SP;
    Src = Source;
  }
  /// Block that runs once at the kernel's start; setup code goes there.
  llvm::BasicBlock *prologue() const { return Prologue; }

private:
  std::unordered_map<const ir::Value *, Tile> Values;
  std::unordered_map<const ir::Value *, llvm::Value *> Staged;
  std::unordered_map<const ir::Op *, std::vector<std::function<void()>>> AfterOp;
  std::map<std::string, std::vector<llvm::Value *>> ThreadCoords;
  llvm::BasicBlock *Prologue = nullptr;
  llvm::Value *Tid = nullptr, *Lane = nullptr, *Warp = nullptr;
  /// loopPhi's stand-ins: the parameter of a declaration made per type (an
  /// argument needs its function: value tracking reads its attributes).
  std::map<llvm::Type *, llvm::Function *> StandIns;
  llvm::GlobalVariable *Smem = nullptr;
  SharedMemoryPlanner Planner;
  /// Placeholder base of each buffer, by id.
  std::vector<llvm::GlobalVariable *> Bases;
  /// The op being lowered (buffers are attributed to it).
  const ir::Op *CurrentOp = nullptr;
  llvm::DISubprogram *Scope = nullptr;
  const SourceText *Src = nullptr;
};

/// One register V of element type From as To, rounding to nearest (the
/// register half of tl.cast, Casts.cpp); null where tessel has no such cast.
llvm::Value *castRegister(LoweringContext &C, llvm::Value *V, ElemType From, ElemType To);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGCONTEXT_H
