//===- Disassemble.cpp - a cubin's SASS through the toolkit's tools -------===//
/// \file
/// Writes the cubin to a temporary file and runs the disassembler on it.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Disassemble.h"

#include "compiler/backend/Subprocess.h"
#include "compiler/backend/Toolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tessel::backend {

bool hasDisassembler() {
  const Toolkit &T = toolkit();
  return !T.Nvdisasm.empty() || !T.Cuobjdump.empty();
}

llvm::Expected<std::string> disassemble(llvm::StringRef Cubin) {
  const Toolkit &T = toolkit();
  if (T.Nvdisasm.empty() && T.Cuobjdump.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "SASS needs nvdisasm or cuobjdump from the CUDA toolkit, and neither was found "
                                   "(searched %s and PATH)",
                                   T.searched().c_str());
  llvm::SmallString<128> Path;
  if (llvm::Error E = writeTemporaryFile("cubin", Cubin, Path))
    return E;
  std::vector<std::string> Args = T.Nvdisasm.empty() ? std::vector<std::string>{"cuobjdump", "-sass", std::string(Path)}
                                                     : std::vector<std::string>{"nvdisasm", "-c", std::string(Path)};
  auto R = runProgram(T.Nvdisasm.empty() ? T.Cuobjdump : T.Nvdisasm, Args, 60);
  llvm::sys::fs::remove(Path);
  if (!R)
    return R.takeError();
  if (R->ExitCode != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s failed: %s", Args[0].c_str(), R->Stderr.c_str());
  return R->Stdout;
}

} // namespace tessel::backend
