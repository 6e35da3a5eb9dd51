# Extra test registrations. Each module keeps its lines in its own block.

# ---- estimate (issue 2): the CLI end to end, bad input -> exit 2 naming the field ----------
add_test(NAME estimate_cli COMMAND ${CMAKE_SOURCE_DIR}/tests/estimate_cli_test.sh $<TARGET_FILE:oomkit> ${CMAKE_SOURCE_DIR}/models)
set_tests_properties(estimate_cli PROPERTIES LABELS core)
