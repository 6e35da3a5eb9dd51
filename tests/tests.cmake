# Extra test registrations, one block per module (included from CMakeLists.txt).

# ---- profile (memory backends, profiler) -------------------------------------------------
# The CUDA backend's tests, whole binary, under the `gpu` label (`ctest -L gpu`); without
# CUDA every test in it skips. gtest_discover_tests also registers them under `torch`.
if(TARGET cuda_memory_backend_test)
  add_test(NAME cuda_memory_backend COMMAND cuda_memory_backend_test)
  set_tests_properties(cuda_memory_backend PROPERTIES LABELS "gpu;torch" TIMEOUT 300)
endif()

# ---- report (issue 6): the HTML report in headless Chromium ---------------------------------
# Needs chromium + chromium-driver (scripts/setup.sh installs them); exits 77 (skipped) without.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME report_browser
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/browser/browser_test.py
      --oomkit $<TARGET_FILE:oomkit> --data ${CMAKE_SOURCE_DIR}/tests/data/report
      --out ${CMAKE_BINARY_DIR}/browser --timeout 240)
  set_tests_properties(report_browser PROPERTIES LABELS browser TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
# ---- end report -----------------------------------------------------------------------------
