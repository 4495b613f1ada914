//===- Assemble.cpp - PTX -> cubin through nvJitLink or ptxas -------------===//
/// \file
/// nvJitLink's C API (nvJitLink.h, CUDA 12+) is declared here by hand and
/// resolved by name from the library, so that building tessel needs no CUDA
/// header. The unversioned names (`nvJitLinkCreate`) are exported by every
/// release next to the versioned ones (`__nvJitLinkCreate_13_0`) the header's
/// inline wrappers call.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Assemble.h"

#include "compiler/backend/Subprocess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <map>
#include <mutex>

namespace tessel::backend {

const char *assemblerName(AssemblerKind K) {
  switch (K) {
  case AssemblerKind::NvJitLink:
    return "nvJitLink";
  case AssemblerKind::Ptxas:
    return "ptxas";
  }
  return "?";
}

bool hasAssembler(const Toolkit &Tools, AssemblerKind K) {
  return K == AssemblerKind::NvJitLink ? !Tools.NvJitLink.empty() : !Tools.Ptxas.empty();
}

static llvm::Error fail(const std::string &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Msg.c_str());
}

namespace {
/// The nvJitLink entry points tessel calls.
struct NvJitLinkApi {
  using Handle = void *;
  int (*Create)(Handle *, uint32_t, const char **) = nullptr;
  int (*Destroy)(Handle *) = nullptr;
  int (*AddData)(Handle, int, const void *, size_t, const char *) = nullptr;
  int (*Complete)(Handle) = nullptr;
  int (*GetLinkedCubinSize)(Handle, size_t *) = nullptr;
  int (*GetLinkedCubin)(Handle, void *) = nullptr;
  int (*GetErrorLogSize)(Handle, size_t *) = nullptr;
  int (*GetErrorLog)(Handle, char *) = nullptr;
  int (*GetInfoLogSize)(Handle, size_t *) = nullptr;
  int (*GetInfoLog)(Handle, char *) = nullptr;
  std::string Error; ///< why it could not be loaded
};
} // namespace

static const NvJitLinkApi &nvJitLinkApi(const std::string &Path) {
  static std::mutex Mu;
  static std::map<std::string, NvJitLinkApi> Loaded;
  std::lock_guard<std::mutex> Lock(Mu);
  auto [It, Fresh] = Loaded.try_emplace(Path);
  NvJitLinkApi &A = It->second;
  if (!Fresh)
    return A;
  void *Lib = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Why = dlerror();
    A.Error = "cannot load " + Path + ": " + (Why ? Why : "unknown error");
    return A;
  }
  auto Get = [&](auto &Slot, const char *Name) {
    Slot = reinterpret_cast<std::remove_reference_t<decltype(Slot)>>(dlsym(Lib, Name));
    if (!Slot && A.Error.empty())
      A.Error = Path + " has no " + Name;
  };
  Get(A.Create, "nvJitLinkCreate");
  Get(A.Destroy, "nvJitLinkDestroy");
  Get(A.AddData, "nvJitLinkAddData");
  Get(A.Complete, "nvJitLinkComplete");
  Get(A.GetLinkedCubinSize, "nvJitLinkGetLinkedCubinSize");
  Get(A.GetLinkedCubin, "nvJitLinkGetLinkedCubin");
  Get(A.GetErrorLogSize, "nvJitLinkGetErrorLogSize");
  Get(A.GetErrorLog, "nvJitLinkGetErrorLog");
  Get(A.GetInfoLogSize, "nvJitLinkGetInfoLogSize");
  Get(A.GetInfoLog, "nvJitLinkGetInfoLog");
  return A;
}

