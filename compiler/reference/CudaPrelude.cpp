//===- CudaPrelude.cpp - Clang's CUDA wrapper headers, precompiled once ---===//
/// \file
/// The PCH is written to a temporary name and renamed into place, so a
/// process that reads it never sees half a file and two processes building it
/// at once both succeed. Its name hashes the driver's arguments (architecture,
/// toolkit, resource folder, flags) and Clang's version.
//===----------------------------------------------------------------------===//

#include "compiler/reference/CudaPrelude.h"

#include "compiler/backend/CompileCache.h"
#include "compiler/reference/CudaArgs.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

namespace tessel::reference {

Prelude preludeOf(const std::string &Text, const std::string &Path) {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true;
  clang::PreambleBounds B = clang::Lexer::ComputePreamble(Text, LO);
  if (B.Size == 0 || Text.find("#include", 0) >= B.Size)
    return {std::string(ShimFolder) + "/tessel-cuda-prelude.cu", ""};
  Prelude P;
  P.Text = Text.substr(0, B.Size);
  if (!B.PreambleEndsAtStartOfLine)
    P.Text += "\n";
  char Name[48];
  std::snprintf(Name, sizeof Name, ".tessel-prelude-%016llx.cu",
                static_cast<unsigned long long>(llvm::xxh3_64bits(P.Text)));
  llvm::SmallString<256> Where(llvm::sys::path::parent_path(Path));
  llvm::sys::path::append(Where, Name);
  P.Path = std::string(Where);
  return P;
}

static std::string pchPath(const std::vector<std::string> &Args) {
  std::string Key = clang::getClangFullVersion();
  for (const std::string &A : Args)
    Key += "\n" + A;
  llvm::SmallString<256> Dir(backend::CompileCache::defaultDirectory());
  if (Dir.empty())
    return "";
  llvm::sys::path::append(Dir, "cuda-pch");
  char Name[32];
  std::snprintf(Name, sizeof Name, "%016llx.pch", static_cast<unsigned long long>(llvm::xxh3_64bits(Key)));
  llvm::sys::path::append(Dir, Name);
  return std::string(Dir);
}

static bool build(const std::vector<std::string> &Args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  const std::string &Out) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Out)))
    return false;
  clang::IgnoringDiagConsumer Quiet;
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Opts->Warnings.push_back("no-unknown-cuda-version");
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  clang::CreateInvocationOptions CIO;
  CIO.Diags = clang::CompilerInstance::createDiagnostics(Opts.get(), &Quiet, /*ShouldOwnClient=*/false);
  CIO.VFS = FS;
  CIO.ProbePrecompiled = false;
  std::shared_ptr<clang::CompilerInvocation> Inv = clang::createInvocation(Argv, CIO);
  if (!Inv)
    return false;
  std::string Tmp = Out + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  Inv->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
  Inv->getFrontendOpts().OutputFile = Tmp;
  clang::CompilerInstance CI;
  CI.setInvocation(std::move(Inv));
  CI.getDiagnosticOpts().ShowCarets = false;
  CI.createDiagnostics(&Quiet, /*ShouldOwnClient=*/false);
  CI.createFileManager(FS);
  clang::GeneratePCHAction Action;
  bool Ok = CI.ExecuteAction(Action) && !CI.getDiagnostics().hasErrorOccurred();
  if (!Ok || llvm::sys::fs::rename(Tmp, Out)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

/// Each distinct set of leading includes has a PCH of its own (megabytes),
/// and an editor's buffer passes through many on the way to the one it
/// keeps: the folder holds the most recently used ones (a PCH's time is
/// touched at each use), never an unbounded history.
static constexpr size_t KeptPchs = 16;

static void evictOldPchs(llvm::StringRef Dir) {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Found;
  std::error_code Ec;
  for (llvm::sys::fs::directory_iterator It(Dir, Ec), End; It != End && !Ec; It.increment(Ec)) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::path::extension(It->path()) == ".pch" && !llvm::sys::fs::status(It->path(), St))
      Found.emplace_back(St.getLastModificationTime(), It->path());
  }
  if (Found.size() <= KeptPchs)
    return;
  std::sort(Found.begin(), Found.end(), [](const auto &A, const auto &B) { return A.first > B.first; });
  for (size_t I = KeptPchs; I < Found.size(); ++I)
    llvm::sys::fs::remove(Found[I].second);
}

std::string preludePch(const std::vector<std::string> &Args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                       bool Rebuild) {
  std::string Path = pchPath(Args);
  if (Path.empty())
    return "";
  // One build at a time in this process; another process may race, which the rename makes harmless.
  static std::mutex Mu;
  // A prelude whose build failed (an include that does not resolve: the
  // compile parses it itself and reports it) is not built again on every
  // compile; after a while it is, in case the missing header has appeared.
  static std::map<std::string, std::chrono::steady_clock::time_point> Failed;
  constexpr auto RetryAfter = std::chrono::seconds(30);
  std::lock_guard<std::mutex> Lock(Mu);
  if (!Rebuild && llvm::sys::fs::exists(Path)) {
    int Fd;
    if (!llvm::sys::fs::openFileForWrite(Path, Fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append)) {
      llvm::sys::fs::setLastAccessAndModificationTime(Fd, std::chrono::system_clock::now());
      llvm::sys::Process::SafelyCloseFileDescriptor(Fd);
    }
    return Path;
  }
  auto Now = std::chrono::steady_clock::now();
  if (auto It = Failed.find(Path); It != Failed.end() && Now - It->second < RetryAfter)
    return "";
  if (!build(Args, FS, Path)) {
    if (Failed.size() > 4096)
      Failed.clear();
    Failed[Path] = Now;
    return "";
  }
  Failed.erase(Path);
  evictOldPchs(llvm::sys::path::parent_path(Path));
  return Path;
}

} // namespace tessel::reference
