//===- CudaReference.cpp - the CUDA C++ reference of a kernel, for the tools ===//
/// \file
/// A directive's file is relative to the Python file that holds it, as an
/// `#include "..."` is to its includer.
//===----------------------------------------------------------------------===//
#include "tools/CudaReference.h"

#include "compiler/project/Project.h"
#include "tools/CommandLine.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <filesystem>
#include <sstream>

namespace tessel::tools {

std::optional<CudaReferenceTarget> findCudaReference(const ParsedFile &File, const ModuleInfo &Info,
                                                     const std::string &FilePath, const std::string &Kernel,
                                                     std::string &Error) {
  std::vector<std::pair<uint32_t, std::string>> Starts;
  for (const auto &[Name, J] : Info.Jit)
    if (J.Def)
      Starts.emplace_back(J.Def->Range.Begin, Name);
  std::optional<reference::ReferenceDirective> D = reference::referenceFor(File.text().text(), Kernel, Starts);
  // Without a directive, the project's setting (`[references]` of tessel.toml or [tool.tessel]),
  // whose .cu path is relative to the settings file.
  std::string Base = std::string(llvm::sys::path::parent_path(FilePath)), Setting;
  if (!D) {
    std::error_code EC;
    std::filesystem::path Abs = std::filesystem::absolute(FilePath, EC);
    project::Config C = processProject().configFor(EC ? FilePath : Abs.lexically_normal().string());
    if (auto It = C.References.find(Kernel); It != C.References.end()) {
      D = reference::parseReferenceDirective(It->second);
      Base = std::string(llvm::sys::path::parent_path(C.Source));
      Setting = C.Source + ": references." + Kernel;
    }
  }
  if (!D) {
    Error = "kernel " + Kernel +
            " has no CUDA reference: add `# tessel: reference FILE.cu::KERNEL block=(...) "
            "grid=(...)` above it, or a [references] entry to tessel.toml (docs/reference-kernels.md)";
    return std::nullopt;
  }
  if (!D->Errors.empty()) {
    std::ostringstream OS;
    for (const reference::DirectiveError &E : D->Errors) {
      OS << (OS.tellp() > 0 ? "\n" : "");
      if (!Setting.empty()) {
        OS << Setting << ": error: " << E.Message;
        continue;
      }
      LineCol LC = File.text().lineCol(E.Range.Begin);
      OS << FilePath << ":" << LC.Line + 1 << ":" << LC.Column + 1 << ": error: " << E.Message;
    }
    Error = OS.str();
    return std::nullopt;
  }
  CudaReferenceTarget T;
  llvm::SmallString<256> Path(D->File);
  if (!llvm::sys::path::is_absolute(Path)) {
    Path = Base;
    llvm::sys::path::append(Path, D->File);
  }
  T.Path = std::string(Path);
  T.Label = D->File + "::" + D->Function + (D->TemplateArgs.empty() ? "" : "<" + D->TemplateArgs + ">");
  T.Directive = std::move(*D);
  return T;
}

void printClangDiagnostics(std::ostream &OS, const reference::ReferenceSource &S) {
  for (const reference::ClangDiagnostic &D : S.Diagnostics)
    OS << reference::formatDiagnostic(D) << "\n";
}

const reference::CompiledReference &CudaReferenceCompiler::compile(const backend::GpuArch &Arch, unsigned Threads,
                                                                   bool Assemble, bool KeepLlvm) {
  std::string Key = Arch.name() + "/" + std::to_string(Threads) + (Assemble ? "/asm" : "") + (KeepLlvm ? "/ll" : "");
  auto It = Done.find(Key);
  if (It != Done.end())
    return It->second;
  reference::ReferenceCompileOptions O;
  O.Arch = Arch;
  O.Threads = Threads;
  O.Assemble = Assemble;
  O.KeepLlvm = KeepLlvm;
  return Done
      .emplace(Key,
               reference::compileReference(Target.Path, Target.Directive.Function, Target.Directive.TemplateArgs, O))
      .first->second;
}

} // namespace tessel::tools
