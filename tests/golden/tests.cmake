# Golden tests: for every samples/**/*.py, `tessel check` output in JSON and in
# text is compared with tests/golden/<path under samples/ without .py>.{json,txt}.
# TESSEL_UPDATE_GOLDEN=1 ctest -R golden rewrites the expected files instead.
# tessel runs from the repository root with a relative path, so the paths in
# the output (and hence the expected files) do not depend on the checkout.
file(GLOB_RECURSE golden_samples CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/samples
  ${PROJECT_SOURCE_DIR}/samples/*.py)
list(SORT golden_samples)
foreach(sample ${golden_samples})
  string(REGEX REPLACE "\\.py$" "" stem ${sample})
  foreach(format json text)
    set(ext ${format})
    if(format STREQUAL "text")
      set(ext txt)
    endif()
    # The bounds prover's samples and fixtures, and the real bugs it must find, are checked with it
    # (tessel check --prove).
    set(prove_args -DPROVE=0)
    if(sample MATCHES "^prover/" OR sample MATCHES "^bugs/ts20[34]_" OR sample MATCHES "^realcode/.*real_bugs")
      set(prove_args -DPROVE=1)
    endif()
    add_test(NAME golden.${format}.${stem}
      COMMAND ${CMAKE_COMMAND} -DTESSEL=$<TARGET_FILE:tessel> -DROOT=${PROJECT_SOURCE_DIR}
        -DSAMPLE=samples/${sample} -DFORMAT=${format} ${prove_args}
        -DEXPECTED=${CMAKE_CURRENT_LIST_DIR}/${stem}.${ext}
        -DACTUAL=${CMAKE_CURRENT_BINARY_DIR}/golden-actual/${stem}.${ext}
        -P ${CMAKE_CURRENT_LIST_DIR}/RunGolden.cmake)
  endforeach()
endforeach()

# The README's main command: every top-level sample checks clean (exit 0).
file(GLOB clean_samples CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/samples/*.py)
if(clean_samples)
  list(SORT clean_samples)
  add_test(NAME samples.check_clean COMMAND tessel check --color=never ${clean_samples}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()

# Golden tile IR: `tessel compile --emit tir` of three samples under fixed
# launch specs, compared with tests/golden/tir/<name>.tir (same update rule).
function(tessel_tir_golden name sample kernel spec)
  add_test(NAME golden.tir.${name}
    COMMAND ${CMAKE_COMMAND} -DTESSEL=$<TARGET_FILE:tessel> -DROOT=${PROJECT_SOURCE_DIR}
      "-DARGS=compile;samples/${sample};--kernel;${kernel};--emit;tir;--spec;${spec}"
      -DEXPECTED=${CMAKE_CURRENT_LIST_DIR}/tir/${name}.tir
      -DACTUAL=${CMAKE_CURRENT_BINARY_DIR}/golden-actual/tir/${name}.tir
      -P ${CMAKE_CURRENT_LIST_DIR}/RunGolden.cmake)
endfunction()
tessel_tir_golden(vector_add vector_add.py vector_add_kernel
  "n=4096 x_ptr=fp32[n] y_ptr=fp32[n] out_ptr=fp32[n]:out n_elements=n BLOCK_SIZE=1024 grid=(cdiv(n, BLOCK_SIZE),)")
tessel_tir_golden(fused_softmax fused_softmax.py fused_softmax_kernel
  "rows=64 cols=781 in_ptr=fp32[rows, cols] out_ptr=fp32[rows, cols]:out in_row_stride=cols out_row_stride=cols n_rows=rows n_cols=cols BLOCK_SIZE=1024 NUM_STAGES=3 grid=(16,)")
tessel_tir_golden(matmul matmul.py matmul_kernel
  "M=256 N=256 K=128 a_ptr=fp16[M, K] b_ptr=fp16[K, N] c_ptr=fp16[M, N]:out stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 BLOCK_M=64 BLOCK_N=64 BLOCK_K=32 GROUP_M=8 grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)")

# `tessel compile` error paths: a sema error is reported at its token (exit 1),
# usage errors say what is wrong (exit 2); neither prints IR.
add_test(NAME compile.sema_error_text COMMAND sh -c
  "tessel_bin=$0; $tessel_bin compile samples/bugs/ts105_invalid_arange.py --kernel hundred_kernel --emit tir --color=never 2>&1; echo exit=$?"
  $<TARGET_FILE:tessel> WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(compile.sema_error_text PROPERTIES
  PASS_REGULAR_EXPRESSION "ts105_invalid_arange.py:12:12: error: arange's range must be a power of 2 \\[TS105\\].*exit=1")
add_test(NAME compile.unknown_kernel COMMAND tessel compile samples/vector_add.py --kernel nope --emit tir)
set_tests_properties(compile.unknown_kernel PROPERTIES
  PASS_REGULAR_EXPRESSION "no @triton.jit kernel named 'nope'; the file defines vector_add_kernel"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME compile.unknown_emit COMMAND tessel compile samples/vector_add.py --kernel vector_add_kernel --emit bogus)
set_tests_properties(compile.unknown_emit PROPERTIES
  PASS_REGULAR_EXPRESSION "--emit takes tir, llvm, ptx, cubin, sass or report")
