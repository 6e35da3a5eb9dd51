# oomkit_report_assets(ROOT OUT_VAR): the build rule that embeds the report page's CSS and
# JavaScript (ROOT/src/report/assets/) as byte arrays through embed_assets.cmake; sets OUT_VAR to
# the generated source, to add to the library that holds src/report (declared in
# src/report/report_assets.h). Used by the main build and by fuzz/.
function(oomkit_report_assets root out_var)
  set(out ${CMAKE_BINARY_DIR}/generated/report_assets.cpp)
  set(css ${root}/src/report/assets/report.css)
  set(js ${root}/src/report/assets/report.js)
  set(assets kReportCss=${css} kReportJs=${js})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${out} "-DASSETS=${assets}"
            -P ${root}/cmake/embed_assets.cmake
    DEPENDS ${css} ${js} ${root}/cmake/embed_assets.cmake
    COMMENT "Embedding the report's CSS and JavaScript"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
