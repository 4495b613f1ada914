//===- ResourceReport.cpp - what a compiled kernel uses -------------------===//
/// \file
/// A line scanner over the verbose report (the prefix may be `ptxas info    :`
/// or nvJitLink's own; only the text after it is read) and an ELF reader for
/// the cubin through llvm::object.
//===----------------------------------------------------------------------===//
#include "compiler/backend/ResourceReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFTypes.h"

#include <cctype>

namespace tessel::backend {

/// The number just before Word in Line ("14 registers" -> 14), if any.
static std::optional<unsigned> numberBefore(llvm::StringRef Line, llvm::StringRef Word) {
  size_t At = Line.find(Word);
  while (At != llvm::StringRef::npos) {
    llvm::StringRef Head = Line.substr(0, At).rtrim();
    size_t Start = Head.size();
    while (Start > 0 && std::isdigit(static_cast<unsigned char>(Head[Start - 1])))
      --Start;
    unsigned N = 0;
    if (Start < Head.size() && !Head.substr(Start).getAsInteger(10, N))
      return N;
    At = Line.find(Word, At + Word.size());
  }
  return std::nullopt;
}

std::optional<ResourceUsage> parseAssemblerLog(llvm::StringRef Log, llvm::StringRef Kernel) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Log.split(Lines, '\n');
  ResourceUsage U;
  bool InKernel = false, SawProps = false, SawUsed = false;
  std::string Entry = ("entry function '" + Kernel + "'").str();
  std::string Props = ("Function properties for " + Kernel).str();
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I].trim();
    if (L.contains("entry function '")) {
      InKernel = L.contains(Entry);
      continue;
    }
    if (L.contains("Function properties for ")) {
      bool Ours = L.ends_with(Props) && (L.size() == Props.size() || !std::isalnum(L[L.size() - Props.size() - 1]));
      if (!Ours || I + 1 >= Lines.size())
        continue;
      llvm::StringRef Next = Lines[I + 1];
      if (auto N = numberBefore(Next, "bytes stack frame"))
        U.StackFrame = *N;
      if (auto N = numberBefore(Next, "bytes spill stores"))
        U.SpillStores = *N;
      if (auto N = numberBefore(Next, "bytes spill loads"))
        U.SpillLoads = *N;
      SawProps = true;
      U.HasSpillCounts = true;
      continue;
    }
    if (InKernel && L.contains("Used ") && L.contains(" registers")) {
      if (auto N = numberBefore(L, " registers"))
        U.Registers = *N;
      if (auto N = numberBefore(L, " barriers"))
        U.Barriers = *N;
      if (auto N = numberBefore(L, " bytes smem"))
        U.StaticShared = *N;
      SawUsed = true;
    }
  }
  if (!SawUsed && !SawProps)
    return std::nullopt;
  return U;
}

llvm::Expected<ResourceUsage> readCubinResources(llvm::StringRef Cubin, llvm::StringRef Kernel) {
  using ELFT = llvm::object::ELF64LE;
  auto File = llvm::object::ELFFile<ELFT>::create(Cubin);
  if (!File)
    return File.takeError();
  auto Sections = File->sections();
  if (!Sections)
    return Sections.takeError();
  ResourceUsage U;
  bool Found = false;
  uint32_t Symbol = 0;
  std::string Text = (".text." + Kernel).str(), Shared = (".nv.shared." + Kernel).str();
  std::optional<llvm::ArrayRef<uint8_t>> Info;
  for (const auto &S : *Sections) {
    auto Name = File->getSectionName(S);
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (*Name == Text) {
      // sh_info: the kernel's symbol index, and (before sm_90) its register
      // count in the top byte.
      U.Registers = unsigned(S.sh_info >> 24);
      Symbol = uint32_t(S.sh_info & 0xffffff);
      Found = true;
    } else if (*Name == Shared) {
      U.StaticShared = unsigned(S.sh_size);
    } else if (*Name == ".nv.info") {
      auto Data = File->getSectionContents(S);
      if (Data)
        Info = *Data;
      else
        llvm::consumeError(Data.takeError());
    }
  }
  // The SM of the cubin: e_flags bits 8-15 from ELF ABI version 8 (CUDA
  // 13), bits 0-7 before.
  uint32_t Flags = File->getHeader().e_flags;
  unsigned Sm = File->getHeader().e_ident[llvm::ELF::EI_ABIVERSION] >= 8 ? (Flags >> 8) & 0xff : Flags & 0xff;
  constexpr unsigned Reserved = 1024;
  if (Sm >= 90 && U.StaticShared >= Reserved)
    U.StaticShared -= Reserved;
  if (Found && Info) {
    // Attributes: u8 format, u8 attribute, then by format nothing (0x01), a
    // byte (0x02), a u16 (0x03) or a u16 size and that many bytes (0x04).
    // EIATTR_REGCOUNT (0x2f) and EIATTR_FRAME_SIZE (0x11) hold a symbol
    // index and a value.
    constexpr uint8_t FrameSize = 0x11, RegCount = 0x2f;
    const uint8_t *P = Info->data(), *End = P + Info->size();
    auto U32 = [](const uint8_t *Q) {
      return uint32_t(Q[0]) | uint32_t(Q[1]) << 8 | uint32_t(Q[2]) << 16 | uint32_t(Q[3]) << 24;
    };
    while (P + 2 <= End) {
      uint8_t Fmt = P[0], Attr = P[1];
      P += 2;
      size_t Len = Fmt == 0x02 ? 1 : Fmt == 0x03 ? 2 : 0;
      if (Fmt == 0x04) {
        if (P + 2 > End)
          break;
        Len = size_t(P[0]) | size_t(P[1]) << 8;
        P += 2;
      }
      if (P + Len > End)
        break;
      if (Fmt == 0x04 && Len == 8 && U32(P) == Symbol) {
        if (Attr == RegCount)
          U.Registers = U32(P + 4);
        else if (Attr == FrameSize)
          U.StackFrame = U32(P + 4);
      }
      P += Len;
    }
  }
  if (!Found)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the cubin has no code for kernel '%s'",
                                   Kernel.str().c_str());
  return U;
}

} // namespace tessel::backend
