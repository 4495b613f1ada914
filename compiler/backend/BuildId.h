//===- BuildId.h - which build of tessel's compiler this is -----*- C++ -*-===//
/// \file
/// The identity of this build of the compiler (cmake/BuildId.cmake, computed
/// at every build): `<git commit>[-dirty]+<hash of compiler/'s files, the
/// LLVM version and the build type>`. The JIT's cache key includes it, so a
/// rebuilt tessel whose compiler changed never takes a cubin the previous
/// build left in the disk cache; `tessel --version` prints it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_BUILDID_H
#define TESSEL_COMPILER_BACKEND_BUILDID_H

namespace tessel::backend {

const char *buildId();

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_BUILDID_H
