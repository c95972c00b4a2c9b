# kildall-opt as a black box when the noisy placement cannot be done or the
# solver is limited: each case checks the exit code, that stderr is one clear
# message matching a regex (`file:line:col: error: ...` for input problems,
# `kildall-opt: error: ...` for options), and what happened to the `-o` file:
#   absent    it must not be created;
#   preseed   it exists beforehand with a sentinel that must survive unchanged;
#   written   the run succeeds and writes it.
# (A message line may be followed by `file:line:col: note: ...` lines.)
#   KILDALL_OPT  the executable      EXAMPLES  examples/noisy      WORK_DIR  scratch
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
set(count 0)

function(fault_case name)
  cmake_parse_arguments(C "" "EXIT;REGEX;OUTPUT" "ARGS" ${ARGN})
  set(out ${WORK_DIR}/${name}.out.mlir)
  set(sentinel "// sentinel: must survive a failed run\n")
  if(C_OUTPUT STREQUAL "preseed")
    file(WRITE ${out} "${sentinel}")
  endif()
  set(args "")
  foreach(a IN LISTS C_ARGS)
    string(REPLACE "@WORK@" "${WORK_DIR}" a "${a}")
    list(APPEND args "${a}")
  endforeach()
  execute_process(COMMAND ${KILDALL_OPT} ${args} -o ${out} WORKING_DIRECTORY ${EXAMPLES}
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 120)
  set(problems "")
  if(NOT code STREQUAL C_EXIT)
    string(APPEND problems "  exit code ${code}, expected ${C_EXIT}\n")
  endif()
  if(NOT stderr MATCHES "${C_REGEX}")
    string(APPEND problems "  stderr does not match '${C_REGEX}'\n")
  endif()
  if(C_EXIT STREQUAL "1")
    # One error line, optionally followed by `note:` lines (MLIR's shape).
    string(REPLACE ";" "," text "${stderr}")  # ';' would split the CMake list
    string(REGEX MATCHALL "[^\n]*\n" lines "${text}")
    set(errors 0)
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "^[^ ]+:[0-9]+:[0-9]+: note: " AND NOT line MATCHES "^  ")
        math(EXPR errors "${errors} + 1")
      endif()
    endforeach()
    if(NOT errors EQUAL 1)
      string(APPEND problems "  stderr is not one error line (plus notes)\n")
    endif()
    if(NOT stdout STREQUAL "")
      string(APPEND problems "  stdout is not empty\n")
    endif()
  endif()
  if(C_OUTPUT STREQUAL "absent" AND EXISTS ${out})
    string(APPEND problems "  the output file was created\n")
  elseif(C_OUTPUT STREQUAL "preseed")
    file(READ ${out} now)
    if(NOT now STREQUAL sentinel)
      string(APPEND problems "  the existing output file was changed\n")
    endif()
  elseif(C_OUTPUT STREQUAL "written")
    if(NOT EXISTS ${out})
      string(APPEND problems "  no output file\n")
    else()
      file(READ ${out} now)
      if(NOT now MATCHES "func.func")
        string(APPEND problems "  the output file holds no module\n")
      endif()
    endif()
  endif()
  math(EXPR c "${count} + 1")
  set(count ${c} PARENT_SCOPE)
  if(problems)
    set(failures "${failures}${name} (kildall-opt ${args}):\n${problems}  stderr: ${stderr}\n" PARENT_SCOPE)
  endif()
endfunction()

# No placement exists: the maximum is below what one op produces (ILP and greedy).
fault_case(infeasible_ilp EXIT 1 OUTPUT absent
  ARGS --noisy-reduce-noise --noisy-maximum=20 single_insertion_branching.mlir
  REGEX "^single_insertion_branching.mlir:[0-9]+:[0-9]+: error: 'noisy.mul' op no placement of reduce_noise can make this op legal")
fault_case(infeasible_greedy EXIT 1 OUTPUT preseed
  ARGS --noisy-reduce-noise=greedy --noisy-maximum=20 single_insertion_branching.mlir
  REGEX "^single_insertion_branching.mlir:[0-9]+:[0-9]+: error: 'noisy.mul' op no placement of reduce_noise can make this op legal")
# Fresh values are already noisier than the maximum allows once multiplied.
fault_case(initial_above_maximum EXIT 1 OUTPUT preseed
  ARGS --noisy-reduce-noise --noisy-initial=27 mul_chain.mlir
  REGEX "^mul_chain.mlir:[0-9]+:[0-9]+: error: 'noisy.mul' op no placement of reduce_noise can make this op legal: .*above the allowable maximum of 26\n$")
# The placement model cannot be written.
fault_case(emit_lp_unwritable EXIT 1 OUTPUT absent
  ARGS --noisy-reduce-noise --emit-lp @WORK@/missing/dir/model.lp mul_chain.mlir
  REGEX "^mul_chain.mlir:[0-9]+:[0-9]+: error: --emit-lp: cannot write '.*model.lp'")
# Verification alone fails (no placement requested).
fault_case(verify_fails EXIT 1 OUTPUT preseed
  ARGS --noisy-verify mul_chain.mlir
  REGEX "^mul_chain.mlir:12:8: error: 'noisy.mul' op Found op after which the noise exceeds the allowable maximum of 26; it was: 48\nmul_chain.mlir:12:8: note: see current operation: ")
# Bad solver limits are option errors.
fault_case(negative_time_limit EXIT 1 OUTPUT absent
  ARGS --noisy-reduce-noise --time-limit -1 mul_chain.mlir
  REGEX "^kildall-opt: error: option '--time-limit' needs a number of seconds >= 0, got '-1'\n$")
fault_case(nan_time_limit EXIT 1 OUTPUT preseed
  ARGS --noisy-reduce-noise --time-limit nan mul_chain.mlir
  REGEX "^kildall-opt: error: option '--time-limit' needs a number of seconds >= 0, got 'nan'\n$")
# A time limit that ends the ILP before it proves anything degrades to a
# legal placement, exit 0, and the summary says so: the greedy fallback when
# no ILP point exists yet, else the warm-started point with its gap (which of
# the two depends on timing).
fault_case(zero_time_limit EXIT 0 OUTPUT written
  ARGS --noisy-reduce-noise --time-limit 0 mul_chain.mlir
  REGEX "^noisy-reduce-noise: inserted [0-9]+ reduce_noise ops? \\(greedy: [0-9]+\\) in 1 function, (greedy fallback \\(ILP solver: no_solution|feasible, gap )")

if(failures)
  message(FATAL_ERROR "kildall-opt solver-fault cases failed:\n${failures}")
endif()
message(STATUS "${count} kildall-opt solver-fault cases passed")
