//===- References.h - double-precision references shared by the tests -*- C++ -*-===//
/// \file
/// Plain loops in double precision that kernels run by the interpreter are
/// compared with, kept in one place so every test checks against the same
/// definition.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_REFERENCES_H
#define TESSEL_TESTS_UNIT_REFERENCES_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::testref {

/// Softmax of every row of a Rows x Cols row-major matrix, max-subtracted
/// as the fused-softmax kernels compute it.
inline std::vector<double> softmaxRows(const std::vector<double> &X, int64_t Rows, int64_t Cols) {
  std::vector<double> Y(X.size());
  for (int64_t Row = 0; Row < Rows; ++Row) {
    const double *In = &X[static_cast<size_t>(Row * Cols)];
    double *Out = &Y[static_cast<size_t>(Row * Cols)];
    double Max = -INFINITY, Sum = 0;
    for (int64_t C = 0; C < Cols; ++C)
      Max = std::max(Max, In[C]);
    for (int64_t C = 0; C < Cols; ++C)
      Sum += std::exp(In[C] - Max);
    for (int64_t C = 0; C < Cols; ++C)
      Out[C] = std::exp(In[C] - Max) / Sum;
  }
  return Y;
}

} // namespace tessel::testref

#endif // TESSEL_TESTS_UNIT_REFERENCES_H
