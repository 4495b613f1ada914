//===- CompileCommand.cpp - `tessel compile FILE --kernel K --emit X` -----===//
/// \file
/// Compiles one kernel, once per distinct specialization of its launch
/// (sema::planLaunch: --spec, the kernel's `# tessel: launch` directives, or
/// what the file reveals, with the assumptions printed as comments), and
/// prints one stage of it: the tile IR (`tir`), the optimized LLVM IR
/// (`llvm`), the PTX (`ptx`), the cubin (`cubin`, binary: to -o or a pipe),
/// its SASS (`sass`, through nvdisasm or cuobjdump when the toolkit has
/// them) or the resource report (`report`: registers, spills, stack, shared
/// memory, occupancy and the time of each stage). `--all-configs` does it
/// for every autotune config. Problems (sema's errors, lowering and code
/// generation limits, spec errors) are printed like `tessel check`'s
/// findings; a back-end failure (LLVM, the assembler) is one line on stderr.
///
/// Compiled kernels are kept in the JIT cache (CompileCache::defaultDirectory)
/// unless --no-cache; the report says which stages came from it.
///
/// Exit status: 0 printed, 1 an error in the file or spec or a failed
/// compile, 2 bad usage, an unreadable file, an unknown kernel or config, or
/// a missing tool.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/Disassemble.h"
#include "compiler/backend/KernelJit.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/DeviceModel.h"
#include "compiler/ir/Printer.h"
#include "compiler/reference/ParameterMap.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "diagnostics/Finding.h"
#include "diagnostics/JitCheck.h"
#include "lsp/LineIndex.h"
#include "tools/CommandLine.h"
#include "tools/CudaReference.h"
#include "tools/InputFile.h"
#include "tools/TextOutput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace tessel::tools {

namespace {
enum class Emit { Tir, Llvm, Ptx, Cubin, Sass, Report };

struct CompileArgs {
  std::string File;
  std::string Kernel;
  Emit What = Emit::Tir;
  std::optional<std::string> Spec;
  std::optional<size_t> Config;
  bool AllConfigs = false;
  std::optional<size_t> Instance;
  std::optional<backend::GpuArch> Arch;
  std::optional<backend::AssemblerKind> Assembler;
  std::string Output;
  bool UseCache = true;
  bool Locations = true;
  bool Reference = false;
  ColorMode Color = ColorMode::Auto;
};
} // namespace

static const char CompileUsage[] =
    "usage: tessel compile FILE --kernel K [--emit tir|llvm|ptx|cubin|sass|report] [options]\n"
    "\n"
    "Compiles kernel K of FILE once per distinct specialization of its launch (the\n"
    "`# tessel: launch` directive above the kernel, or --spec; without either, the launch is\n"
    "derived from the file and what was assumed is printed) and prints one stage:\n"
    "  tir      tessel's tile IR (docs/tir.md), verified (the default)\n"
    "  llvm     the LLVM IR after libdevice linking and the O3 pipeline\n"
    "  ptx      the PTX handed to the assembler\n"
    "  cubin    the GPU binary (binary output: use -o FILE or a pipe)\n"
    "  sass     the cubin's machine code, through nvdisasm or cuobjdump\n"
    "  report   registers, spills, stack, shared memory, occupancy and stage times\n"
    "\n"
    "options:\n"
    "  --kernel K             the @triton.jit kernel to compile (required)\n"
    "  --emit STAGE           what to print (above)\n"
    "  --arch sm_80|sm_90|sm_90a\n"
    "                         target GPU (default: the local GPU's, else sm_90a)\n"
    "  --spec 'SPEC'          launch spec text; replaces the kernel's directives (docs/launch-spec.md)\n"
    "  --config N             use autotune config N (0-based; default 0) for what the spec leaves out\n"
    "  --all-configs          compile under every autotune config\n"
    "  --instance N           only instance N (0-based) of the launch: one cubin when the launch has several\n"
    "  --assembler nvjitlink|ptxas\n"
    "                         PTX to cubin by ptxas, as Triton (the default when present), or in\n"
    "                         process by nvJitLink\n"
    "  -o FILE                write the output to FILE\n"
    "  --no-cache             compile afresh, neither reading nor writing the JIT cache\n"
    "  --no-locations         leave out the `loc(line:col)` of each tile IR op\n"
    "  --reference            compile the kernel's CUDA C++ reference instead (its `# tessel: reference`\n"
    "                         directive, docs/reference-kernels.md), in process through Clang and the same\n"
    "                         back end: llvm, ptx, cubin, sass or report; Clang's diagnostics on stderr\n"
    "  --color=auto|always|never\n"
    "                         colour the error output (auto: only on a terminal)\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 printed, 1 an error in the file or spec or a failed compile, 2 bad usage,\n"
    "unreadable input or a missing tool\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel compile: error: " << Why << "\nrun `tessel compile --help` for usage\n";
  return ExitUsage;
}

