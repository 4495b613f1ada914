//===- TritonBridge.cpp - the same kernel through Triton, beside tessel ---===//
/// \file
/// The scratch directory holds the runner (written from the string the
/// build made of tools/triton_runner.py), manifest.json, the inputs
/// (`in-N.npy`, one file per distinct tensor: --all-configs gives every
/// config the same seeded inputs) and what the runner leaves: results.json
/// and `out-JOB-NAME.npy`. triton_runner.py's opening comment is the
/// protocol's reference.
//===----------------------------------------------------------------------===//
#include "tools/TritonBridge.h"

#include "compiler/backend/Subprocess.h"
#include "compiler/interp/BufferStats.h"
#include "compiler/ir/TypeUtils.h"
#include "tools/GpuRun.h"
#include "tools/NpyFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace tessel::tools {

#include "tools/TritonRunnerSource.inc"

namespace fs = std::filesystem;
using nlohmann::json;

struct TritonBatch::Job {
  interp::Memory Reference;
  std::vector<std::pair<std::string, uint32_t>> Outputs; ///< tensor name -> buffer id in Reference
  /// With both of tessel's runs: the interpreter's outputs too, by name,
  /// each Outputs' entry's twin (buffer ids in Reference).
  std::map<std::string, uint32_t> InterpreterOutputs;
  std::map<std::string, SourceRange> FromAtomic; ///< TritonReference::FromAtomic
  std::string Against;
  json Instance; ///< its manifest entry
};

size_t TritonInstanceReport::mismatches() const {
  size_t N = CompareError.empty() ? 0 : 1;
  for (const GpuComparison &C : Outputs)
    N += C.Mismatches > 0 && !C.FromAtomic;
  return N;
}

static bool executable(const fs::path &P) {
  std::error_code EC;
  return fs::is_regular_file(P, EC) && ::access(P.c_str(), X_OK) == 0;
}

std::string findPython(std::string &Why) {
  if (const char *P = std::getenv("TESSEL_PYTHON"); P && *P) {
    if (executable(P))
      return P;
    Why = std::string(P) + " (TESSEL_PYTHON) is not an executable file";
    return "";
  }
  if (const char *Path = std::getenv("PATH")) {
    std::stringstream SS(Path);
    std::string D;
    while (std::getline(SS, D, ':'))
      if (!D.empty() && executable(fs::path(D) / "python3"))
        return (fs::path(D) / "python3").string();
  }
  Why = "python3 is not on PATH (set TESSEL_PYTHON to a Python that has torch and triton)";
  return "";
}

TritonBatch::TritonBatch(TritonBatchOptions O) : Opts(std::move(O)) {
  std::error_code EC;
  fs::path Tmp = fs::temp_directory_path(EC);
  std::string Template = ((EC ? fs::path("/tmp") : Tmp) / "tessel-triton-XXXXXX").string();
  if (!::mkdtemp(Template.data())) {
    Why = "cannot create a scratch directory for the Triton runner: " + std::string(std::strerror(errno));
    return;
  }
  Dir = Template;
  std::ofstream Runner(fs::path(Dir) / "triton_runner.py");
  Runner << TritonRunnerSource;
  if (!Runner)
    Why = "cannot write the Triton runner into " + Dir;
  if (Opts.Text && Why.empty()) {
    fs::path Copy = fs::path(Dir) / "src" / fs::path(Opts.File).filename();
    fs::create_directories(Copy.parent_path(), EC);
    std::ofstream Out(Copy);
    Out << *Opts.Text;
    if (!Out)
      Why = "cannot write the file's text for the Triton runner into " + Dir;
    Opts.File = Copy.string();
  }
}

TritonBatch::~TritonBatch() {
  const char *Keep = std::getenv("TESSEL_KEEP_TRITON_DIR");
  if (Dir.empty() || (Keep && *Keep == '1'))
    return;
  std::error_code EC;
  fs::remove_all(Dir, EC);
}

