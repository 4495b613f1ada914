//===- ReferenceTier.cpp - Clang's diagnostics for the CUDA references a file names ---===//
/// \file
/// Clang reports a line and a byte column (1-based); the LSP position comes
/// from the .cu text's own LineIndex, the one place UTF-16 is computed.
/// Diagnostics Clang places in headers the .cu includes, or at the directive's
/// appended template instance, are shown at the .cu file's first line with
/// their place in the message, so none is lost.
//===----------------------------------------------------------------------===//
#include "lsp/ReferenceTier.h"

#include "compiler/backend/Target.h"
#include "compiler/reference/CudaFrontend.h"
#include "compiler/reference/ReferenceDirective.h"
#include "lsp/LineIndex.h"
#include "lsp/Protocol.h"
#include "lsp/Uri.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace tessel::lsp {

ReferenceTier::ReferenceTier(bool Deferred, Publish P) : Deferred(Deferred), Send(std::move(P)) {
  if (!Deferred)
    Worker = std::thread([this] { loop(); });
}

ReferenceTier::~ReferenceTier() {
  {
    std::lock_guard<std::mutex> L(Mu);
    Stopping = true;
  }
  Wake.notify_all();
  if (Worker.joinable())
    Worker.join();
}

void ReferenceTier::update(const std::string &PyPath, const std::string &PyText) {
  if (PyText.find("tessel:") == std::string::npos) // most files: no directive, no scan
    return;
  std::vector<Check> Checks;
  for (const reference::ReferenceDirective &D : reference::findReferenceDirectives(PyText)) {
    if (D.File.empty() || D.Function.empty())
      continue;
    llvm::SmallString<256> Path(D.File);
    if (!llvm::sys::path::is_absolute(Path)) {
      Path = llvm::sys::path::parent_path(PyPath);
      llvm::sys::path::append(Path, D.File);
    }
    Checks.push_back({std::string(Path), D.Function, D.TemplateArgs});
  }
  if (Checks.empty())
    return;
  if (Deferred) {
    for (const Check &C : Checks)
      run(C);
    return;
  }
  {
    std::lock_guard<std::mutex> L(Mu);
    for (Check &C : Checks)
      Queue.push_back(std::move(C));
  }
  Wake.notify_one();
}

void ReferenceTier::loop() {
  while (true) {
    std::vector<Check> Batch;
    {
      std::unique_lock<std::mutex> L(Mu);
      Wake.wait(L, [this] { return Stopping || !Queue.empty(); });
      if (Stopping)
        return;
      Batch.swap(Queue);
    }
    for (const Check &C : Batch)
      run(C);
  }
}

static nlohmann::json diagnostic(const LineIndex &Lines, const SourceText &Text, uint32_t Line, uint32_t Column,
                                 int Severity, const std::string &Message) {
  uint32_t Offset = Line ? Text.offset({Line - 1, Column ? Column - 1 : 0}) : 0;
  Position P = Lines.position(Offset);
  Position E = Lines.position(Line ? Text.offset({Line - 1, Column}) : 0);
  return {{"range", {{"start", P}, {"end", E}}}, {"severity", Severity}, {"source", "clang"}, {"message", Message}};
}

void ReferenceTier::run(const Check &C) {
  auto Buf = llvm::MemoryBuffer::getFile(C.Path, /*IsText=*/true);
  std::string Text = Buf ? (*Buf)->getBuffer().str() : std::string();
  std::string Key = Text + '\0' + C.Function + '\0' + C.TemplateArgs;
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Published.find(C.Path);
    if (It != Published.end() && It->second == Key)
      return;
    Published[C.Path] = Key;
  }
  auto Source = std::make_shared<SourceText>(Text, C.Path);
  LineIndex Lines(Source);
  nlohmann::json Diags = nlohmann::json::array();
  if (!Buf) {
    Send(pathToUri(C.Path), Diags); // a file that cannot be read has no lines to mark
    return;
  }
  reference::CudaOptions O;
  O.Arch = backend::defaultArch();
  O.Generate = false;
  O.Text = Text;
  reference::ReferenceSource S = reference::readReference(C.Path, C.Function, C.TemplateArgs, O);
  for (const reference::ClangDiagnostic &D : S.Diagnostics) {
    int Severity = D.Severity >= reference::ClangDiagnostic::Level::Error     ? 1
                   : D.Severity == reference::ClangDiagnostic::Level::Warning ? 2
                                                                              : 3;
    std::string Message = D.Message + (D.Flag.empty() ? "" : " [" + D.Flag + "]");
    if (D.File == C.Path)
      Diags.push_back(diagnostic(Lines, *Source, D.Line, D.Column, Severity, Message));
    else
      Diags.push_back(diagnostic(Lines, *Source, 0, 0, Severity, reference::formatDiagnostic(D)));
  }
  if (!S.Error.empty())
    Diags.push_back(diagnostic(Lines, *Source, 0, 0, 1, S.Error));
  Send(pathToUri(C.Path), Diags);
}

} // namespace tessel::lsp
