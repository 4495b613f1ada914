//===- ParameterMapTest.cpp - launch tensors and scalars onto CUDA parameters ===//
#include "compiler/reference/ParameterMap.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::reference;

namespace {

CudaKernel softmaxKernel() {
  CudaKernel K;
  K.Name = "softmax_rows";
  K.Params = {{"x", "const float *", true, true, "fp32", 1},
              {"y", "float *", true, false, "fp32", 1},
              {"n_cols", "int", false, false, "i32", 1},
              {"scale", "float", false, false, "fp32", 1}};
  return K;
}

launch::ConcreteLaunch softmaxLaunch() {
  launch::ConcreteLaunch L;
  L.Tensors.push_back({"x_ptr", "fp32", {4, 8}, {8, 1}, 32, false, launch::TensorInit::Rand});
  L.Tensors.push_back({"out_ptr", "fp32", {4, 8}, {8, 1}, 32, true, launch::TensorInit::Rand});
  L.Values.push_back({"n_cols", false, false, 8, 0, false, ""});
  L.Values.push_back({"scale", false, false, 2, 0, false, ""});
  return L;
}

TEST(ParameterMap, BindsByNamePtrSuffixAndRename) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::softmax_rows y=out_ptr block=(32,) grid=(4,)");
  ParameterMap M = mapParameters(softmaxKernel(), D, softmaxLaunch());
  ASSERT_EQ(M.Error, "");
  ASSERT_EQ(M.Args.size(), 4u);
  EXPECT_EQ(M.Args[0].K, Binding::Kind::Tensor);
  EXPECT_EQ(M.Args[0].Source, "x_ptr");
  EXPECT_EQ(M.Args[1].Tensor, 1u);
  EXPECT_EQ(M.Args[2].K, Binding::Kind::Int);
  EXPECT_EQ(M.Args[2].Int, 8);
  EXPECT_EQ(M.Args[3].K, Binding::Kind::Float);
  EXPECT_EQ(M.Args[3].Float, 2.0);
  EXPECT_TRUE(M.UnwrittenOutputs.empty());
}

TEST(ParameterMap, AnUnmappedParameterIsOneLineNamingIt) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::softmax_rows block=(32,) grid=(4,)");
  ParameterMap M = mapParameters(softmaxKernel(), D, softmaxLaunch());
  EXPECT_EQ(M.Error, "reference parameter 'y' (float *) of softmax_rows has no tensor named 'y' in the launch "
                     "(name it in the directive: y=NAME)");
  EXPECT_EQ(M.Error.find('\n'), std::string::npos);
}

TEST(ParameterMap, ElementTypesMustAgree) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::softmax_rows y=out_ptr block=(32,) grid=(4,)");
  launch::ConcreteLaunch L = softmaxLaunch();
  L.Tensors[0].DType = "fp16";
  ParameterMap M = mapParameters(softmaxKernel(), D, L);
  EXPECT_EQ(M.Error, "reference parameter 'x' (const float *) of softmax_rows points to fp32, but tensor 'x_ptr' "
                     "is fp16");
}

TEST(ParameterMap, AFloatIsNoInteger) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::softmax_rows y=out_ptr block=(32,) grid=(4,)");
  launch::ConcreteLaunch L = softmaxLaunch();
  L.Values[0].IsFloat = true;
  EXPECT_NE(mapParameters(softmaxKernel(), D, L).Error.find("'n_cols' (int) of softmax_rows is an integer"),
            std::string::npos);
}

TEST(ParameterMap, OutputsNoParameterWritesAreListed) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::softmax_rows y=x_ptr block=(32,) grid=(4,)");
  ParameterMap M = mapParameters(softmaxKernel(), D, softmaxLaunch());
  ASSERT_EQ(M.Error, "");
  EXPECT_EQ(M.UnwrittenOutputs, std::vector<std::string>{"out_ptr"});
}

TEST(CudaKernel, DTypesOfCudaTypes) {
  EXPECT_EQ(dtypeOfCudaType("float"), "fp32");
  EXPECT_EQ(dtypeOfCudaType("__half"), "fp16");
  EXPECT_EQ(dtypeOfCudaType("__nv_bfloat16"), "bf16");
  EXPECT_EQ(dtypeOfCudaType("long"), "i64");
  EXPECT_EQ(dtypeOfCudaType("float4"), "");
}

} // namespace
