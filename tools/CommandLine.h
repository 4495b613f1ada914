//===- CommandLine.h - option parsing shared by the subcommands -*- C++ -*-===//
/// \file
/// The small pieces every subcommand's argument loop needs: `--name=value`
/// or `--name value` options, and whether to colour text output.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_COMMANDLINE_H
#define TESSEL_TOOLS_COMMANDLINE_H

#include "compiler/project/Project.h"
#include "tools/Subcommands.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessel::tools {

/// Splits "--name=value" or "--name value" (advancing I past the value);
/// returns false if A[I] is not --name. Missing is set when the value is
/// absent at the end of the command line.
bool takeValue(const Args &A, size_t &I, std::string_view Name, std::string_view &Value, bool &Missing);

/// A decimal number of at most 19 digits (so it fits in 64 bits), nothing
/// else; false leaves Out unchanged.
bool parseUnsigned(std::string_view Text, uint64_t &Out);

enum class ColorMode { Auto, Always, Never };

/// Parses "auto", "always" or "never".
bool parseColorMode(std::string_view Value, ColorMode &Out);

/// Auto: only when stdout is a terminal, NO_COLOR is unset and TERM is not "dumb".
bool useColor(ColorMode M);

/// The project model of this process (files read from disk, imports followed
/// from the checked file's project root): `tessel run` and `tessel compile`
/// lower kernels that call imported helpers through it.
project::Project &processProject();

/// This binary's path (/proc/self/exe), "tessel" when it cannot be read: the
/// processes tessel starts of itself (the editor's runs, the --sanitize child).
std::string selfExecutable();

} // namespace tessel::tools

#endif // TESSEL_TOOLS_COMMANDLINE_H
