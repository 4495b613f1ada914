//===- Protocol.cpp - the runner protocol's messages ----------------------===//
/// \file
/// JSON lines through nlohmann/json, with every field's type checked before
/// it is read, so a malformed or hostile line is an error value, never an
/// exception or a crash.
//===----------------------------------------------------------------------===//
#include "runners/Protocol.h"

#include "compiler/backend/BuildId.h"
#include "tessel/Version.h"

#include <nlohmann/json.hpp>

namespace tessel::runners {

using nlohmann::json;

namespace {

/// Reads the fields of one object, remembering the first problem.
class Fields {
public:
  Fields(const json &J, std::string &Error) : J(J), Error(Error) {}

  bool ok() const { return Error.empty(); }

  void str(const char *Name, std::string &Out, bool Required = true) {
    const json *V = find(Name, Required);
    if (!V)
      return;
    if (!V->is_string())
      return fail(std::string("\"") + Name + "\" is not a string");
    Out = V->get<std::string>();
  }
  void optStr(const char *Name, std::optional<std::string> &Out) {
    const json *V = find(Name, false);
    if (!V || V->is_null())
      return;
    if (!V->is_string())
      return fail(std::string("\"") + Name + "\" is not a string");
    Out = V->get<std::string>();
  }
  void u64(const char *Name, uint64_t &Out, bool Required = true) {
    const json *V = find(Name, Required);
    if (!V)
      return;
    if (!V->is_number_unsigned())
      return fail(std::string("\"") + Name + "\" is not a non-negative integer");
    Out = V->get<uint64_t>();
  }
  void optU64(const char *Name, std::optional<uint64_t> &Out) {
    const json *V = find(Name, false);
    if (!V || V->is_null())
      return;
    uint64_t N = 0;
    u64(Name, N);
    Out = N;
  }
  void i32(const char *Name, int &Out, bool Required = true) {
    const json *V = find(Name, Required);
    if (!V)
      return;
    if (!V->is_number_integer() || V->get<int64_t>() < -(1ll << 31) || V->get<int64_t>() >= (1ll << 31))
      return fail(std::string("\"") + Name + "\" is not a 32-bit integer");
    Out = static_cast<int>(V->get<int64_t>());
  }
  void u32(const char *Name, unsigned &Out) {
    uint64_t N = 0;
    u64(Name, N, false);
    if (N > 1u << 20)
      return fail(std::string("\"") + Name + "\" is out of range");
    Out = static_cast<unsigned>(N);
  }
  void num(const char *Name, double &Out) {
    const json *V = find(Name, false);
    if (!V)
      return;
    if (!V->is_number())
      return fail(std::string("\"") + Name + "\" is not a number");
    Out = V->get<double>();
  }
  void boolean(const char *Name, bool &Out) {
    const json *V = find(Name, false);
    if (!V)
      return;
    if (!V->is_boolean())
      return fail(std::string("\"") + Name + "\" is not true or false");
    Out = V->get<bool>();
  }

private:
  const json *find(const char *Name, bool Required) {
    if (!ok())
      return nullptr;
    auto It = J.find(Name);
    if (It != J.end())
      return &*It;
    if (Required)
      fail(std::string("no \"") + Name + "\"");
    return nullptr;
  }
  void fail(std::string Why) {
    if (Error.empty())
      Error = std::move(Why);
  }

