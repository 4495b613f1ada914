//===- CudaFrontend.cpp - a CUDA C++ reference kernel read by Clang -------===//
/// \file
/// One CompilerInstance per read, over a file system that overlays the disk
/// with the headers CUDA 13 lacks (CudaArgs.h) and, when asked, the editor's
/// text of the .cu file. A template kernel is instantiated by a line appended
/// to the file (`&softmax_rows<256>` taken in host code, which makes Clang emit
/// that instance in the device half), behind a line marker so that its
/// diagnostics name the directive rather than a line the file lacks.
//===----------------------------------------------------------------------===//

#include "compiler/reference/CudaFrontend.h"

#include "compiler/backend/Toolkit.h"
#include "compiler/reference/CudaArgs.h"
#include "compiler/reference/CudaPrelude.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <chrono>
#include <set>

namespace tessel::reference {

namespace am = clang::ast_matchers;

static constexpr const char *InstanceVar = "__tessel_reference_instance";
static constexpr const char *DirectiveFile = "<tessel: reference directive>";

ReferenceSource::ReferenceSource() = default;
ReferenceSource::ReferenceSource(ReferenceSource &&) = default;
ReferenceSource &ReferenceSource::operator=(ReferenceSource &&O) {
  Module.reset(); // while the context that owns its types lives
  Diagnostics = std::move(O.Diagnostics);
  Kernel = std::move(O.Kernel);
  Context = std::move(O.Context);
  Module = std::move(O.Module);
  Error = std::move(O.Error);
  Ms = O.Ms;
  return *this;
}
ReferenceSource::~ReferenceSource() {
  Module.reset(); // before the context that owns its types
}

bool ReferenceSource::hasErrors() const {
  for (const ClangDiagnostic &D : Diagnostics)
    if (D.Severity >= ClangDiagnostic::Level::Error)
      return true;
  return false;
}

std::string formatDiagnostic(const ClangDiagnostic &D) {
  static constexpr const char *Names[] = {"note", "remark", "warning", "error", "fatal error"};
  std::string Out;
  if (!D.File.empty()) {
    Out = D.File + ":";
    if (D.Line)
      Out += std::to_string(D.Line) + ":" + std::to_string(D.Column) + ":";
    Out += " ";
  }
  Out += std::string(Names[static_cast<int>(D.Severity)]) + ": " + D.Message;
  if (!D.Flag.empty())
    Out += " [" + D.Flag + "]";
  return Out;
}

namespace {

/// Keeps every diagnostic Clang reports, placed at its presumed location (so
/// the directive's appended line names the directive).
class Collector : public clang::DiagnosticConsumer {
public:
  explicit Collector(std::vector<ClangDiagnostic> &Out) : Out(Out) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level L, const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);
    using CL = ClangDiagnostic::Level;
    ClangDiagnostic D;
    switch (L) {
    case clang::DiagnosticsEngine::Ignored:
      return;
    case clang::DiagnosticsEngine::Note:
      D.Severity = CL::Note;
      break;
    case clang::DiagnosticsEngine::Remark:
      D.Severity = CL::Remark;
      break;
    case clang::DiagnosticsEngine::Warning:
      D.Severity = CL::Warning;
      break;
    case clang::DiagnosticsEngine::Error:
      D.Severity = CL::Error;
      break;
    case clang::DiagnosticsEngine::Fatal:
      D.Severity = CL::Fatal;
      break;
    }
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    D.Message = std::string(Msg);
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      clang::PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid()) {
        D.File = P.getFilename();
        D.Line = P.getLine();
        D.Column = P.getColumn();
      }
    }
    if (llvm::StringRef Flag = clang::DiagnosticIDs::getWarningOptionForDiag(Info.getID()); !Flag.empty())
      D.Flag = "-W" + Flag.str();
    Out.push_back(std::move(D));
  }

private:
  std::vector<ClangDiagnostic> &Out;
};

