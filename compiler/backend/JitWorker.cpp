//===- JitWorker.cpp - the JIT's LLVM stages in a worker process ----------===//
/// \file
/// Both sides of the protocol of JitWorker.h: the one-shot worker (a process
/// per compile, through runProgram) and the long-lived one (posix_spawn with
/// pipes, in its own process group, read with poll so that a time limit and a
/// cancel flag are honoured while it works).
//===----------------------------------------------------------------------===//
#include "compiler/backend/JitWorker.h"

#include "compiler/backend/Subprocess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace tessel::backend {

/// The flags of a request (both protocols).
static std::vector<std::string> workerFlags(const LaunchShape &Launch, const JitOptions &Opts) {
  return {"--arch",      Opts.Arch.name(),
          "--threads",   std::to_string(Launch.Threads),
          "--shared",    std::to_string(Launch.DynamicShared),
          "--assemble",  Opts.Assemble ? "1" : "0",
          "--keep-llvm", Opts.KeepLlvm ? "1" : "0"};
}

static std::string bitcodeOf(llvm::Module &M) {
  std::string Bitcode;
  llvm::raw_string_ostream OS(Bitcode);
  llvm::WriteBitcodeToFile(M, OS);
  OS.flush();
  return Bitcode;
}

/// A one-shot reply ("OK\n..." / "ERR\n...") as a kernel or an error.
static llvm::Expected<CompiledKernel> decodeReply(llvm::StringRef Reply, std::chrono::steady_clock::time_point T0,
                                                  bool &Understood) {
  Understood = true;
  if (Reply.consume_front("ERR\n"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Reply.str().c_str());
  if (Reply.consume_front("OK\n")) {
    auto K = deserialize(Reply);
    if (K)
      K->Times = {{"worker", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count()}};
    return K;
  }
  Understood = false;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "no reply");
}

llvm::Expected<CompiledKernel> compileInWorker(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts,
                                               const std::string &Program, unsigned TimeoutSeconds) {
  std::string Bitcode = bitcodeOf(M);
  std::vector<std::string> Args = {"tessel", "jit-worker"};
  for (std::string &F : workerFlags(Launch, Opts))
    Args.push_back(std::move(F));
  auto T0 = std::chrono::steady_clock::now();
  auto Out = runProgram(Program, Args, TimeoutSeconds, llvm::StringRef(Bitcode));
  if (!Out)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the JIT worker failed: %s",
                                   llvm::toString(Out.takeError()).c_str());
  bool Understood = false;
  auto K = decodeReply(Out->Stdout, T0, Understood);
  if (Understood)
    return K;
  llvm::consumeError(K.takeError());
  std::string Why = Out->Stderr.empty() ? "no reply" : Out->Stderr;
  if (Why.size() > 2000)
    Why.resize(2000);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "the JIT worker ended (exit status %d): %s",
                                 Out->ExitCode, Why.c_str());
}

std::string runJitWorker(const std::vector<std::string> &Args, llvm::StringRef Stdin) {
  JitOptions JO;
  LaunchShape Launch;
  auto Fail = [](const std::string &Why) { return "ERR\n" + Why; };
  if (Args.size() % 2)
    return Fail("jit-worker: arguments come in pairs (--flag value)");
  for (size_t I = 0; I + 1 < Args.size(); I += 2) {
    const std::string &Flag = Args[I], &V = Args[I + 1];
    unsigned N = 0;
    bool IsNumber = !llvm::StringRef(V).getAsInteger(10, N);
    if (Flag == "--arch") {
      std::optional<GpuArch> A = parseArch(V);
      if (!A)
        return Fail("jit-worker: unknown architecture " + V);
      JO.Arch = *A;
    } else if (Flag == "--threads" && IsNumber) {
      Launch.Threads = N;
    } else if (Flag == "--shared" && IsNumber) {
      Launch.DynamicShared = N;
    } else if (Flag == "--assemble" && IsNumber) {
      JO.Assemble = N != 0;
    } else if (Flag == "--keep-llvm" && IsNumber) {
      JO.KeepLlvm = N != 0;
    } else {
      return Fail("jit-worker: bad argument " + Flag + " " + V);
    }
  }
  llvm::LLVMContext Ctx;
  auto Buf = llvm::MemoryBuffer::getMemBuffer(Stdin, "kernel.bc", /*RequiresNullTerminator=*/false);
  auto M = llvm::parseBitcodeFile(Buf->getMemBufferRef(), Ctx);
  if (!M)
    return Fail("jit-worker: the kernel's bitcode does not read: " + llvm::toString(M.takeError()));
  auto K = compileModule(**M, Launch, JO);
  if (!K)
    return Fail(llvm::toString(K.takeError()));
  return "OK\n" + serialize(*K);
}