/// A key for the contents of a buffer: equal inputs are written once.
static std::string contentKey(const interp::Buffer &B) {
  uint64_t H = 1469598103934665603ull; // FNV-1a beside the CRC: two sums make a collision moot
  for (uint8_t C : B.Bytes)
    H = (H ^ C) * 1099511628211ull;
  return std::string(shortName(B.Elem)) + "/" + std::to_string(B.Bytes.size()) + "/" +
         std::to_string(interp::crc32(B.Bytes.data(), B.Bytes.size())) + "/" + std::to_string(H);
}

/// Keeps output Name (buffer Id of the inputs, B) as Ref has it: tessel's GPU
/// bytes, else the interpreter's; the interpreter's written flags when it
/// ran, else none (every element counts). With both, the interpreter's bytes
/// are kept as well: when tessel's GPU and interpreter disagree, Triton's
/// output says which of the two it agrees with.
static void keepReference(TritonBatch::Job &J, const std::string &Name, uint32_t Id, const interp::Buffer &B,
                          const TritonReference &Ref) {
  const interp::Buffer *Ran = Ref.Interpreter && Ref.Interpreter->valid(Id) ? &Ref.Interpreter->buffer(Id) : nullptr;
  const std::vector<uint8_t> *Bytes = Ran ? &Ran->Bytes : nullptr;
  if (Ref.Gpu)
    if (auto It = Ref.Gpu->find(Id); It != Ref.Gpu->end() && It->second.size() == B.Bytes.size())
      Bytes = &It->second;
  if (!Bytes)
    return; // nothing of tessel's to compare this output with
  uint32_t Kept = J.Reference.addBuffer(Name, B.Elem, B.numElements(), true);
  interp::Buffer &K = J.Reference.buffer(Kept);
  K.Bytes = *Bytes;
  K.Written = Ran ? Ran->Written : std::vector<uint8_t>();
  J.Outputs.emplace_back(Name, Kept);
  if (!Ran || Bytes == &Ran->Bytes)
    return;
  uint32_t Second = J.Reference.addBuffer(Name, B.Elem, B.numElements(), true);
  J.Reference.buffer(Second).Bytes = Ran->Bytes;
  J.Reference.buffer(Second).Written = Ran->Written;
  J.InterpreterOutputs[Name] = Second;
}

static json valueJson(const launch::ConcreteValue &V) {
  if (V.IsStr)
    return {{"str", V.Str}};
  if (V.IsBool)
    return {{"bool", V.Int != 0}};
  if (V.IsFloat)
    return {{"float", V.Float}};
  return {{"int", V.Int}};
}

/// A constexpr of the file's (not of the launch spec) as the runner reads
/// it; null for a value it cannot take (a tuple, a function).
static json constexprJson(const PyValue &V) {
  if (V.isNone())
    return {{"none", true}};
  if (V.isBool())
    return {{"bool", V.asInt() != 0}};
  if (V.isInt())
    return {{"int", V.asInt()}};
  if (V.isFloat())
    return {{"float", V.asFloat()}};
  if (V.isStr())
    return {{"str", V.asStr()}};
  if (V.kind() == PyValue::Kind::Qualified)
    return {{"qualified", V.qualifiedPath()}}; // triton.language.float16
  return nullptr;
}