static llvm::Expected<Assembled> withNvJitLink(llvm::StringRef Ptx, const AssembleOptions &Opts, const Toolkit &Tools) {
  const NvJitLinkApi &A = nvJitLinkApi(Tools.NvJitLink);
  if (!A.Error.empty())
    return fail(A.Error);
  constexpr int InputPtx = 2; // NVJITLINK_INPUT_PTX
  std::string Arch = "-arch=" + Opts.Arch.name();
  // -lineinfo as Triton passes it to ptxas; -Xptxas=-v fills the info log
  // with ptxas' resource lines.
  const char *Args[] = {Arch.c_str(), "-lineinfo", "-Xptxas=-v"};
  NvJitLinkApi::Handle H = nullptr;
  if (int RC = A.Create(&H, 3, Args))
    return fail("nvJitLink refused the options " + Arch + " -lineinfo -Xptxas=-v (error " + std::to_string(RC) + ")");
  auto Log = [&](auto SizeFn, auto GetFn) {
    size_t N = 0;
    if (SizeFn(H, &N) || N == 0)
      return std::string();
    std::string S(N, '\0');
    if (GetFn(H, S.data()))
      return std::string();
    while (!S.empty() && S.back() == '\0')
      S.pop_back();
    return S;
  };
  Assembled Out;
  Out.Used = AssemblerKind::NvJitLink;
  int RC = A.AddData(H, InputPtx, Ptx.data(), Ptx.size(), "kernel.ptx");
  if (!RC)
    RC = A.Complete(H);
  if (RC) {
    std::string Err = Log(A.GetErrorLogSize, A.GetErrorLog);
    A.Destroy(&H);
    return fail("nvJitLink could not assemble the PTX for " + Opts.Arch.name() + " (error " + std::to_string(RC) + ")" +
                (Err.empty() ? "" : ":\n" + Err));
  }
  Out.Log = Log(A.GetInfoLogSize, A.GetInfoLog);
  size_t N = 0;
  if (!A.GetLinkedCubinSize(H, &N) && N) {
    Out.Cubin.resize(N);
    if (A.GetLinkedCubin(H, Out.Cubin.data()))
      Out.Cubin.clear();
  }
  A.Destroy(&H);
  if (Out.Cubin.empty())
    return fail("nvJitLink produced no cubin");
  return Out;
}

static llvm::Expected<Assembled> withPtxas(llvm::StringRef Ptx, const AssembleOptions &Opts, const Toolkit &Tools) {
  llvm::SmallString<128> In, Cubin;
  if (llvm::Error E = writeTemporaryFile("ptx", Ptx, In))
    return fail("cannot give ptxas its input: " + llvm::toString(std::move(E)));
  Cubin = In;
  Cubin += ".cubin";
  auto Cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(In);
    llvm::sys::fs::remove(Cubin);
  });
  std::vector<std::string> Args = {"ptxas", "-lineinfo",       "-v", "--gpu-name=" + Opts.Arch.name(), std::string(In),
                                   "-o",    std::string(Cubin)};
  auto R = runProgram(Tools.Ptxas, Args, Opts.TimeoutSeconds);
  if (!R)
    return R.takeError();
  Assembled Out;
  Out.Used = AssemblerKind::Ptxas;
  Out.Log = R->Stdout + R->Stderr;
  if (R->ExitCode != 0)
    return fail("ptxas could not assemble the PTX for " + Opts.Arch.name() + " (exit status " +
                std::to_string(R->ExitCode) + "):\n" + Out.Log);
  auto Buf = llvm::MemoryBuffer::getFile(Cubin, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return fail("ptxas wrote no cubin (" + std::string(Cubin) + ")");
  Out.Cubin = (*Buf)->getBuffer().str();
  return Out;
}

AssemblerKind defaultAssembler(const Toolkit &Tools) {
  return hasAssembler(Tools, AssemblerKind::Ptxas) || !hasAssembler(Tools, AssemblerKind::NvJitLink)
             ? AssemblerKind::Ptxas
             : AssemblerKind::NvJitLink;
}

llvm::Expected<Assembled> assemble(llvm::StringRef Ptx, const AssembleOptions &Opts) {
  const Toolkit &Tools = Opts.Tools ? *Opts.Tools : toolkit();
  AssemblerKind K = Opts.Use ? *Opts.Use : defaultAssembler(Tools);
  if (!hasAssembler(Tools, K)) {
    if (K == AssemblerKind::NvJitLink)
      return fail("nvJitLink (libnvJitLink.so) was not found; searched " + Tools.searched());
    return fail("no PTX assembler: neither libnvJitLink.so nor ptxas was found; searched " + Tools.searched() +
                " and PATH (set CUDA_HOME to a CUDA toolkit)");
  }
  return K == AssemblerKind::NvJitLink ? withNvJitLink(Ptx, Opts, Tools) : withPtxas(Ptx, Opts, Tools);
}

} // namespace tessel::backend