static std::optional<Emit> parseEmit(std::string_view V) {
  static const std::pair<std::string_view, Emit> Names[] = {{"tir", Emit::Tir},   {"llvm", Emit::Llvm},
                                                            {"ptx", Emit::Ptx},   {"cubin", Emit::Cubin},
                                                            {"sass", Emit::Sass}, {"report", Emit::Report}};
  for (const auto &[N, E] : Names)
    if (N == V)
      return E;
  return std::nullopt;
}

static std::optional<int> parseArgs(const Args &A, CompileArgs &Out) {
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    if (Arg == "-h" || Arg == "--help") {
      std::cout << CompileUsage;
      return ExitOk;
    }
    if (Arg == "--no-locations") {
      Out.Locations = false;
      continue;
    }
    if (Arg == "--all-configs") {
      Out.AllConfigs = true;
      continue;
    }
    if (Arg == "--no-cache") {
      Out.UseCache = false;
      continue;
    }
    if (Arg == "--reference") {
      Out.Reference = true;
      continue;
    }
    if (Arg.empty() || Arg[0] != '-') {
      if (!Out.File.empty())
        return usageError("one file at a time: got '" + Out.File + "' and '" + std::string(Arg) + "'");
      Out.File = std::string(Arg);
      continue;
    }
    std::string_view Value;
    bool Missing = false;
    if (takeValue(A, I, "--kernel", Value, Missing)) {
      if (Missing || Value.empty())
        return usageError("--kernel needs a value (the kernel's name)");
      Out.Kernel = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--emit", Value, Missing)) {
      std::optional<Emit> E = Missing ? std::nullopt : parseEmit(Value);
      if (!E)
        return usageError("--emit takes tir, llvm, ptx, cubin, sass or report");
      Out.What = *E;
      continue;
    }
    if (takeValue(A, I, "--arch", Value, Missing)) {
      Out.Arch = Missing ? std::nullopt : backend::parseArch(Value);
      if (!Out.Arch)
        return usageError("--arch takes sm_80, sm_90 or sm_90a");
      devicemodel::setTargetCapability(Out.Arch->Capability);
      continue;
    }
    if (takeValue(A, I, "--assembler", Value, Missing)) {
      if (!Missing && Value == "nvjitlink")
        Out.Assembler = backend::AssemblerKind::NvJitLink;
      else if (!Missing && Value == "ptxas")
        Out.Assembler = backend::AssemblerKind::Ptxas;
      else
        return usageError("--assembler takes nvjitlink or ptxas");
      continue;
    }
    if (takeValue(A, I, "-o", Value, Missing) || takeValue(A, I, "--output", Value, Missing)) {
      if (Missing || Value.empty())
        return usageError("-o needs a file name");
      Out.Output = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--spec", Value, Missing)) {
      if (Missing)
        return usageError("--spec needs a value (launch spec text)");
      Out.Spec = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--config", Value, Missing)) {
      uint64_t N = 0;
      if (Missing || Value.size() >= 10 || !parseUnsigned(Value, N))
        return usageError("--config takes a config index (0, 1, ...)");
      Out.Config = N;
      continue;
    }
    if (takeValue(A, I, "--instance", Value, Missing)) {
      uint64_t N = 0;
      if (Missing || Value.size() >= 10 || !parseUnsigned(Value, N))
        return usageError("--instance takes an instance index (0, 1, ...)");
      Out.Instance = N;
      continue;
    }
    if (takeValue(A, I, "--color", Value, Missing)) {
      if (Missing || !parseColorMode(Value, Out.Color))
        return usageError("--color takes auto, always or never");
      continue;
    }
    return usageError("unknown option '" + std::string(Arg) + "'");
  }
  if (Out.File.empty())
    return usageError("no input file");
  if (Out.Kernel.empty())
    return usageError("which kernel? pass --kernel NAME");
  if (Out.AllConfigs && Out.Config)
    return usageError("--config and --all-configs exclude each other");
  if (Out.Reference && Out.What == Emit::Tir)
    return usageError("--reference compiles CUDA C++, which has no tile IR: --emit llvm, ptx, cubin, sass or report");
  return std::nullopt;
}

