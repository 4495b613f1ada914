//===- Subprocess.cpp - run a tool with a time limit ----------------------===//
/// \file
/// llvm::sys::ExecuteAndWait with its three streams redirected to temporary
/// files (removed afterwards, whatever happened).
//===----------------------------------------------------------------------===//
#include "compiler/backend/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tessel::backend {

namespace {
/// A temporary file that is removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
};
} // namespace

static llvm::Error makeTemp(TempFile &T, llvm::StringRef Suffix) {
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("tessel", Suffix, T.Path))
    return llvm::createStringError(EC, "cannot create a temporary file: %s", EC.message().c_str());
  return llvm::Error::success();
}

llvm::Error writeTemporaryFile(llvm::StringRef Suffix, llvm::StringRef Bytes, llvm::SmallVectorImpl<char> &Path) {
  int Fd = -1;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("tessel", Suffix, Fd, Path))
    return llvm::createStringError(EC, "cannot create a temporary file: %s", EC.message().c_str());
  std::error_code EC;
  {
    // raw_fd_ostream ends the process when it is destroyed with an error
    // not taken from it (a full disk): take it.
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Bytes;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC)
    return llvm::Error::success();
  std::string Name(Path.begin(), Path.end());
  llvm::sys::fs::remove(Name);
  return llvm::createStringError(EC, "cannot write the temporary file %s: %s", Name.c_str(), EC.message().c_str());
}

static std::string readAll(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

llvm::Expected<ProgramOutput> runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                                         unsigned TimeoutSeconds, std::optional<llvm::StringRef> Stdin) {
  TempFile In, Out, Err;
  if (llvm::Error E = makeTemp(Out, "out"))
    return E;
  if (llvm::Error E = makeTemp(Err, "err"))
    return E;
  std::optional<llvm::StringRef> InPath = llvm::StringRef(""); // /dev/null
  if (Stdin) {
    if (llvm::Error E = writeTemporaryFile("in", *Stdin, In.Path))
      return E;
    InPath = In.Path.str();
  }
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {InPath, Out.Path.str(), Err.Path.str()};
  std::string ErrMsg;
  bool ExecFailed = false;
  int RC =
      llvm::sys::ExecuteAndWait(Program, ArgRefs, std::nullopt, Redirects, TimeoutSeconds, 0, &ErrMsg, &ExecFailed);
  std::string Name = llvm::sys::path::filename(Program).str();
  if (ExecFailed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot run %s (%s): %s", Name.c_str(),
                                   Program.str().c_str(), ErrMsg.c_str());
  ProgramOutput R;
  R.ExitCode = RC;
  R.Stdout = readAll(Out.Path);
  R.Stderr = readAll(Err.Path);
  if (RC == -2 && TimeoutSeconds && ErrMsg.find("timed out") != std::string::npos)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s did not finish within %u s and was stopped",
                                   Name.c_str(), TimeoutSeconds);
  if (RC < 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s crashed: %s%s%s", Name.c_str(),
                                   ErrMsg.empty() ? "ended by a signal" : ErrMsg.c_str(), R.Stderr.empty() ? "" : "\n",
                                   R.Stderr.c_str());
  return R;
}

} // namespace tessel::backend
