//===- Disassemble.h - a cubin's SASS through the toolkit's tools -*- C++ -*-===//
/// \file
/// The machine code of a cubin as text, through nvdisasm (preferred) or
/// cuobjdump run as programs with a time limit. Both `tessel compile --emit
/// sass` and the language server's SASS view call it. Without either tool the
/// error is one line naming them and where they were searched.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_DISASSEMBLE_H
#define TESSEL_COMPILER_BACKEND_DISASSEMBLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tessel::backend {

/// Is there a disassembler (nvdisasm or cuobjdump) in the toolkit?
bool hasDisassembler();

llvm::Expected<std::string> disassemble(llvm::StringRef Cubin);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_DISASSEMBLE_H
