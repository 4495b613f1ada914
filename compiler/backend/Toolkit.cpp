//===- Toolkit.cpp - where the CUDA toolkit's pieces are ------------------===//
/// \file
/// The search of Toolkit.h and the version read from `ptxas --version`
/// ("Cuda compilation tools, release 13.0, V13.0.88").
//===----------------------------------------------------------------------===//
#include "compiler/backend/Toolkit.h"

#include "compiler/backend/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <regex>

namespace tessel::backend {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string Toolkit::searched() const {
  std::string S;
  for (const std::string &R : Roots)
    S += (S.empty() ? "" : ", ") + R;
  return S.empty() ? "no CUDA folder (set CUDA_HOME)" : S;
}

static std::string join(llvm::StringRef A, llvm::StringRef B, llvm::StringRef C = "", llvm::StringRef D = "") {
  llvm::SmallString<256> P(A);
  for (llvm::StringRef Part : {B, C, D})
    if (!Part.empty())
      path::append(P, Part);
  return std::string(P);
}

static bool isFile(const std::string &P) { return !P.empty() && fs::is_regular_file(P); }

/// The triton wheels' bundled ptxas under the usual site-packages folders.
static std::vector<std::string> tritonPtxasCandidates() {
  std::vector<std::string> Out;
  std::vector<std::string> Bases = {"/usr/lib", "/usr/local/lib"};
  if (const char *Home = std::getenv("HOME"))
    Bases.push_back(join(Home, ".local", "lib"));
  if (const char *Venv = std::getenv("VIRTUAL_ENV"))
    Bases.push_back(join(Venv, "lib"));
  for (const std::string &Base : Bases) {
    std::error_code EC;
    for (fs::directory_iterator It(Base, EC), End; !EC && It != End; It.increment(EC)) {
      llvm::StringRef Name = path::filename(It->path());
      if (!Name.starts_with("python3"))
        continue;
      for (const char *Site : {"site-packages", "dist-packages"})
        Out.push_back(join(It->path(), Site, "triton/backends/nvidia/bin", "ptxas"));
    }
  }
  return Out;
}

static void readVersion(Toolkit &T) {
  if (!T.Ptxas.empty()) {
    auto Out = runProgram(T.Ptxas, {"ptxas", "--version"}, 20);
    if (!Out) {
      llvm::consumeError(Out.takeError());
    } else {
      std::smatch M;
      static const std::regex Release("release ([0-9]+)\\.([0-9]+)");
      if (std::regex_search(Out->Stdout, M, Release)) {
        T.Major = unsigned(std::stoul(M[1]));
        T.Minor = unsigned(std::stoul(M[2]));
        return;
      }
    }
  }
  if (T.NvJitLink.empty())
    return;
  void *Lib = dlopen(T.NvJitLink.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return;
  using VersionFn = int (*)(unsigned *, unsigned *);
  if (auto Version = reinterpret_cast<VersionFn>(dlsym(Lib, "nvJitLinkVersion")))
    if (Version(&T.Major, &T.Minor) != 0)
      T.Major = T.Minor = 0;
  dlclose(Lib);
}

Toolkit findToolkit(const std::vector<std::string> &ExtraRoots, bool OnlyThese) {
  Toolkit T;
  T.Roots = ExtraRoots;
  if (!OnlyThese) {
    for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char *V = std::getenv(Var); V && *V)
        T.Roots.push_back(V);
    T.Roots.push_back("/usr/local/cuda");
    if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
      llvm::SmallString<256> Real;
      if (!fs::real_path(*Nvcc, Real))
        T.Roots.push_back(std::string(path::parent_path(path::parent_path(Real))));
    }
  }
  auto First = [&](std::string &Slot, std::initializer_list<const char *> Rel) {
    for (const std::string &Root : T.Roots)
      for (const char *R : Rel)
        if (std::string P = join(Root, R); Slot.empty() && isFile(P))
          Slot = P;
  };
  First(T.Libdevice, {"nvvm/libdevice/libdevice.10.bc"});
  for (const std::string &Root : T.Roots)
    if (T.CudaRoot.empty() && isFile(join(Root, "include/cuda_runtime.h")))
      T.CudaRoot = Root;
  First(T.NvJitLink, {"lib64/libnvJitLink.so", "lib64/libnvJitLink.so.13", "lib64/libnvJitLink.so.12",
                      "lib/libnvJitLink.so", "targets/x86_64-linux/lib/libnvJitLink.so"});
  First(T.Ptxas, {"bin/ptxas"});
  First(T.Nvdisasm, {"bin/nvdisasm"});
  First(T.Cuobjdump, {"bin/cuobjdump"});
  if (!OnlyThese) {
    auto OnPath = [](std::string &Slot, const char *Name) {
      if (Slot.empty())
        if (auto P = llvm::sys::findProgramByName(Name))
          Slot = *P;
    };
    OnPath(T.Ptxas, "ptxas");
    OnPath(T.Nvdisasm, "nvdisasm");
    OnPath(T.Cuobjdump, "cuobjdump");
    if (const char *V = std::getenv("TRITON_PTXAS_PATH"); T.Ptxas.empty() && V && isFile(V))
      T.Ptxas = V;
    for (const std::string &P : T.Ptxas.empty() ? tritonPtxasCandidates() : std::vector<std::string>())
      if (T.Ptxas.empty() && isFile(P))
        T.Ptxas = P;
  }
  // CUDA_HOME=/usr/local/cuda and nvcc's folder (/usr/local/cuda-13.0, where
  // the symlink points) name the default root again: each folder once, as
  // first spelled, so the messages that list them do too.
  std::vector<std::string> Unique, Real;
  for (const std::string &R : T.Roots) {
    llvm::SmallString<256> P;
    if (fs::real_path(R, P))
      P = R;
    if (std::find(Real.begin(), Real.end(), std::string(P)) != Real.end())
      continue;
    Real.push_back(std::string(P));
    Unique.push_back(R);
  }
  T.Roots = std::move(Unique);
  readVersion(T);
  return T;
}

const Toolkit &toolkit() {
  static const Toolkit T = findToolkit({}, false);
  return T;
}

} // namespace tessel::backend