/// One `__global__` function the matchers saw, as plain data.
struct Candidate {
  CudaKernel Kernel;
  bool Pattern = false;  ///< a template's pattern (uninstantiated)
  bool Instance = false; ///< what the directive's appended line refers to
  bool Definition = false;
};

static std::string spelling(clang::QualType T, const clang::PrintingPolicy &Policy) {
  return T.getUnqualifiedType().getCanonicalType().getAsString(Policy);
}

static CudaKernel describe(const clang::FunctionDecl &FD, clang::ASTContext &Ctx) {
  clang::PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  CudaKernel K;
  K.Name = FD.getNameAsString();
  K.Line = SM.getPresumedLineNumber(FD.getLocation());
  if (!FD.isDependentContext() && !FD.getDescribedFunctionTemplate())
    K.Mangled = clang::ASTNameGenerator(Ctx).getName(&FD);
  if (const clang::TemplateArgumentList *Args = FD.getTemplateSpecializationArgs()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    clang::printTemplateArgumentList(OS, Args->asArray(), Policy);
    K.TemplateArgs = S.size() >= 2 ? S.substr(1, S.size() - 2) : S;
  }
  for (const clang::ParmVarDecl *P : FD.parameters()) {
    CudaParam Out;
    Out.Name = P->getNameAsString();
    clang::QualType T = P->getType();
    Out.Type = T.getAsString(Policy);
    Out.Line = SM.getPresumedLineNumber(P->getLocation());
    if (T->isPointerType()) {
      Out.Pointer = true;
      clang::QualType Pointee = T->getPointeeType();
      Out.ConstPointee = Pointee.isConstQualified();
      Out.DType = dtypeOfCudaType(spelling(Pointee, Policy));
    } else {
      Out.DType = dtypeOfCudaType(spelling(T, Policy));
    }
    K.Params.push_back(std::move(Out));
  }
  return K;
}

class Finder : public am::MatchFinder::MatchCallback {
public:
  explicit Finder(std::string Name) : Name(std::move(Name)) {
    using namespace am;
    M.addMatcher(functionDecl(hasAttr(clang::attr::CUDAGlobal)).bind("global"), this);
    M.addMatcher(
        varDecl(hasName(InstanceVar), hasInitializer(hasDescendant(declRefExpr(to(functionDecl().bind("instance"))))))
            .bind("var"),
        this);
  }

  void run(const am::MatchFinder::MatchResult &R) override {
    if (const auto *FD = R.Nodes.getNodeAs<clang::FunctionDecl>("instance")) {
      Candidate C{describe(*FD, *R.Context), false, true, true};
      Found.push_back(std::move(C));
      return;
    }
    const auto *FD = R.Nodes.getNodeAs<clang::FunctionDecl>("global");
    if (!FD)
      return;
    AllNames.insert(FD->getNameAsString());
    if (FD->getNameAsString() != Name)
      return;
    Candidate C{describe(*FD, *R.Context), FD->getDescribedFunctionTemplate() != nullptr, false,
                FD->isThisDeclarationADefinition()};
    Found.push_back(std::move(C));
  }

  am::MatchFinder M;
  std::string Name;
  std::vector<Candidate> Found;
  std::set<std::string> AllNames;
};

/// Parse + match, and Clang's code generator on the same AST when generating.
class GenerateAction : public clang::EmitLLVMOnlyAction {
public:
  GenerateAction(llvm::LLVMContext *C, am::MatchFinder &F) : clang::EmitLLVMOnlyAction(C), F(F) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Cs;
    Cs.push_back(F.newASTConsumer()); // first: the code generator may clear the AST after it
    Cs.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Cs));
  }

private:
  am::MatchFinder &F;
};

class ParseAction : public clang::ASTFrontendAction {
public:
  explicit ParseAction(am::MatchFinder &F) : F(F) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return F.newASTConsumer();
  }

private:
  am::MatchFinder &F;
};

} // namespace

