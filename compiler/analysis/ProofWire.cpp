//===- ProofWire.cpp - a kernel's verdicts as bytes -----------------------===//
#include "compiler/analysis/ProofWire.h"

#include "compiler/support/ByteCodec.h"

namespace tessel::analysis {

namespace {

constexpr uint32_t WireVersion = 1;
/// Far above any kernel's accesses, assumptions or launch values: a count
/// beyond it is a corrupt payload, not a reason to reserve memory.
constexpr uint32_t MaxItems = 1u << 16;

void putRange(ByteWriter &W, SourceRange R) {
  W.u32(R.Begin);
  W.u32(R.End);
}
SourceRange getRange(ByteReader &R) {
  SourceRange S;
  S.Begin = R.u32();
  S.End = R.u32();
  return S;
}

/// A count of items to read, or nullopt when it cannot be one.
std::optional<uint32_t> count(ByteReader &R) {
  uint32_t N = R.u32();
  if (R.bad() || N > MaxItems || N > R.remaining())
    return std::nullopt;
  return N;
}

/// Named values (a counterexample's loop variables, scalars, floats): a
/// count, then each name and its value.
template <typename V, typename PutFn>
void putNamed(ByteWriter &W, const std::vector<std::pair<std::string, V>> &Pairs, PutFn Put) {
  W.u32(static_cast<uint32_t>(Pairs.size()));
  for (const auto &[Name, Value] : Pairs) {
    W.str(Name);
    Put(Value);
  }
}

template <typename V, typename GetFn>
bool getNamed(ByteReader &R, std::vector<std::pair<std::string, V>> &Pairs, GetFn Get) {
  auto N = count(R);
  if (!N)
    return false;
  for (uint32_t I = 0; I < *N; ++I) {
    std::string Name(R.str());
    Pairs.emplace_back(std::move(Name), Get());
  }
  return true;
}

void putExample(ByteWriter &W, const Counterexample &C) {
  W.str(C.Pointer);
  W.i64(C.Offset);
  W.i64(C.Extent);
  for (int64_t V : C.ProgramId)
    W.i64(V);
  W.i64(C.Lane);
  auto PutI64 = [&W](int64_t V) { W.i64(V); };
  putNamed(W, C.Iterations, PutI64);
  putNamed(W, C.Scalars, PutI64);
  putNamed(W, C.Floats, [&W](double V) { W.f64(V); });
  W.u32(static_cast<uint32_t>(C.Tensors.size()));
  for (const Counterexample::Tensor &T : C.Tensors) {
    W.str(T.Name);
    W.str(T.DType);
    W.i64(T.Elements);
  }
  for (int64_t V : C.Grid)
    W.i64(V);
  W.str(C.Text);
}

bool getExample(ByteReader &R, Counterexample &C) {
  C.Pointer = R.str();
  C.Offset = R.i64();
  C.Extent = R.i64();
  for (int64_t &V : C.ProgramId)
    V = R.i64();
  C.Lane = R.i64();
  auto GetI64 = [&R] { return R.i64(); };
  if (!getNamed(R, C.Iterations, GetI64) || !getNamed(R, C.Scalars, GetI64) ||
      !getNamed(R, C.Floats, [&R] { return R.f64(); }))
    return false;
  auto NT = count(R);
  if (!NT)
    return false;
  for (uint32_t I = 0; I < *NT; ++I) {
    Counterexample::Tensor T;
    T.Name = R.str();
    T.DType = R.str();
    T.Elements = R.i64();
    C.Tensors.push_back(std::move(T));
  }
  for (int64_t &V : C.Grid)
    V = R.i64();
  C.Text = R.str();
  return !R.bad();
}

} // namespace

std::string encodeKernelBounds(const KernelBounds &K) {
  ByteWriter W;
  W.u32(WireVersion);
  W.str(K.Kernel);
  putRange(W, K.NameRange);
  W.u8(K.Analysed);
  W.str(K.Reason);
  W.u8(K.FromSpec);
  W.u8(K.FromWrapper);
  W.str(K.LaunchKey);
  W.u8(K.TimedOut);
  W.str(K.Failure);
  W.u32(static_cast<uint32_t>(K.Assumptions.size()));
  for (const std::string &A : K.Assumptions)
    W.str(A);
  W.u32(static_cast<uint32_t>(K.Accesses.size()));
  for (const AccessBounds &A : K.Accesses) {
    putRange(W, A.Range);
    W.str(A.Op);
    W.u8(static_cast<uint8_t>(A.Verdict));
    W.u8(A.Certain);
    putExample(W, A.Example);
    W.str(A.Reason);
    W.u8(A.OutOfLimits);
  }
  W.f64(K.Milliseconds);
  return std::move(W.Out);
}

std::optional<KernelBounds> decodeKernelBounds(std::string_view Bytes) {
  ByteReader R(Bytes);
  if (R.u32() != WireVersion)
    return std::nullopt;
  KernelBounds K;
  K.Kernel = R.str();
  K.NameRange = getRange(R);
  K.Analysed = R.u8() != 0;
  K.Reason = R.str();
  K.FromSpec = R.u8() != 0;
  K.FromWrapper = R.u8() != 0;
  K.LaunchKey = R.str();
  K.TimedOut = R.u8() != 0;
  K.Failure = R.str();
  auto NA = count(R);
  if (!NA)
    return std::nullopt;
  for (uint32_t I = 0; I < *NA; ++I)
    K.Assumptions.emplace_back(R.str());
  auto NX = count(R);
  if (!NX)
    return std::nullopt;
  for (uint32_t I = 0; I < *NX; ++I) {
    AccessBounds A;
    A.Range = getRange(R);
    A.Op = R.str();
    uint8_t V = R.u8();
    if (V > static_cast<uint8_t>(BoundsVerdict::Undecided))
      return std::nullopt;
    A.Verdict = static_cast<BoundsVerdict>(V);
    A.Certain = R.u8() != 0;
    if (!getExample(R, A.Example))
      return std::nullopt;
    A.Reason = R.str();
    A.OutOfLimits = R.u8() != 0;
    K.Accesses.push_back(std::move(A));
  }
  K.Milliseconds = R.f64();
  if (!R.done())
    return std::nullopt;
  return K;
}

} // namespace tessel::analysis