bool TritonBatch::add(const launch::ConcreteLaunch &L, const std::map<std::string, PyValue> &Constexprs,
                      const interp::PreparedLaunch &P, const interp::Memory &Inputs, const TritonReference &Ref,
                      TritonInstanceReport &Out) {
  if (!Why.empty()) {
    Out.Error = "not run: " + Why;
    return false;
  }
  Job J;
  J.Against = Ref.Gpu ? "tessel's GPU run" : Ref.Interpreter ? "the interpreter" : "";
  J.FromAtomic = Ref.FromAtomic;
  json Args = json::object();
  for (const launch::ConcreteValue &V : L.Values)
    Args[V.Name] = valueJson(V);
  for (const auto &[Name, V] : Constexprs)
    if (!Args.contains(Name))
      if (json C = constexprJson(V); !C.is_null())
        Args[Name] = std::move(C);
  for (const launch::ConcreteTensor &T : L.Tensors) {
    uint32_t Id = P.buffer(T.Name);
    if (!Id || !Inputs.valid(Id))
      continue;
    const interp::Buffer &B = Inputs.buffer(Id);
    json A = {{"dtype", T.DType},
              {"shape", T.Shape},
              {"strides", T.Strides},
              {"storage", T.StorageElements},
              {"output", B.IsOutput}};
    if (!T.DescBlock.empty()) // a host TensorDescriptor of the tensor, as the launch passes it
      A["descriptor"] = {{"block", T.DescBlock}, {"padding", T.PadNan ? "nan" : "zero"}};
    if (B.IsOutput) {
      keepReference(J, T.Name, Id, B, Ref);
    } else {
      std::string Key = contentKey(B);
      auto [It, New] = InputFiles.try_emplace(Key, "in-" + std::to_string(InputFiles.size()) + ".npy");
      if (New) {
        std::string Error;
        if (!writeNpy((fs::path(Dir) / It->second).string(), B.Elem, {B.numElements()}, B.Bytes, Error)) {
          InputFiles.erase(It);
          Out.Error = "not run: cannot write the input " + T.Name + " for Triton: " + Error;
          return false;
        }
      }
      A["tensor"] = It->second;
    }
    Args[T.Name] = std::move(A);
  }
  Out.Job = static_cast<int64_t>(Jobs.size());
  J.Instance = {{"id", Out.Job},           {"grid", L.Grid},
                {"num_warps", L.NumWarps}, {"num_stages", L.NumStages},
                {"num_ctas", L.NumCtas},   {"args", std::move(Args)}};
  Jobs.push_back(std::move(J));
  return true;
}

static std::string lastLine(const std::string &Text) {
  std::istringstream In(Text);
  std::string Line, Last;
  while (std::getline(In, Line))
    if (Line.find_first_not_of(" \t\r") != std::string::npos)
      Last = Line;
  return Last;
}

/// Triton's outputs of one instance against the job's reference(s).
static void compareJob(const std::string &Dir, const json &Result, const TritonBatch::Job &J,
                       TritonInstanceReport &Out) {
  const interp::Memory &Ref = J.Reference;
  json Files = Result.value("outputs", json::object());
  for (const auto &[Name, Id] : J.Outputs) {
    const interp::Buffer &B = Ref.buffer(Id);
    if (!Files.contains(Name) || !Files[Name].is_string()) {
      Out.CompareError = "the runner saved no " + Name;
      continue;
    }
    NpyArray A;
    std::string Error;
    if (!readNpy((fs::path(Dir) / Files[Name].get<std::string>()).string(), A, Error)) {
      Out.CompareError = "cannot read Triton's " + Name + ": " + Error;
      continue;
    }
    if (A.Bytes.size() != B.Bytes.size()) {
      Out.CompareError = "Triton's " + Name + " has " + std::to_string(A.Bytes.size()) + " bytes, tessel's " +
                         std::to_string(B.Bytes.size());
      continue;
    }
    Out.Outputs.push_back(compareOutput(B, Ref, Id, A.Bytes));
    if (auto It = J.InterpreterOutputs.find(Name); It != J.InterpreterOutputs.end())
      Out.InterpreterOutputs.push_back(compareOutput(Ref.buffer(It->second), Ref, It->second, A.Bytes));
    if (auto At = J.FromAtomic.find(Name); At != J.FromAtomic.end()) {
      Out.Outputs.back().FromAtomic = At->second;
      if (J.InterpreterOutputs.count(Name))
        Out.InterpreterOutputs.back().FromAtomic = At->second;
    }
  }
}