/// Removes every kernel but Entry from M's `nvvm.annotations`, so that the back
/// end internalizes the others and drops them with the code only they reach.
static bool keepOnlyKernel(llvm::Module &M, const std::string &Entry) {
  llvm::NamedMDNode *A = M.getNamedMetadata("nvvm.annotations");
  bool Found = false;
  if (!A)
    return false;
  std::vector<llvm::MDNode *> Keep;
  for (llvm::MDNode *N : A->operands()) {
    auto *Fn =
        N->getNumOperands() >= 2 ? llvm::mdconst::dyn_extract_or_null<llvm::Function>(N->getOperand(0)) : nullptr;
    auto *Key = N->getNumOperands() >= 2 ? llvm::dyn_cast_or_null<llvm::MDString>(N->getOperand(1).get()) : nullptr;
    bool IsKernel = Fn && Key && Key->getString() == "kernel";
    if (IsKernel && Fn->getName() != Entry)
      continue;
    Found |= IsKernel;
    Keep.push_back(N);
  }
  A->clearOperands();
  for (llvm::MDNode *N : Keep)
    A->addOperand(N);
  return Found;
}

/// Did Clang refuse the precompiled prelude (a header newer than the PCH, other options)?
static bool refusedPch(const std::vector<ClangDiagnostic> &Ds, const std::string &Pch) {
  for (const ClangDiagnostic &D : Ds)
    if (D.Severity >= ClangDiagnostic::Level::Error &&
        (D.File == Pch || D.Message.find(Pch) != std::string::npos ||
         D.Message.find("precompiled header") != std::string::npos || D.Message.find("PCH file") != std::string::npos))
      return true;
  return false;
}

static double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
}

