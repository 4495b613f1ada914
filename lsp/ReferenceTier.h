//===- ReferenceTier.h - Clang's diagnostics for the CUDA references a file names -*- C++ -*-===//
/// \file
/// A document whose kernels name CUDA C++ references (`# tessel: reference
/// FILE.cu::KERNEL`, compiler/reference) gets each referenced file read by
/// Clang, parse only, in this process as clangd reads C++ (Clang recovers from
/// any text; no LLVM code generator runs here), and Clang's diagnostics are
/// published for the .cu file's URI at its lines. A reference Clang cannot
/// find the kernel in (no such function, a template without arguments) is one
/// diagnostic at the .cu file's first line.
///
/// Off the keystroke's path: a version only queues its directives; one thread
/// of the tier's own reads the files (with the precompiled CUDA prelude, a
/// hundred milliseconds or so each), and a file is read again only when its
/// text, its kernel or its template arguments changed since it was last
/// published. With Deferred (`--lit-test`) the read happens inline, so a
/// transcript sees the publish right after the document's own.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_REFERENCETIER_H
#define TESSEL_LSP_REFERENCETIER_H

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessel::lsp {

class ReferenceTier {
public:
  /// Publish(uri, diagnostics) sends one file's diagnostics (a JSON array of LSP Diagnostic).
  using Publish = std::function<void(const std::string &Uri, const nlohmann::json &Diagnostics)>;
  ReferenceTier(bool Deferred, Publish P);
  ~ReferenceTier();
  ReferenceTier(const ReferenceTier &) = delete;
  ReferenceTier &operator=(const ReferenceTier &) = delete;

  /// The directives of a document's version (the Python file's path and text).
  void update(const std::string &PyPath, const std::string &PyText);

  struct Check {
    std::string Path; ///< the .cu file, absolute
    std::string Function, TemplateArgs;
  };

private:
  void run(const Check &C);
  void loop();

  bool Deferred;
  Publish Send;
  std::mutex Mu;
  std::condition_variable Wake;
  std::vector<Check> Queue;
  bool Stopping = false;
  /// What was last published per .cu path: its text, kernel and arguments.
  std::map<std::string, std::string> Published;
  std::thread Worker;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_REFERENCETIER_H
