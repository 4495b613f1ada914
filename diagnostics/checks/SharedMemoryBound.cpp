//===- SharedMemoryBound.cpp - shared memory no element type fits ---------===//
/// \file
/// The bound of SharedMemoryBound.h: per tl.dot, its loaded operands at
/// their smallest element size; the kernel's bound is the largest dot's.
//===----------------------------------------------------------------------===//
#include "diagnostics/checks/SharedMemoryBound.h"

#include "compiler/backend/Occupancy.h"

#include <algorithm>
#include <string_view>

namespace tessel::diag {

static constexpr std::string_view BoundPrefix = "out of resource: shared memory, Required: at least ";

namespace {
/// One operand's share of the bound.
struct OperandBound {
  std::string Part; ///< "operand a of tl.dot, 512x512 at 1 byte per element: 262144 bytes"
  uint64_t Bytes = 0;
};
} // namespace

static bool knownShape(const std::vector<int64_t> &S) {
  return std::all_of(S.begin(), S.end(), [](int64_t D) { return D != TileType::UnknownDim && D > 0; });
}

static std::string shapeText(const std::vector<int64_t> &S) {
  std::string T;
  for (int64_t D : S)
    T += (T.empty() ? "" : "x") + std::to_string(D);
  return T;
}

/// The operand's bytes at the smallest element size it can have.
static OperandBound operandBound(const char *Name, const std::vector<int64_t> &Shape, ScalarKind Own,
                                 ScalarKind Other) {
  uint64_t Elements = 1;
  for (int64_t D : Shape)
    Elements *= static_cast<uint64_t>(D);
  OperandBound B;
  std::string What = std::string("operand ") + Name + " of tl.dot, " + shapeText(Shape);
  if (Own != ScalarKind::Unknown) {
    B.Bytes = Elements * static_cast<uint64_t>(bitWidth(Own) / 8);
    What += " " + std::string(shortName(Own));
  } else if (Other != ScalarKind::Unknown) {
    // Equal dtypes, or both fp8 (one byte each).
    uint64_t Each = isFP8(Other) ? 1 : static_cast<uint64_t>(bitWidth(Other) / 8);
    B.Bytes = Elements * Each;
    What += " at " + std::to_string(Each) + (Each == 1 ? " byte" : " bytes") + " per element (as " +
            (isFP8(Other) ? std::string("an fp8 operand's") : "the other operand's " + std::string(shortName(Other))) +
            ")";
  } else {
    B.Bytes = Elements;
    What += " at 1 byte per element";
  }
  B.Part = What + ": " + std::to_string(B.Bytes) + " bytes";
  return B;
}

std::optional<Finding> checkSharedMemoryBound(const sema::KernelAnalysis &Kernel, int Arch) {
  if (Kernel.NumWarps < 2)
    return std::nullopt;
  unsigned Limit = backend::smLimits(backend::GpuArch{static_cast<unsigned>(Arch), false}).MaxSharedPerBlock;
  const sema::DotFact *Worst = nullptr;
  std::vector<OperandBound> WorstParts;
  uint64_t WorstBytes = 0;
  for (const sema::DotFact &D : Kernel.Dots) {
    if (D.InUndecidedBranch || (!D.ALoaded && !D.BLoaded))
      continue;
    std::vector<OperandBound> Parts;
    if (D.ALoaded && knownShape(D.AShape))
      Parts.push_back(operandBound("a", D.AShape, D.AElem, D.BElem));
    if (D.BLoaded && knownShape(D.BShape))
      Parts.push_back(operandBound("b", D.BShape, D.BElem, D.AElem));
    uint64_t Bytes = 0;
    for (const OperandBound &P : Parts)
      Bytes += P.Bytes;
    if (Bytes > WorstBytes) {
      Worst = &D;
      WorstBytes = Bytes;
      WorstParts = std::move(Parts);
    }
  }
  if (!Worst || WorstBytes <= Limit)
    return std::nullopt;
  // Triton's words (runtime/errors.py) with "at least", then what takes it.
  std::string Msg = std::string(BoundPrefix) + std::to_string(WorstBytes) +
                    ", Hardware limit: " + std::to_string(Limit) +
                    ". Reducing block sizes or `num_stages` may help. Whatever the pointers' element types (sm_" +
                    std::to_string(Arch) + "):";
  for (size_t I = 0; I < WorstParts.size(); ++I)
    Msg += (I ? "; " : " ") + WorstParts[I].Part;
  bool AtConfig = !Kernel.SpecializationSource.empty();
  Finding F{DiagId::SharedMemoryOveruse,
            codeInfo(DiagId::SharedMemoryOveruse).DefaultSeverity,
            AtConfig ? Kernel.SpecializationSource : Worst->CallRange,
            std::move(Msg),
            {},
            {},
            Kernel.Specialization};
  if (AtConfig)
    F.Related.push_back({Worst->CallRange, "the tl.dot whose operands need it", nullptr});
  return F;
}

void preferExactSharedMemory(std::vector<Finding> &Findings) {
  auto IsBound = [](const Finding &F) {
    return F.Id == DiagId::SharedMemoryOveruse &&
           std::string_view(F.Message).substr(0, BoundPrefix.size()) == BoundPrefix;
  };
  std::vector<SourceRange> Exact;
  for (const Finding &F : Findings)
    if (F.Id == DiagId::SharedMemoryOveruse && !IsBound(F))
      Exact.push_back(F.Range);
  std::erase_if(Findings, [&](const Finding &F) {
    return IsBound(F) && std::find(Exact.begin(), Exact.end(), F.Range) != Exact.end();
  });
}

/// "Required: 262144" (or "Required: at least 262144") of a TS404 message.
static std::string requiredFigure(const std::string &Message) {
  static constexpr std::string_view Key = "Required: ";
  size_t At = Message.find(Key);
  if (At == std::string::npos)
    return "";
  size_t End = Message.find(',', At);
  return Message.substr(At + Key.size(), End == std::string::npos ? std::string::npos : End - At - Key.size());
}

void markAutotuneSkips(const JitFunction &Fn, std::vector<Finding> &Findings, size_t First) {
  std::vector<size_t> Over;
  for (size_t I = First; I < Findings.size(); ++I)
    if (Findings[I].Id == DiagId::SharedMemoryOveruse)
      Over.push_back(I);
  if (!Fn.HasAutotune || Fn.Configs.size() < 2 || Over.empty())
    return;
  if (Over.size() == Fn.Configs.size()) {
    for (size_t I : Over)
      Findings[I].Message += ". Every autotune config overflows: the kernel cannot launch";
    return;
  }
  std::string Count = std::to_string(Over.size()) + " of " + std::to_string(Fn.Configs.size());
  // Configs written by one expression (a list comprehension, a helper's
  // loop) share their source place: one warning there, naming each config
  // the autotuner drops, rather than a pile of squiggles on one line.
  std::vector<bool> Drop(Findings.size(), false);
  for (size_t A = 0; A < Over.size(); ++A) {
    Finding &F = Findings[Over[A]];
    if (Drop[Over[A]])
      continue;
    std::vector<size_t> Same;
    for (size_t B = A + 1; B < Over.size(); ++B)
      if (Findings[Over[B]].Range == F.Range)
        Same.push_back(Over[B]);
    F.Sev = Severity::Warning;
    if (Same.empty()) {
      F.Message += ". @triton.autotune skips this config of `" + Fn.Name + "` (" + Count + " configs overflow)";
      continue;
    }
    std::string Here = std::to_string(Same.size() + 1);
    F.Message += ". @triton.autotune skips these " + Here + " of `" + Fn.Name + "`'s " +
                 std::to_string(Fn.Configs.size()) + " configs" +
                 (Same.size() + 1 == Over.size() ? "" : " (" + std::to_string(Over.size()) + " overflow in all)") +
                 ": " + F.Specialization + " (" + requiredFigure(F.Message) + ")";
    for (size_t I : Same) {
      F.Message += "; " + Findings[I].Specialization + " (" + requiredFigure(Findings[I].Message) + ")";
      Drop[I] = true;
    }
    F.Specialization.clear();
    std::erase_if(F.Related, [](const RelatedLocation &R) { return R.Message.rfind("under ", 0) == 0; });
  }
  size_t I = 0;
  std::erase_if(Findings, [&](const Finding &) { return Drop[I++]; });
}

} // namespace tessel::diag