ReferenceSource readReference(const std::string &Path, const std::string &Function, const std::string &TemplateArgs,
                              const CudaOptions &Opts) {
  auto T0 = std::chrono::steady_clock::now();
  ReferenceSource Out;
  std::string Resource = clangResourceDir();
  if (Resource.empty()) {
    Out.Error = "Clang's CUDA headers were not found (" + std::string(TESSEL_CLANG_RESOURCE_DIR) +
                "/include/__clang_cuda_runtime_wrapper.h): apt-get install libclang-common-19-dev";
    return Out;
  }
  const backend::Toolkit &Tools = backend::toolkit();
  std::string CudaRoot = Opts.CudaRoot.empty() ? Tools.CudaRoot : Opts.CudaRoot;
  if (CudaRoot.empty()) {
    Out.Error = "no CUDA toolkit headers (include/cuda_runtime.h) in " + Tools.searched();
    return Out;
  }
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  std::string Text;
  if (Opts.Text) {
    Text = *Opts.Text;
  } else {
    auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/true);
    if (!Buf) {
      Out.Error = "cannot read " + Path + ": " + Buf.getError().message();
      return Out;
    }
    Text = (*Buf)->getBuffer().str();
  }
  if (!TemplateArgs.empty())
    Text += "\n# 1 \"" + std::string(DirectiveFile) + "\"\n[[maybe_unused]] static auto *const " + InstanceVar +
            " = &" + Function + "<" + TemplateArgs + ">;\n";

  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Name, Body] : cudaShimHeaders())
    Mem->addFile(std::string(ShimFolder) + "/" + Name, 0, llvm::MemoryBuffer::getMemBufferCopy(Body));
  Mem->addFile(Abs, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Abs));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  FS->pushOverlay(Mem);
  // The file is named to Clang as the caller named it, so diagnostics print that path.
  if (llvm::SmallString<256> Cwd; !llvm::sys::fs::current_path(Cwd))
    FS->setCurrentWorkingDirectory(Cwd);

  // The prelude: the file's leading includes (its preamble, as Clang computes it), precompiled with
  // Clang's CUDA wrapper; a file without one shares the wrapper's alone.
  Prelude P = preludeOf(Text, std::string(Abs));
  Mem->addFile(P.Path, 0, llvm::MemoryBuffer::getMemBufferCopy(P.Text, P.Path));
  std::vector<std::string> PreludeArgs = cudaDriverArgs(P.Path, Opts.Arch, CudaRoot, Resource);
  std::string Pch = preludePch(PreludeArgs, FS, false);

  Collector Diags(Out.Diagnostics);
  std::vector<std::string> Args = cudaDriverArgs(Path, Opts.Arch, CudaRoot, Resource);
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  Finder F(Function);
  // One compile; with the precompiled prelude, a second when Clang refused it (a header changed
  // since it was built): then the prelude is built again, or the compile does without.
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    Out.Diagnostics.clear();
    F.Found.clear();
    F.AllNames.clear();
    clang::CreateInvocationOptions CIO;
    // The driver's own warnings (the CUDA version it does not know) follow these options, not the
    // -W flags of the command line, which only the compile job reads.
    auto DriverOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    DriverOpts->Warnings.push_back("no-unknown-cuda-version");
    CIO.Diags = clang::CompilerInstance::createDiagnostics(DriverOpts.get(), &Diags, /*ShouldOwnClient=*/false);
    CIO.VFS = FS;
    CIO.ProbePrecompiled = false;
    std::shared_ptr<clang::CompilerInvocation> Inv = clang::createInvocation(Argv, CIO);
    if (!Inv) {
      Out.Error = "Clang's driver could not set up the CUDA compile of " + Path;
      return Out;
    }
    if (!Pch.empty())
      Inv->getPreprocessorOpts().ImplicitPCHInclude = Pch;
    clang::CompilerInstance CI;
    CI.setInvocation(std::move(Inv));
    CI.getDiagnosticOpts().ShowCarets = false; // no "N errors generated" on stderr: the caller prints
    CI.createDiagnostics(&Diags, /*ShouldOwnClient=*/false);
    CI.createFileManager(FS);
    CI.getFrontendOpts().DisableFree = false;
    Out.Context = std::make_unique<llvm::LLVMContext>();
    Out.Module.reset();
    if (Opts.Generate) {
      GenerateAction Action(Out.Context.get(), F.M);
      CI.ExecuteAction(Action);
      if (!Out.hasErrors())
        Out.Module = Action.takeModule();
    } else {
      ParseAction Action(F.M);
      CI.ExecuteAction(Action);
    }
    if (Pch.empty() || !refusedPch(Out.Diagnostics, Pch))
      break;
    Pch = preludePch(PreludeArgs, FS, true);
  }
  Out.Ms = msSince(T0);

  const Candidate *Pick = nullptr;
  for (const Candidate &C : F.Found)
    if (C.Instance)
      Pick = &C;
  bool IsTemplate = false;
  for (const Candidate &C : F.Found) {
    IsTemplate |= C.Pattern;
    if (!Pick && TemplateArgs.empty() && !C.Pattern && C.Definition && C.Kernel.TemplateArgs.empty())
      Pick = &C;
  }
  if (!Pick) {
    if (Out.hasErrors())
      return Out; // Clang's diagnostics say why
    if (IsTemplate && TemplateArgs.empty()) {
      Out.Error = Function + " is a function template: name its arguments in the directive (" + Function + "<...>)";
    } else if (F.Found.empty()) {
      std::string Names;
      for (const std::string &N : F.AllNames)
        Names += (Names.empty() ? "" : ", ") + N;
      Out.Error = Path + " has no __global__ function '" + Function + "'" +
                  (Names.empty() ? " (it has none)" : " (it has: " + Names + ")");
    } else {
      Out.Error = Function + " in " + Path + " is declared but not defined";
    }
    return Out;
  }
  Out.Kernel = Pick->Kernel;
  if (!TemplateArgs.empty())
    Out.Kernel->TemplateArgs = TemplateArgs;
  if (Out.Module && !keepOnlyKernel(*Out.Module, Out.Kernel->Mangled)) {
    Out.Error = "Clang emitted no kernel entry named " + Out.Kernel->Mangled + " for " + Function;
    Out.Module.reset();
  }
  return Out;
}

} // namespace tessel::reference