static int64_t figure(const json &R, const char *Key) {
  const json *V = R.contains(Key) ? &R[Key] : nullptr;
  return V && V->is_number_integer() ? V->get<int64_t>() : -1;
}

/// Triton ran no instance: one line for the run, none per instance. Without
/// Triton's launches the line is the PyTorch expression's.
static void failAll(RunReport &Report, std::string Why, bool LaunchTriton = true) {
  (LaunchTriton ? Report.TritonError : Report.TorchError) = std::move(Why);
  for (InstanceReport &I : Report.Instances)
    I.Triton.reset();
}

/// The PyTorch expression's result for one instance (R["torch"]), against the
/// job's output it was cast to.
static TorchInstanceReport torchResult(const std::string &Dir, const json &R, const TritonBatch::Job &J) {
  TorchInstanceReport Out;
  Out.Against = J.Against;
  if (R.contains("error") && R["error"].is_string())
    Out.Error = R["error"].get<std::string>();
  if (!R.value("ran", false)) {
    if (Out.Error.empty())
      Out.Error = "did not run";
    return Out;
  }
  std::string Name = R.value("name", "");
  for (const auto &[Output, Id] : J.Outputs) {
    if (Output != Name)
      continue;
    NpyArray A;
    std::string Error;
    const interp::Buffer &B = J.Reference.buffer(Id);
    if (!readNpy((fs::path(Dir) / R.value("output", "")).string(), A, Error))
      Out.Error = "cannot read PyTorch's result: " + Error;
    else if (A.Bytes.size() != B.Bytes.size())
      Out.Error = "PyTorch's result has " + std::to_string(A.Bytes.size()) + " bytes, " + Name + " " +
                  std::to_string(B.Bytes.size());
    else
      Out.Outputs.push_back(compareOutput(B, J.Reference, Id, A.Bytes));
  }
  Out.Ran = Out.Error.empty();
  if (R.contains("time") && R["time"].is_object()) {
    Out.TimedRuns = R["time"].value("runs", size_t(0));
    Out.MedianMs = R["time"].value("median", 0.0);
  }
  return Out;
}