static std::string fmtMs(double Ms) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Ms < 10 ? "%.2f ms" : "%.1f ms", Ms);
  return Buf;
}

/// The shared buffers under the report's shared-memory line: offset, size,
/// what, the line of the op and the program points where it is live.
static void printSharedBuffers(std::ostream &OS, const backend::CompiledKernel &K, const SourceText &Src) {
  for (const codegen::SharedBuffer &B : K.SharedBuffers) {
    OS << "    " << std::setw(6) << B.Bytes << " B at " << std::setw(6) << B.Offset << "  "
       << codegen::sharedBufferKindName(B.Kind) << ": " << B.What;
    if (!B.Where.empty())
      OS << " (line " << Src.lineCol(B.Where.Begin).Line + 1 << ")";
    OS << ", live " << B.Begin << ".." << B.End << "\n";
  }
}

static void printReport(std::ostream &OS, const std::string &Title, const backend::KernelJitResult &R,
                        const SourceText &Src) {
  const backend::CompiledKernel &K = *R.Kernel;
  const backend::ResourceUsage &U = K.Resources;
  OS << "kernel " << K.Entry << Title << " for " << K.Arch.name();
  if (!K.Assembler.empty())
    OS << " (" << K.Assembler << ")";
  OS << (R.FromCache ? " [from the JIT cache]" : "") << "\n";
  OS << "  threads        " << (K.ReqNtid ? *K.ReqNtid : K.Launch.Threads) << " per block";
  if (K.MaxNReg)
    OS << ", maxnreg " << *K.MaxNReg;
  OS << "\n";
  // Which findings stay silent for dot kernels
  // (diagnostics/checks/JitResources.cpp): say so, and how near the figures are.
  if (std::string_view Units = backend::dotUnits(K); !Units.empty())
    OS << "  note           the kernel's tl.dot runs on " << Units
       << (Units == "FMA units" ? ": its registers are not Triton's"
                                : ": its registers are near Triton's, not equal (bench/RESULTS.md)")
       << (backend::spillsAreTritons(K) ? "; occupancy is not reported as a finding for it\n"
                                        : "; spills and occupancy are not reported as findings for it\n");
  if (!K.assembled()) {
    OS << "  (not assembled: no ptxas or libnvJitLink.so was found)\n";
  } else {
    OS << "  registers      " << U.Registers << " per thread\n";
    OS << "  spills         " << U.SpillStores << " bytes stored, " << U.SpillLoads << " bytes loaded\n";
    OS << "  stack          " << U.StackFrame << " bytes per thread\n";
    OS << "  shared memory  " << K.sharedBytes() << " bytes per block (" << K.Launch.DynamicShared << " dynamic)\n";
    printSharedBuffers(OS, K, Src);
    OS << "  barriers       " << U.Barriers << "\n";
    const backend::Occupancy &O = K.Occ;
    OS << "  occupancy      ";
    if (O.Limit == backend::OccupancyLimit::DoesNotFit) {
      OS << "a block does not fit on an SM\n";
    } else {
      OS << O.BlocksPerSm << (O.BlocksPerSm == 1 ? " block" : " blocks") << " per SM, " << O.WarpsPerSm << " of "
         << O.MaxWarpsPerSm << " warps (" << unsigned(O.fraction() * 100 + 0.5) << "%), limited by "
         << backend::occupancyLimitName(O.Limit) << "\n";
    }
  }
  OS << "  stages        ";
  double Total = 0;
  for (const backend::StageTime &T : R.Times) {
    OS << " " << T.Stage << " " << fmtMs(T.Ms) << ",";
    Total += T.Ms;
  }
  OS << " total " << fmtMs(Total) << "\n";
}

