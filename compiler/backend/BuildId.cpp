//===- BuildId.cpp - which build of tessel's compiler this is -------------===//
/// \file
/// The one file that includes the generated BuildId.h, so that a new
/// identity recompiles only this file.
//===----------------------------------------------------------------------===//
#include "compiler/backend/BuildId.h"

#include "tessel/BuildId.h"

namespace tessel::backend {

const char *buildId() { return TESSEL_BUILD_ID; }

} // namespace tessel::backend