  const json &J;
  std::string &Error;
};

} // namespace

static json toJson(const Hello &H) {
  return {{"type", "hello"}, {"protocol", H.Protocol}, {"tessel", H.Tessel}, {"build", H.Build},
          {"host", H.Host},  {"cores", H.Cores},       {"gpus", H.Gpus},     {"gpuError", H.GpuError}};
}

static json toJson(const Task &T) {
  json J = {{"type", "task"},
            {"id", T.Id},
            {"file", T.File},
            {"text", T.Text},
            {"kernel", T.Kernel},
            {"device", T.Gpu ? "gpu" : "cpu"},
            {"seed", T.Seed},
            {"iters", T.Iters},
            {"format", T.Json ? "json" : "text"},
            {"reportToo", T.ReportToo},
            {"reference", T.Reference}};
  J["config"] = T.Config ? json(*T.Config) : json(nullptr);
  J["instance"] = T.Instance ? json(*T.Instance) : json(nullptr);
  J["spec"] = T.Spec ? json(*T.Spec) : json(nullptr);
  return J;
}

static json toJson(const Result &R) {
  return {{"type", "result"},        {"id", R.Id},         {"exit", R.Exit},
          {"signal", R.Signal},      {"stdout", R.Stdout}, {"stderr", R.Stderr},
          {"report", R.Report},      {"millis", R.Millis}, {"cpuMillis", R.CpuMillis},
          {"maxRssKiB", R.MaxRssKiB}};
}

static json toJson(const ErrorMessage &E) { return {{"type", "error"}, {"message", E.Message}}; }

std::string encode(const Message &M) {
  // Invalid UTF-8 in a file's text or a run's output is replaced, not thrown on.
  return std::visit([](const auto &V) { return toJson(V).dump(-1, ' ', false, json::error_handler_t::replace); }, M);
}

std::optional<Message> decode(const std::string &Line, std::string &Error) {
  json J = json::parse(Line, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded()) {
    Error = "not JSON: " + Line.substr(0, 80);
    return std::nullopt;
  }
  if (!J.is_object() || !J.contains("type") || !J["type"].is_string()) {
    Error = "a message without a \"type\": " + Line.substr(0, 80);
    return std::nullopt;
  }
  std::string Type = J["type"].get<std::string>();
  Fields F(J, Error);
  if (Type == "hello") {
    Hello H;
    F.i32("protocol", H.Protocol);
    F.str("tessel", H.Tessel);
    F.str("build", H.Build, false);
    F.str("host", H.Host, false);
    F.u32("cores", H.Cores);
    F.u32("gpus", H.Gpus);
    F.str("gpuError", H.GpuError, false);
    return F.ok() ? std::optional<Message>(H) : std::nullopt;
  }
  if (Type == "task") {
    Task T;
    std::string Device = "cpu", Format = "json";
    F.u64("id", T.Id);
    F.str("file", T.File);
    F.str("text", T.Text);
    F.str("kernel", T.Kernel);
    F.str("device", Device, false);
    F.u64("seed", T.Seed, false);
    F.optU64("config", T.Config);
    F.optU64("instance", T.Instance);
    F.u64("iters", T.Iters, false);
    F.optStr("spec", T.Spec);
    F.str("format", Format, false);
    F.boolean("reportToo", T.ReportToo);
    F.boolean("reference", T.Reference);
    if (F.ok() && Device != "cpu" && Device != "gpu")
      Error = "\"device\" is neither cpu nor gpu";
    if (F.ok() && Format != "json" && Format != "text")
      Error = "\"format\" is neither json nor text";
    T.Gpu = Device == "gpu";
    T.Json = Format == "json";
    return F.ok() ? std::optional<Message>(T) : std::nullopt;
  }
  if (Type == "result") {
    Result R;
    F.u64("id", R.Id);
    F.i32("exit", R.Exit);
    F.i32("signal", R.Signal, false);
    F.str("stdout", R.Stdout);
    F.str("stderr", R.Stderr, false);
    F.str("report", R.Report, false);
    F.num("millis", R.Millis);
    F.num("cpuMillis", R.CpuMillis);
    F.u64("maxRssKiB", R.MaxRssKiB, false);
    return F.ok() ? std::optional<Message>(R) : std::nullopt;
  }
  if (Type == "error") {
    ErrorMessage E;
    F.str("message", E.Message);
    return F.ok() ? std::optional<Message>(E) : std::nullopt;
  }
  Error = "unknown message type \"" + Type + "\"";
  return std::nullopt;
}

Hello ownHello() {
  Hello H;
  H.Tessel = TESSEL_VERSION_STRING;
  H.Build = backend::buildId();
  return H;
}

/// The part of a build id that names the compiler's sources (after '+'):
/// two checkouts of one commit built alike agree on it.
static std::string sourceHash(const std::string &Build) {
  size_t Plus = Build.find('+');
  return Plus == std::string::npos ? Build : Build.substr(Plus + 1);
}

std::string versionMismatch(const Hello &Peer) {
  Hello Own = ownHello();
  if (Peer.Protocol == Own.Protocol && Peer.Tessel == Own.Tessel && sourceHash(Peer.Build) == sourceHash(Own.Build))
    return "";
  return "remote tessel is " + Peer.Tessel + " (build " + Peer.Build + ", protocol " + std::to_string(Peer.Protocol) +
         "), this is " + Own.Tessel + " (build " + Own.Build + ", protocol " + std::to_string(Own.Protocol) +
         "): install the same build there";
}

} // namespace tessel::runners
