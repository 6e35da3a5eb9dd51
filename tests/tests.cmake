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

# ---- accuracy (issue 4's bar): estimate_memory() vs the real trainer within 3% ------------
# bench/estimate_accuracy.cpp runs oomkit's Trainer on the tracking CPU backend and compares
# every phase mark and step peak with the estimator; ctest runs the fast subset with --check,
# scripts/estimate-accuracy.sh the full matrix.
add_executable(estimate_accuracy ${CMAKE_SOURCE_DIR}/bench/estimate_accuracy.cpp)
target_link_libraries(estimate_accuracy PRIVATE oomkit_torch CLI11::CLI11)
target_compile_definitions(estimate_accuracy PRIVATE OOMKIT_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME estimate_accuracy COMMAND estimate_accuracy --subset fast --check --threads 2)
set_tests_properties(estimate_accuracy PROPERTIES LABELS "torch;accuracy" TIMEOUT 120)
