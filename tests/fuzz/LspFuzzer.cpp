//===- LspFuzzer.cpp - libFuzzer target for transport + dispatch ----------===//
/// \file
/// Feeds arbitrary bytes to the language server through the in-memory
/// transport, as clangd's fuzzer does: the first byte picks the framing
/// (Content-Length or delimited), the rest is the client's input. The server
/// runs deferred (no worker threads), so every input runs the same way; it
/// must never crash, hang or leak, whatever the bytes. Run kernels spawn
/// /bin/false, so fuzzing never starts another tessel; the JIT tier's
/// background compiles are off (each would spend milliseconds in LLVM per
/// input), and an IR view's worker is /bin/false too.
//===----------------------------------------------------------------------===//
#include "lsp/Server.h"
#include "lsp/Transport.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  tessel::lsp::LspOptions Opts;
  Opts.WorkerThreads = 0;
  Opts.GpuAvailable = false;
  Opts.Log = tessel::lsp::LogLevel::Error;
  Opts.SelfExecutable = "/bin/false";
  Opts.WatchClientProcess = false;
  Opts.Jit = false;
  Opts.Transport.InputStyle = Data[0] & 1 ? tessel::lsp::FramingStyle::Delimited : tessel::lsp::FramingStyle::Standard;
  Opts.Transport.MaxMessageBytes = 1 << 20;
  std::string Output;
  auto T = tessel::lsp::newMemoryTransport(std::string(reinterpret_cast<const char *>(Data) + 1, Size - 1), Output,
                                           Opts.Transport);
  tessel::lsp::runLanguageServer(Opts, *T);
  return 0;
}