//===----------------------------------------------------------------------===//
// The long-lived worker
//===----------------------------------------------------------------------===//

static bool writeAll(int Fd, llvm::StringRef Bytes) {
  while (!Bytes.empty()) {
    ssize_t N = ::write(Fd, Bytes.data(), Bytes.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Bytes = Bytes.drop_front(size_t(N));
  }
  return true;
}

namespace {
/// Buffered reads of a blocking descriptor (the worker's stdin).
struct LineReader {
  int Fd;
  std::string Buf;
  bool fill() {
    char Chunk[1 << 16];
    while (true) {
      ssize_t N = ::read(Fd, Chunk, sizeof Chunk);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Buf.append(Chunk, size_t(N));
      return true;
    }
  }
  bool line(std::string &Out) {
    size_t Nl;
    while ((Nl = Buf.find('\n')) == std::string::npos)
      if (!fill())
        return false;
    Out = Buf.substr(0, Nl);
    Buf.erase(0, Nl + 1);
    return true;
  }
  bool bytes(size_t N, std::string &Out) {
    while (Buf.size() < N)
      if (!fill())
        return false;
    Out = Buf.substr(0, N);
    Buf.erase(0, N);
    return true;
  }
};
} // namespace

int serveJitWorker(int InFd, int OutFd) {
  LineReader In{InFd, {}};
  std::string Header, Bitcode;
  while (In.line(Header)) {
    llvm::SmallVector<llvm::StringRef, 16> Tokens;
    llvm::StringRef(Header).split(Tokens, ' ', -1, /*KeepEmpty=*/false);
    size_t Size = 0;
    if (Tokens.empty() || Tokens.back().getAsInteger(10, Size))
      return 2; // not this protocol: the caller sees the worker end
    if (!In.bytes(Size, Bitcode))
      return 2;
    std::vector<std::string> Args;
    for (size_t I = 0; I + 1 < Tokens.size(); ++I)
      Args.push_back(Tokens[I].str());
    std::string Reply = runJitWorker(Args, Bitcode);
    if (!writeAll(OutFd, std::to_string(Reply.size()) + "\n") || !writeAll(OutFd, Reply))
      return 2;
  }
  return 0;
}

JitWorkerProcess::JitWorkerProcess(std::string Program) : Program(std::move(Program)) {}

JitWorkerProcess::~JitWorkerProcess() {
  std::lock_guard<std::mutex> L(Mu);
  stop();
}

unsigned JitWorkerProcess::starts() const {
  std::lock_guard<std::mutex> L(Mu);
  return Starts;
}

pid_t JitWorkerProcess::pid() const {
  std::lock_guard<std::mutex> L(Mu);
  return Pid;
}

static llvm::Error sysError(const char *What) {
  return llvm::createStringError(std::error_code(errno, std::generic_category()), "%s: %s", What, std::strerror(errno));
}

llvm::Error JitWorkerProcess::start() {
  // A worker that died leaves its pipe closed: writing to it must be an
  // error (EPIPE), not the end of this process.
  if (::signal(SIGPIPE, SIG_IGN) == SIG_ERR)
    return sysError("cannot ignore SIGPIPE");
  int In[2], Out[2];
  if (::pipe2(In, O_CLOEXEC) != 0)
    return sysError("cannot create a pipe for the JIT worker");
  if (::pipe2(Out, O_CLOEXEC) != 0) {
    ::close(In[0]);
    ::close(In[1]);
    return sysError("cannot create a pipe for the JIT worker");
  }
  // Its stderr goes to an unlinked file, truncated before each request, so
  // a crash's last words can be read afterwards and a chatty worker never
  // blocks on a full pipe.
  char Name[] = "/tmp/tessel-jit-worker-XXXXXX";
  int Err = ::mkostemp(Name, O_CLOEXEC | O_APPEND);
  if (Err >= 0)
    ::unlink(Name);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, In[0], 0);
  posix_spawn_file_actions_adddup2(&Actions, Out[1], 1);
  if (Err >= 0)
    posix_spawn_file_actions_adddup2(&Actions, Err, 2);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attr, 0);
  std::string Arg0 = "tessel", Arg1 = "jit-worker", Arg2 = "--serve";
  char *Argv[] = {Arg0.data(), Arg1.data(), Arg2.data(), nullptr};
  pid_t Child = -1;
  int Rc = ::posix_spawn(&Child, Program.c_str(), &Actions, &Attr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  ::close(In[0]);
  ::close(Out[1]);
  if (Rc != 0) {
    ::close(In[1]);
    ::close(Out[0]);
    if (Err >= 0)
      ::close(Err);
    return llvm::createStringError(std::error_code(Rc, std::generic_category()),
                                   "cannot run the JIT worker (%s jit-worker --serve): %s", Program.c_str(),
                                   std::strerror(Rc));
  }
  Pid = Child;
  ToChild = In[1];
  FromChild = Out[0];
  ErrFile = Err;
  ++Starts;
  return llvm::Error::success();
}

