//===- GridAxes.h - grid axes whose last program covers a whole block -*- C++ -*-===//
/// \file
/// Which program_id axes of a kernel never start a partial block: the grid
/// entry is a plain count (`N // BLOCK`, `B * H`, 1), or a `cdiv(N, B)` whose
/// division the host states exact before the launch (HostFacts: in the
/// launching function or a validator it calls, in any module of the
/// project); a divisor the launch takes from the autotune configs
/// (`meta["G"]`) is exact when each config's value divides the asserted one.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_GRIDAXES_H
#define TESSEL_COMPILER_SEMA_GRIDAXES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/sema/HostNames.h"

#include <cstdint>
#include <set>

namespace tessel::sema {

/// The grid axes that every launch site of Fn sizes with a plain count
/// rather than a rounded-up `cdiv` (`kernel[(N // BLOCK, B * H)](...)`, also
/// through a local `grid = (...)`, `grid = lambda META: (...)` or
/// `def grid(META): return (...)` in the launching function), or leaves out;
/// empty when a launch site's grid is not written out as a tuple or there is
/// no launch site. Names: what M's top-level names mean (may be empty).
std::set<int64_t> floorDividedGridAxes(const JitFunction &Fn, const ast::Module &M, const HostNames &Names = {});

/// (program_id axis, parameter) pairs where every launch site of Fn sizes
/// the axis `cdiv(N, B)` and passes the parameter as N rounded up to a
/// multiple of every B (`seqlen_q_rounded = math.ceil(seqlen_q / 128) * 128`
/// with BLOCK_M 128): a row of that pitch holds every block the axis starts.
std::set<std::pair<int64_t, std::string>> paddedRowPitches(const JitFunction &Fn, const ast::Module &M,
                                                           const HostNames &Names = {});

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_GRIDAXES_H
