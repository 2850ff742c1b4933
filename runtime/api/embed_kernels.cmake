# cmake -DUQ_COMPILE=exe -DINPUT=kernels.mlir -DOUTPUT=file.c -DEMPTY=file.c
#       -P embed_kernels.cmake
# Runs `uq-compile INPUT --embed-c=OUTPUT`. When the kernels do not compile
# (kernels.mlir is being edited), prints a warning and embeds the empty table
# instead, so the rest of the project still builds; the runtime then reports
# NOT_FOUND "no code object for variant ..." and uq-run says so.
execute_process(
  COMMAND "${UQ_COMPILE}" --quiet "${INPUT}" "--embed-c=${OUTPUT}.tmp"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(result EQUAL 0)
  file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
else()
  message(WARNING "uqrt: uq-compile failed (${result}); libuqrt is built "
                  "WITHOUT kernels:\n${out}${err}")
  file(REMOVE "${OUTPUT}.tmp")
  configure_file("${EMPTY}" "${OUTPUT}" COPYONLY)
endif()