void JitWorkerProcess::stop() {
  if (Pid > 0) {
    ::kill(-Pid, SIGKILL); // the whole group: the worker and the ptxas it runs
    ::kill(Pid, SIGKILL);
    int Status = 0;
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
  }
  for (int *Fd : {&ToChild, &FromChild, &ErrFile})
    if (*Fd >= 0) {
      ::close(*Fd);
      *Fd = -1;
    }
  Pid = -1;
}

std::string JitWorkerProcess::deathNote() {
  std::string Why = "ended";
  int Status = 0;
  pid_t Done = -1;
  // The pipe closed: the worker is gone or going; give it a moment.
  for (int I = 0; I < 200 && (Done = ::waitpid(Pid, &Status, WNOHANG)) == 0; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (Done == Pid) {
    Pid = -1; // reaped: stop() must not signal a pid that may be reused
    if (WIFSIGNALED(Status))
      Why = std::string("crashed (") + ::strsignal(WTERMSIG(Status)) + ")";
    else if (WIFEXITED(Status))
      Why = "ended (exit status " + std::to_string(WEXITSTATUS(Status)) + ")";
  }
  std::string Tail;
  if (ErrFile >= 0) {
    off_t Size = ::lseek(ErrFile, 0, SEEK_END);
    off_t From = Size > 2000 ? Size - 2000 : 0;
    Tail.resize(size_t(Size - From));
    ssize_t N = ::pread(ErrFile, Tail.data(), Tail.size(), From);
    Tail.resize(N > 0 ? size_t(N) : 0);
    while (!Tail.empty() && (Tail.back() == '\n' || Tail.back() == ' '))
      Tail.pop_back();
  }
  return "the JIT worker " + Why + (Tail.empty() ? "" : ": " + Tail);
}

llvm::Expected<std::string> JitWorkerProcess::exchange(const std::string &Request, unsigned TimeoutSeconds,
                                                       const std::atomic<bool> *Cancelled) {
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::seconds(TimeoutSeconds ? TimeoutSeconds : 3600);
  auto Fail = [&](std::string Why) -> llvm::Expected<std::string> {
    stop();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Why.c_str());
  };
  auto Interrupted = [&]() -> std::optional<std::string> {
    if (Cancelled && Cancelled->load())
      return std::string("the compile was cancelled");
    if (Clock::now() >= Deadline)
      return "the JIT worker did not finish within " + std::to_string(TimeoutSeconds) + " s and was stopped";
    return std::nullopt;
  };
  if (ErrFile >= 0 && ::ftruncate(ErrFile, 0) != 0)
    return Fail(std::string("cannot reset the JIT worker's log: ") + std::strerror(errno));
  // Write with poll: a worker stuck before reading must not block us.
  size_t Sent = 0;
  ::fcntl(ToChild, F_SETFL, ::fcntl(ToChild, F_GETFL) | O_NONBLOCK);
  while (Sent < Request.size()) {
    if (auto Why = Interrupted())
      return Fail(*Why);
    pollfd P{ToChild, POLLOUT, 0};
    int R = ::poll(&P, 1, 20);
    if (R < 0 && errno != EINTR)
      return Fail(std::string("poll failed: ") + std::strerror(errno));
    if (R <= 0)
      continue;
    ssize_t N = ::write(ToChild, Request.data() + Sent, Request.size() - Sent);
    if (N < 0 && (errno == EAGAIN || errno == EINTR))
      continue;
    if (N <= 0)
      return Fail(deathNote());
    Sent += size_t(N);
  }
  std::string Got;
  size_t Want = 0;
  bool HaveSize = false;
  char Chunk[1 << 16];
  while (!HaveSize || Got.size() < Want) {
    if (auto Why = Interrupted())
      return Fail(*Why);
    pollfd P{FromChild, POLLIN, 0};
    int R = ::poll(&P, 1, 20);
    if (R < 0 && errno != EINTR)
      return Fail(std::string("poll failed: ") + std::strerror(errno));
    if (R <= 0)
      continue;
    ssize_t N = ::read(FromChild, Chunk, sizeof Chunk);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return Fail(deathNote());
    Got.append(Chunk, size_t(N));
    if (!HaveSize) {
      size_t Nl = Got.find('\n');
      if (Nl == std::string::npos) {
        if (Got.size() > 32)
          return Fail("the JIT worker answered garbage");
        continue;
      }
      if (llvm::StringRef(Got).take_front(Nl).getAsInteger(10, Want))
        return Fail("the JIT worker answered garbage");
      Got.erase(0, Nl + 1);
      HaveSize = true;
    }
  }
  if (Got.size() != Want)
    return Fail("the JIT worker answered garbage");
  return Got;
}

llvm::Expected<CompiledKernel> JitWorkerProcess::compile(llvm::Module &M, const LaunchShape &Launch,
                                                         const JitOptions &Opts, unsigned TimeoutSeconds,
                                                         const std::atomic<bool> *Cancelled) {
  std::string Bitcode = bitcodeOf(M);
  std::string Request;
  for (const std::string &F : workerFlags(Launch, Opts))
    Request += F + " ";
  Request += std::to_string(Bitcode.size()) + "\n";
  Request += Bitcode;
  std::lock_guard<std::mutex> L(Mu);
  if (Cancelled && Cancelled->load())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the compile was cancelled");
  auto T0 = std::chrono::steady_clock::now();
  if (Pid < 0)
    if (llvm::Error E = start())
      return E;
  auto Reply = exchange(Request, TimeoutSeconds, Cancelled);
  if (!Reply)
    return Reply.takeError();
  bool Understood = false;
  auto K = decodeReply(*Reply, T0, Understood);
  if (!Understood) {
    llvm::consumeError(K.takeError());
    stop();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the JIT worker answered garbage");
  }
  return K;
}

} // namespace tessel::backend
