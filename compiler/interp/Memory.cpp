//===- Memory.cpp - host buffers a kernel runs on -------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Buffer allocation and the element accessors tests and the run command
/// use to fill inputs and read outputs.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Memory.h"

#include "compiler/interp/ElementIO.h"

namespace tessel::interp {

int64_t Buffer::elementBytes() const { return ir::elemBytes({Elem, 0, false}); }

uint32_t Memory::addBuffer(std::string Name, ScalarKind Elem, int64_t Count, bool IsOutput) {
  Buffer B;
  B.Name = std::move(Name);
  B.Elem = Elem;
  B.Bytes.assign(static_cast<size_t>(Count * ir::elemBytes({Elem, 0, false})), 0);
  B.IsOutput = IsOutput;
  if (IsOutput)
    B.Written.assign(B.Bytes.size(), 0);
  Buffers.push_back(std::move(B));
  return static_cast<uint32_t>(Buffers.size());
}

double Memory::readFloat(uint32_t Id, int64_t I) const {
  const Buffer &B = buffer(Id);
  const uint8_t *P = B.Bytes.data() + I * B.elementBytes();
  return ir::isFloatScalar(B.Elem) ? loadFloatElem(P, B.Elem) : static_cast<double>(loadIntElem(P, {B.Elem, 0, false}));
}

int64_t Memory::readInt(uint32_t Id, int64_t I) const {
  const Buffer &B = buffer(Id);
  const uint8_t *P = B.Bytes.data() + I * B.elementBytes();
  return ir::isFloatScalar(B.Elem) ? static_cast<int64_t>(loadFloatElem(P, B.Elem))
                                   : loadIntElem(P, {B.Elem, 0, false});
}

void Memory::writeFloat(uint32_t Id, int64_t I, double V) {
  Buffer &B = buffer(Id);
  uint8_t *P = B.Bytes.data() + I * B.elementBytes();
  if (ir::isFloatScalar(B.Elem))
    storeFloatElem(P, B.Elem, V);
  else
    storeIntElem(P, {B.Elem, 0, false}, static_cast<int64_t>(V));
}

void Memory::writeInt(uint32_t Id, int64_t I, int64_t V) {
  Buffer &B = buffer(Id);
  uint8_t *P = B.Bytes.data() + I * B.elementBytes();
  if (ir::isFloatScalar(B.Elem))
    storeFloatElem(P, B.Elem, static_cast<double>(V));
  else
    storeIntElem(P, {B.Elem, 0, false}, V);
}

} // namespace tessel::interp
