//===- BackendTestUtil.h - LLVM IR kernels for the back-end tests -*- C++ -*-===//
/// \file
/// Small kernels written as LLVM IR text, parsed into a fresh context, so the
/// back end is tested on the modules codegen builds (a Triton-ABI entry
/// with two trailing scratch pointers and an `nvvm.annotations` kernel
/// entry) without going through codegen.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_BACKEND_BACKENDTESTUTIL_H
#define TESSEL_TESTS_UNIT_BACKEND_BACKENDTESTUTIL_H

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tessel::backend::test {

/// x, y, out, n, then the two scratch pointers: out[i] = exp(x[i]) + y[i]
/// for i = tid < n; 128 threads.
inline const char *AddExpKernel = R"ll(
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @__nv_expf(float)

define void @add_kernel(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %o, i32 %n,
                        ptr addrspace(1) %gs, ptr addrspace(1) %ps) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %t, %n
  br i1 %c, label %body, label %exit
body:
  %px = getelementptr float, ptr addrspace(1) %x, i32 %t
  %py = getelementptr float, ptr addrspace(1) %y, i32 %t
  %po = getelementptr float, ptr addrspace(1) %o, i32 %t
  %a = load float, ptr addrspace(1) %px
  %b = load float, ptr addrspace(1) %py
  %e = call float @__nv_expf(float %a)
  %s = fadd float %e, %b
  store float %s, ptr addrspace(1) %po
  br label %exit
exit:
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @add_kernel, !"kernel", i32 1}
!1 = !{ptr @add_kernel, !"reqntidx", i32 128}
)ll";

/// A kernel whose 96 live floats per thread cannot fit in `.maxnreg 32`:
/// ptxas spills. Each thread loads 96 values, then stores their pairwise
/// sums in reverse order so that all stay live.
inline std::string spillKernel() {
  std::string S = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                  "define void @spill_kernel(ptr addrspace(1) %x, ptr addrspace(1) %gs, ptr addrspace(1) %ps) {\n"
                  "entry:\n  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %base = mul i32 %t, 97\n";
  constexpr int N = 96;
  for (int I = 0; I < N; ++I) {
    S += "  %i" + std::to_string(I) + " = add i32 %base, " + std::to_string(I) + "\n";
    S += "  %p" + std::to_string(I) + " = getelementptr float, ptr addrspace(1) %x, i32 %i" + std::to_string(I) + "\n";
    S += "  %v" + std::to_string(I) + " = load volatile float, ptr addrspace(1) %p" + std::to_string(I) + "\n";
  }
  for (int I = 0; I < N; ++I) {
    int J = N - 1 - I;
    S += "  %s" + std::to_string(I) + " = fmul float %v" + std::to_string(I) + ", %v" + std::to_string(J) + "\n";
    S += "  store volatile float %s" + std::to_string(I) + ", ptr addrspace(1) %p" + std::to_string(J) + "\n";
  }
  S += "  ret void\n}\n"
       "!nvvm.annotations = !{!0, !1, !2}\n"
       "!0 = !{ptr @spill_kernel, !\"kernel\", i32 1}\n"
       "!1 = !{ptr @spill_kernel, !\"reqntidx\", i32 128}\n"
       "!2 = !{ptr @spill_kernel, !\"maxnreg\", i32 32}\n";
  return S;
}

inline std::unique_ptr<llvm::Module> parseModule(const std::string &Text, llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(Text, Err, Ctx);
  if (!M)
    ADD_FAILURE() << "test IR does not parse: " << Err.getMessage().str() << " at line " << Err.getLineNo();
  return M;
}

} // namespace tessel::backend::test

#endif // TESSEL_TESTS_UNIT_BACKEND_BACKENDTESTUTIL_H
