# Extra test registrations, one block per module (included from CMakeLists.txt).

# ---- estimate (issue 2): the CLI end to end, bad input -> exit 2 naming the field ----------
add_test(NAME estimate_cli COMMAND ${CMAKE_SOURCE_DIR}/tests/estimate_cli_test.sh $<TARGET_FILE:oomkit> ${CMAKE_SOURCE_DIR}/models)
set_tests_properties(estimate_cli PROPERTIES LABELS core)

# ---- profile (memory backends, profiler) -------------------------------------------------
# The CUDA backend's tests, whole binary, under the `gpu` label (`ctest -L gpu`); without
# CUDA every test in it skips. gtest_discover_tests also registers them under `torch`.
if(TARGET cuda_memory_backend_test)
  add_test(NAME cuda_memory_backend COMMAND cuda_memory_backend_test)
  set_tests_properties(cuda_memory_backend PROPERTIES LABELS "gpu;torch" TIMEOUT 300)
endif()
