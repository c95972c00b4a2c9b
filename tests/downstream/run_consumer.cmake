# Configures, builds and runs tests/downstream/consumer in MODE (find_package,
# fetchcontent or subdirectory). Invoked by CTest with `cmake -P`.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(configure_args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DKILDALL_CONSUME=${MODE})
if(MODE STREQUAL "find_package")
  run(${CMAKE_COMMAND} --install "${KILDALL_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  list(APPEND configure_args -DKILDALL_SOURCE_DIR=${KILDALL_SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} ${configure_args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
message("${last_output}")
