# Runs kildall-mlir-opt on the shipped sample (ctest -L mlir). Arguments:
#   TOOL   the kildall-mlir-opt executable
#   MODE   int-range | sccp
#   INPUT  the .mlir file
#
# int-range: the annotations hold the ranges that can be worked out by hand
#   for the sample, the output parses again, and `compare=true` reports
#   exactly the one value where kildall is tighter than MLIR's own
#   IntegerRangeAnalysis (x * 4 keeps two trailing zero bits).
# sccp: `--kildall-sccp --canonicalize` gives the same module as MLIR's own
#   `--sccp --canonicalize` (the oracle), up to the order canonicalize puts
#   hoisted constants in, and folds @constants to `return 12`.

function(run_tool out err)
  execute_process(COMMAND ${TOOL} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kildall-mlir-opt ${ARGN} failed (${rc}):\n${o}\n${e}")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
  set(${err} "${e}" PARENT_SCOPE)
endfunction()

function(expect text what)
  string(FIND "${text}" "${what}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected to find\n  ${what}\nin\n${text}")
  endif()
endfunction()

function(sorted_lines text out)
  string(REPLACE "\n" ";" lines "${text}")
  list(TRANSFORM lines STRIP)
  list(SORT lines)
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "int-range")
  run_tool(out err --kildall-int-range=compare=true ${INPUT})
  expect("${out}" [=[%1 = arith.minsi %0, %c100_i32 {kildall.range = "[0, 100] u[0, 100]"}]=])
  expect("${out}" [=[arith.cmpi sgt, %1, %c100_i32 {kildall.range = "[0, 0] u[0, 0]"}]=])
  expect("${out}" [=[arith.muli %1, %c7_i32 {kildall.dead}]=])
  expect("${out}" [=[arith.addi %4, %c100_i32 {kildall.range = "[100, 106] u[100, 106]"}]=])
  expect("${out}" [=[arith.muli %arg0, %c4_i32 {kildall.range = "[-2147483648, 2147483644] u[0, 4294967292]"}]=])
  expect("${err}" [=[remark: kildall tighter: kildall [-2147483648, 2147483644] u[0, 4294967292], MLIR [-2147483648, 2147483647] u[0, 4294967295]]=])
  string(REGEX MATCHALL "remark:" remarks "${err}")
  list(LENGTH remarks remark_count)
  if(NOT remark_count EQUAL 1)
    message(FATAL_ERROR "expected exactly one difference with MLIR, got ${remark_count}:\n${err}")
  endif()
  # The annotated module parses again.
  get_filename_component(dir "${INPUT}" DIRECTORY)
  string(RANDOM LENGTH 8 tag)
  set(annotated "${CMAKE_CURRENT_BINARY_DIR}/kildall_mlir_tool_${tag}.mlir")
  file(WRITE "${annotated}" "${out}")
  run_tool(again again_err ${annotated})
  file(REMOVE "${annotated}")
elseif(MODE STREQUAL "sccp")
  run_tool(mine mine_err --kildall-sccp --canonicalize ${INPUT})
  run_tool(theirs theirs_err --sccp --canonicalize ${INPUT})
  expect("${mine}" [=[%c12_i32 = arith.constant 12 : i32
    return %c12_i32 : i32]=])
  sorted_lines("${mine}" mine_sorted)
  sorted_lines("${theirs}" theirs_sorted)
  if(NOT mine_sorted STREQUAL theirs_sorted)
    message(FATAL_ERROR "kildall's SCCP and MLIR's differ:\n--- kildall\n${mine}\n--- MLIR\n${theirs}")
  endif()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