void TritonBatch::run(RunReport &Report) {
  bool Launch = Opts.LaunchTriton;
  Report.Triton = Launch;
  Report.Torch = Opts.Torch;
  if (!Launch && Opts.Torch.empty()) { // --reference alone, and the directive names no PyTorch operation
    for (InstanceReport &I : Report.Instances)
      I.Triton.reset();
    return;
  }
  if (!Why.empty())
    return failAll(Report, Why, Launch);
  if (Jobs.empty())
    return;
  json Manifest = {{"file", Opts.File}, {"path", Opts.Search}, {"kernel", Opts.Kernel}, {"iters", Opts.Iters}};
  if (!Opts.Torch.empty())
    Manifest["torch"] = Opts.Torch;
  if (!Launch)
    Manifest["launch_triton"] = false;
  Manifest["instances"] = json::array();
  for (const Job &J : Jobs)
    Manifest["instances"].push_back(J.Instance);
  {
    std::ofstream M(fs::path(Dir) / "manifest.json");
    M << Manifest.dump();
    if (!M)
      return failAll(Report, "cannot write the Triton runner's manifest into " + Dir, Launch);
  }
  unsigned Timeout = Opts.TimeoutSeconds ? Opts.TimeoutSeconds : 60 + 30 * static_cast<unsigned>(Jobs.size());
  std::string Runner = (fs::path(Dir) / "triton_runner.py").string();
  auto Ran = backend::runProgram(Opts.Python, {Opts.Python, Runner, Dir}, Timeout);
  // How the process ended, for the instances it did not reach.
  std::string Ending;
  std::string Stderr;
  if (!Ran) {
    Ending = llvm::toString(Ran.takeError());
    if (Ending.find("did not finish within") != std::string::npos)
      Ending = "the Triton runner did not finish within " + std::to_string(Timeout) +
               " s and was stopped (TESSEL_TRITON_TIMEOUT sets the limit)";
  } else if (Ran->ExitCode != 0) {
    Stderr = Ran->Stderr;
    Ending = "the Triton runner exited with code " + std::to_string(Ran->ExitCode) +
             (lastLine(Stderr).empty() ? "" : ": " + lastLine(Stderr));
  }
  json Results;
  {
    std::ifstream In(fs::path(Dir) / "results.json");
    std::stringstream SS;
    SS << In.rdbuf();
    Results = json::parse(SS.str(), nullptr, /*allow_exceptions=*/false);
  }
  if (!Results.is_object()) {
    std::string Why = Ending.empty() ? "the Triton runner ended without writing its results" : Ending;
    if (Ending.empty() && Ran && !lastLine(Ran->Stderr).empty())
      Why += ": " + lastLine(Ran->Stderr);
    return failAll(Report, Why, Launch);
  }
  auto Text = [&](const char *Key) {
    return Results.contains(Key) && Results[Key].is_string() ? Results[Key].get<std::string>() : std::string();
  };
  Report.TritonVersion = Text("triton");
  Report.TritonDevice = Text("device");
  for (const json &N : Results.value("notes", json::array()))
    if (N.is_string())
      Report.TritonNotes.push_back(N.get<std::string>());
  if (std::string Fatal = Text("fatal"); !Fatal.empty()) {
    if (Text("fatal_kind") == "import")
      Fatal += Launch ? " (--triton needs torch, triton and numpy; TESSEL_PYTHON names another Python)"
                      : " (the reference's torch= needs torch and numpy; TESSEL_PYTHON names another Python)";
    return failAll(Report, Fatal, Launch);
  }
  std::map<int64_t, const json *> ById; // into Results, which outlives it
  if (Results.contains("instances") && Results["instances"].is_array())
    for (const json &R : Results["instances"])
      if (R.is_object() && R.contains("id") && R["id"].is_number_integer())
        ById[R["id"].get<int64_t>()] = &R;
  for (InstanceReport &I : Report.Instances) {
    if (!I.Triton || I.Triton->Job < 0 || static_cast<size_t>(I.Triton->Job) >= Jobs.size()) {
      if (!Launch)
        I.Triton.reset();
      continue;
    }
    TritonInstanceReport &T = *I.Triton;
    const Job &J = Jobs[static_cast<size_t>(T.Job)];
    auto It = ById.find(T.Job);
    if (It == ById.end()) {
      std::string NotRun = "not run: " + (Ending.empty() ? "the Triton runner did not reach this instance" : Ending);
      if (!Launch) {
        if (I.CudaRef)
          I.CudaRef->Torch = TorchInstanceReport{false, NotRun, "", {}, 0, 0};
        I.Triton.reset();
        continue;
      }
      T.Error = NotRun;
      continue;
    }
    const json &R = *It->second;
    if (R.contains("torch") && R["torch"].is_object() && I.CudaRef)
      I.CudaRef->Torch = torchResult(Dir, R["torch"], J);
    if (!Launch) {
      I.Triton.reset();
      continue;
    }
    T.Against = J.Against;
    T.SharedBytes = figure(R, "shared");
    T.Registers = figure(R, "n_regs");
    T.Spills = figure(R, "n_spills");
    if (!R.value("ran", false)) {
      T.Error = R.contains("error") && R["error"].is_string() ? R["error"].get<std::string>() : "did not run";
      continue;
    }
    T.Ran = true;
    compareJob(Dir, R, J, T);
    if (R.contains("time") && R["time"].is_object()) {
      const json &Tm = R["time"];
      T.TimedRuns = Tm.value("runs", size_t(0));
      T.MedianMs = Tm.value("median", 0.0);
      T.MinMs = Tm.value("min", 0.0);
      T.MaxMs = Tm.value("max", 0.0);
    }
  }
}

} // namespace tessel::tools