/// `--reference`: the kernel's CUDA reference, through Clang and the back end.
static int compileReferenceOf(const CompileArgs &CA, const ParsedFile &File, const ModuleInfo &Info) {
  std::string Error;
  std::optional<CudaReferenceTarget> T = findCudaReference(File, Info, CA.File, CA.Kernel, Error);
  if (!T) {
    std::cerr << (Error.find(": error: ") != std::string::npos ? "" : "tessel compile: error: ") << Error << "\n";
    return ExitFindings;
  }
  // The block's threads size the occupancy: the directive's block over the first launch's values.
  unsigned Threads = 128;
  sema::LaunchPlanOptions PO;
  PO.SpecText = CA.Spec;
  PO.Config = CA.Config;
  sema::LaunchPlan Plan = sema::planLaunch(File, Info, CA.Kernel, PO);
  if (!Plan.Launches.empty()) {
    reference::Dims3 B = reference::evaluateDims(T->Directive.Block, Plan.Launches.front().Launch, "block");
    if (!B.Error.empty()) {
      std::cerr << "tessel compile: error: reference " << T->Label << ": " << B.Error << "\n";
      return ExitFindings;
    }
    Threads = static_cast<unsigned>(B.D[0] * B.D[1] * B.D[2]);
  }
  CudaReferenceCompiler Compiler(*T);
  backend::GpuArch Arch = CA.Arch ? *CA.Arch : backend::defaultArch();
  bool Assemble = CA.What == Emit::Cubin || CA.What == Emit::Sass || CA.What == Emit::Report;
  const reference::CompiledReference &R = Compiler.compile(Arch, Threads, Assemble, CA.What == Emit::Llvm);
  printClangDiagnostics(std::cerr, R.Source);
  if (!R.Kernel) {
    std::cerr << "tessel compile: error: reference " << T->Label << ": " << R.Error << "\n";
    return ExitFindings;
  }
  // Every instance of the launch must be able to call it, as `tessel run --reference` will.
  for (const sema::PlannedLaunch &PL : Plan.Launches) {
    reference::ParameterMap M = reference::mapParameters(*R.Source.Kernel, T->Directive, PL.Launch);
    if (!M.Error.empty()) {
      std::cerr << "tessel compile: error: " << M.Error << "\n";
      return ExitFindings;
    }
    reference::Dims3 G = reference::evaluateDims(T->Directive.Grid, PL.Launch, "grid");
    if (!G.Error.empty()) {
      std::cerr << "tessel compile: error: reference " << T->Label << ": " << G.Error << "\n";
      return ExitFindings;
    }
  }
  const backend::CompiledKernel &K = *R.Kernel;
  std::string Text;
  switch (CA.What) {
  case Emit::Tir:
    return ExitUsage; // refused by parseArgs
  case Emit::Llvm:
    Text = K.Llvm;
    break;
  case Emit::Ptx:
    Text = K.Ptx;
    break;
  case Emit::Cubin:
    Text = K.Cubin;
    break;
  case Emit::Sass: {
    auto S = backend::disassemble(K.Cubin);
    if (!S) {
      std::cerr << "tessel compile: error: --emit sass: " << llvm::toString(S.takeError()) << "\n";
      return ExitUsage;
    }
    Text = std::move(*S);
    break;
  }
  case Emit::Report: {
    backend::KernelJitResult JR;
    JR.Kernel = K;
    JR.Times.push_back({"clang", R.FrontendMs});
    for (const backend::StageTime &St : K.Times)
      JR.Times.push_back(St);
    std::ostringstream RS;
    printReport(RS, " (CUDA reference " + T->Label + ")", JR, File.text());
    Text = RS.str();
    break;
  }
  }
  if (CA.Output.empty()) {
    std::cout << Text;
    return ExitOk;
  }
  std::ofstream F(CA.Output, std::ios::binary);
  F << Text;
  if (!F) {
    std::cerr << "tessel compile: error: cannot write " << CA.Output << "\n";
    return ExitUsage;
  }
  return ExitOk;
}

