# `tessel run --triton` without a GPU (tools/TritonBridge.h). What the bridge does on a GPU, with torch
# and triton, is tests/gpu/triton_bridge.py's; here:
# - the runner is valid Python, loads a file inside a package with its relative imports working, and a
#   real python3 without torch gets one clear line (the runner's own "cannot import torch" path, run for
#   real: python-without-site.sh hides site-packages);
# - usage: a Python that is not there, a bad TESSEL_TRITON_TIMEOUT, --iters without a device;
# - a runner that hangs is stopped at TESSEL_TRITON_TIMEOUT;
# - tessel's reading, comparing and printing of a runner's results, fed by fake_triton_runner.py (a
#   stand-in for Python and the runner that computes vector_add's outputs itself): this tests tessel's
#   side only, hence the name.
set(triton_dir ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME triton.runner_is_python
  COMMAND python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])"
    ${PROJECT_SOURCE_DIR}/tools/triton_runner.py)

add_test(NAME triton.runner_functions
  COMMAND python3 ${triton_dir}/runner_functions_test.py ${PROJECT_SOURCE_DIR}/tools/triton_runner.py)

function(tessel_triton_case name)
  cmake_parse_arguments(C "" "" "ENV;ARGS" ${ARGN})
  add_test(NAME triton.${name}
    COMMAND ${triton_dir}/check.sh ${triton_dir}/expected/${name}.txt $<TARGET_FILE:tessel> ${C_ARGS})
  set_tests_properties(triton.${name} PROPERTIES ENVIRONMENT "${C_ENV}" TIMEOUT 60 LABELS triton)
endfunction()

set(vadd run samples/vector_add.py --kernel vector_add_kernel --color=never)
tessel_triton_case(no_torch ENV TESSEL_PYTHON=${triton_dir}/python-without-site.sh ARGS ${vadd} --triton)
tessel_triton_case(no_python ENV TESSEL_PYTHON=/nonexistent/python3 ARGS ${vadd} --triton)
tessel_triton_case(bad_timeout ENV TESSEL_PYTHON=${triton_dir}/python-without-site.sh TESSEL_TRITON_TIMEOUT=soon
  ARGS ${vadd} --triton)
tessel_triton_case(iters_needs_a_device ARGS ${vadd} --iters 5)
tessel_triton_case(runner_timeout ENV TESSEL_PYTHON=${triton_dir}/slow-python.sh TESSEL_TRITON_TIMEOUT=1
  ARGS ${vadd} --triton)
tessel_triton_case(parsing_with_fake_runner ENV TESSEL_PYTHON=${triton_dir}/fake_triton_runner.py
  ARGS ${vadd} --triton --iters 5)
tessel_triton_case(parsing_with_fake_runner_json ENV TESSEL_PYTHON=${triton_dir}/fake_triton_runner.py CHECK_JSON_PART=1
  ARGS ${vadd} --triton --format=json)
