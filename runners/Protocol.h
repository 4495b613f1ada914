//===- Protocol.h - the runner protocol's messages --------------*- C++ -*-===//
/// \file
/// What a tessel client and a `tessel runner` process (local, at the end of
/// an ssh channel, or a Slurm job step) say to each other: one JSON object
/// per line on the runner's stdin and stdout, each with a "type".
///
///   client → runner  {"type":"hello","protocol":1,"tessel":"0.1.0","build":"…"}
///   runner → client  {"type":"hello","protocol":1,"tessel":…,"build":…,"host":"gpu7","cores":64,
///                     "gpus":8,"gpuError":""}
///   client → runner  {"type":"task","id":3,"file":"k.py","text":"…","kernel":"add",
///                     "device":"cpu","seed":0,"config":2,"instance":1,"iters":0,"spec":null,
///                     "format":"json","reportToo":false,"reference":true}
///   runner → client  {"type":"result","id":3,"exit":0,"signal":0,"stdout":"…","stderr":"…","report":"",
///                     "millis":12.5,"cpuMillis":11.0,"maxRssKiB":40960}
///   either side      {"type":"error","message":"…"}   (then it ends)
///
/// The runner answers the client's hello with its own whatever the versions,
/// then ends if they differ, so the client can say which version is there.
/// A task is one `tessel run` of the given text; its report (stdout) comes
/// back as the run printed it, so a result is the local run's byte for byte.
/// Parsing never throws: a malformed line is a one-line error.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_PROTOCOL_H
#define TESSEL_RUNNERS_PROTOCOL_H

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace tessel::runners {

/// Bumped on every change of a message's meaning; both sides must agree.
inline constexpr int ProtocolVersion = 1;

/// Longest line either side accepts (a file's text travels in one): past
/// it the peer is broken, and reading stops rather than filling memory.
inline constexpr size_t MaxLineBytes = 256u << 20;

struct Hello {
  int Protocol = ProtocolVersion;
  std::string Tessel; ///< TESSEL_VERSION_STRING
  std::string Build;  ///< backend::buildId()
  // The runner's side only:
  std::string Host;
  unsigned Cores = 0;
  unsigned Gpus = 0;
  std::string GpuError; ///< why Gpus is 0 ("no GPU: the driver reports no CUDA device")
};

struct Task {
  uint64_t Id = 0;
  std::string File; ///< the path the report names (the client's)
  std::string Text; ///< what is run: the editor's buffer or the file's content
  std::string Kernel;
  bool Gpu = false;
  uint64_t Seed = 0;
  std::optional<uint64_t> Config, Instance;
  uint64_t Iters = 0;
  std::optional<std::string> Spec;
  bool Json = true; ///< --format=json, else text
  /// False: --no-reference (GPU only, outputs unchecked): benchmark sizes
  /// the interpreter would take minutes on.
  bool Reference = true;
  /// Also send the JSON report back beside a text one (the editor's Run:
  /// --json-out), in Result::Report.
  bool ReportToo = false;
};

struct Result {
  uint64_t Id = 0;
  int Exit = -1;  ///< the run's exit status; -1 when it did not exit
  int Signal = 0; ///< the signal that ended it, 0 when none
  std::string Stdout, Stderr;
  std::string Report;               ///< the JSON report, when the task asked for it too
  double Millis = 0, CpuMillis = 0; ///< wall time, user+system time of the run
  uint64_t MaxRssKiB = 0;
};

struct ErrorMessage {
  std::string Message;
};

using Message = std::variant<Hello, Task, Result, ErrorMessage>;

/// One line, without its newline.
std::string encode(const Message &M);

/// The message on Line, or nullopt with Error saying what is wrong with it
/// ("not JSON: …", "a task without \"kernel\"").
std::optional<Message> decode(const std::string &Line, std::string &Error);

/// This binary's hello (Host, Cores and Gpus left for the runner to fill).
Hello ownHello();

/// "" when Peer can serve this binary; else one line naming both versions.
std::string versionMismatch(const Hello &Peer);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_PROTOCOL_H
