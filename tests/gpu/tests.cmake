# gpu_codegen_check: runs every sample kernel's cubin on the local GPU
# (libcuda through dlopen) and compares its outputs with the interpreter's on
# the same seeded inputs. Built always; run only on a machine with a GPU
# (CI has none): build/tests/gpu_codegen_check [--arch 90] [samples...].
add_executable(gpu_codegen_check ${CMAKE_CURRENT_LIST_DIR}/GpuCheck.cpp)
target_compile_options(gpu_codegen_check PRIVATE ${TESSEL_WARNINGS})
target_link_libraries(gpu_codegen_check PRIVATE tessel_backend tessel_codegen tessel_interp tessel_sema ${CMAKE_DL_LIBS})
target_include_directories(gpu_codegen_check PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(gpu_codegen_check PRIVATE TESSEL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