int runCompile(const Args &A) {
  CompileArgs CA;
  if (std::optional<int> Status = parseArgs(A, CA))
    return *Status;
  InputFile In = readInputFile(CA.File);
  if (!In.Text) {
    std::cerr << "tessel compile: error: " << CA.File << ": " << In.Error << "\n";
    return ExitUsage;
  }
  if (CA.What == Emit::Cubin && CA.Output.empty() && isatty(STDOUT_FILENO))
    return usageError("a cubin is binary: write it with -o FILE or through a pipe");
  auto Text = std::make_shared<SourceText>(*In.Text, CA.File);
  auto File = ParsedFile::parse(Text);
  ProblemSink Discovery;
  ModuleInfo Info = processProject().discoverFile(*File, Discovery);
  if (CA.Reference)
    return compileReferenceOf(CA, *File, Info);
  const JitFunction *Fn = Info.jit(CA.Kernel);
  std::vector<std::optional<size_t>> Configs = {CA.Config};
  if (CA.AllConfigs && Fn && Fn->Configs.size() > 1) {
    Configs.clear();
    for (size_t I = 0; I < Fn->Configs.size(); ++I)
      Configs.push_back(I);
  }
  TextStyle Style{useColor(CA.Color)};
  lsp::LineIndex FileIndex(*In.Text);
  std::optional<lsp::LineIndex> SpecIndex;
  if (CA.Spec)
    SpecIndex.emplace(*CA.Spec);
  bool Failed = false;
  auto Report = [&](const Problem &P, bool InSpec) {
    diag::Finding F = diag::toFinding(P);
    Failed |= F.Sev == diag::Severity::Error;
    if (InSpec && SpecIndex)
      renderFinding(std::cerr, F, *SpecIndex, "--spec", Style);
    else
      renderFinding(std::cerr, F, FileIndex, CA.File, Style);
  };
  std::ostringstream Out;
  std::string Binary;
  size_t Binaries = 0;
  std::set<std::string> Printed, Compiled;
  ir::PrintOptions Print{Text.get(), CA.Locations};
  std::unique_ptr<backend::CompileCache> Cache;
  if (CA.UseCache)
    Cache = std::make_unique<backend::CompileCache>(backend::CompileCache::defaultDirectory());
  backend::KernelJitOptions KO;
  KO.Arch = CA.Arch ? *CA.Arch : backend::defaultArch();
  KO.Assemble = CA.What == Emit::Cubin || CA.What == Emit::Sass || CA.What == Emit::Report;
  KO.KeepLlvm = CA.What == Emit::Llvm;
  KO.Assembler.Use = CA.Assembler;
  KO.Cache = Cache.get();
  KO.Project = &processProject();
  for (const std::optional<size_t> &Config : Configs) {
    sema::LaunchPlanOptions PO;
    PO.SpecText = CA.Spec;
    PO.Config = Config;
    const sema::AnalyzeOptions Lowering = backend::loweringOptions(KO);
    PO.Settle = &Lowering;
    sema::LaunchPlan Plan = sema::planLaunch(*File, Info, CA.Kernel, PO);
    if (!Plan.Error.empty()) {
      std::cerr << "tessel compile: error: " << Plan.Error << "\n";
      return ExitUsage;
    }
    if (Config == Configs.front()) {
      for (const Problem &P : Plan.Problems)
        Report(P, Plan.Origin == sema::SpecOrigin::CommandLine);
      for (const std::string &Assumed : Plan.Assumptions)
        Out << "// " << Assumed << "\n";
    }
    std::string ConfigTitle;
    if (Config && Fn && *Config < Fn->Configs.size())
      ConfigTitle =
          " config " + std::to_string(*Config) + " [" + diag::describeConfig(Fn->Configs[*Config].Config) + "]";
    KO.MaxNReg = Config && Fn && *Config < Fn->Configs.size() ? Fn->Configs[*Config].Config.MaxNReg : std::nullopt;
    if (CA.Instance && *CA.Instance >= Plan.Launches.size()) {
      std::cerr << "tessel compile: error: --instance " << *CA.Instance << ": the launch has " << Plan.Launches.size()
                << " instance" << (Plan.Launches.size() == 1 ? "" : "s") << "\n";
      return ExitUsage;
    }
    for (size_t Index = 0; Index < Plan.Launches.size(); ++Index) {
      if (CA.Instance && Index != *CA.Instance)
        continue;
      const sema::PlannedLaunch &PL = Plan.Launches[Index];
      std::string Title = ConfigTitle;
      if (Plan.Launches.size() > 1 && !PL.Launch.Label.empty())
        Title += " instance " + PL.Launch.Label;
      if (CA.What == Emit::Tir) {
        sema::AnalyzeOptions AO;
        AO.Project = &processProject();
        sema::LoweredKernel L = sema::lowerKernel(*File, Info, PL.Request, AO);
        for (const Problem &P : L.Problems)
          Report(P, false);
        if (!L.Function)
          continue;
        std::string IR = ir::printFunction(*L.Function, Print);
        if (!Printed.insert(IR).second)
          continue;
        if (!Title.empty())
          Out << "//" << Title << "\n";
        Out << IR;
        continue;
      }
      // Instances that differ only in sizes compile alike: once each.
      if (!Compiled.insert(sema::specializationKey(PL.Request) + ";maxnreg=" + std::to_string(KO.MaxNReg.value_or(-1)))
               .second)
        continue;
      backend::KernelJitResult R = backend::jitKernel(*File, Info, PL.Request, KO);
      for (const Problem &P : R.Problems)
        Report(P, false);
      if (!R.Error.empty()) {
        std::cerr << "tessel compile: error: kernel " << CA.Kernel << Title << ": " << R.Error << "\n";
        Failed = true;
        continue;
      }
      if (!R.Kernel)
        continue;
      const backend::CompiledKernel &K = *R.Kernel;
      std::string Text;
      switch (CA.What) {
      case Emit::Tir:
        break;
      case Emit::Llvm:
        Text = K.Llvm;
        break;
      case Emit::Ptx:
        Text = K.Ptx;
        break;
      case Emit::Cubin:
        if (Printed.insert(K.Cubin).second) {
          Binary = K.Cubin;
          ++Binaries;
        }
        continue;
      case Emit::Sass: {
        auto S = backend::disassemble(K.Cubin);
        if (!S) {
          std::cerr << "tessel compile: error: --emit sass: " << llvm::toString(S.takeError())
                    << (backend::hasDisassembler() ? "" : "; --emit cubin writes the binary") << "\n";
          return ExitUsage;
        }
        Text = std::move(*S);
        break;
      }
      case Emit::Report: {
        std::ostringstream RS;
        printReport(RS, Title, R, File->text());
        Text = RS.str();
        break;
      }
      }
      if (!Printed.insert(Text).second)
        continue;
      if (!Title.empty() && CA.What != Emit::Report)
        Out << (CA.What == Emit::Sass ? "#" : "//") << Title << "\n";
      Out << Text;
    }
  }
  if (Binaries > 1)
    return usageError("several instances compiled to cubins: choose one with --config and --instance, or --spec");
  std::string Result = CA.What == Emit::Cubin ? Binary : Out.str();
  if (CA.Output.empty()) {
    std::cout << Result;
  } else {
    std::ofstream F(CA.Output, std::ios::binary);
    F << Result;
    if (!F) {
      std::cerr << "tessel compile: error: cannot write " << CA.Output << "\n";
      return ExitUsage;
    }
  }
  return Failed ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
