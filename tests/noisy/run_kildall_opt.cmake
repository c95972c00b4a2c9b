# Runs kildall-opt on a shipped noisy example and checks the exit code,
# stdout (exactly, against a file) and stderr (a regex); optionally solves
# an LP file the run wrote with glpsol and checks its optimum.
#   KILDALL_OPT    the executable          EXAMPLES   examples/noisy
#   ARGS           ;-separated arguments (@WORK@ = scratch directory)
#   WORK_DIR       scratch directory       EXPECT_EXIT  expected exit code
#   EXPECT_STDOUT  file (in EXAMPLES) with the exact expected stdout, optional
#   STDERR_REGEX   regex stderr must match, optional
#   GLPSOL, LP_FILE, LP_OPTIMUM   glpsol must solve @WORK@/LP_FILE to LP_OPTIMUM, optional
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(args "")
foreach(a IN LISTS ARGS)
  string(REPLACE "@WORK@" "${WORK_DIR}" a "${a}")
  list(APPEND args "${a}")
endforeach()
execute_process(COMMAND ${KILDALL_OPT} ${args} WORKING_DIRECTORY ${EXAMPLES}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXPECT_STDOUT)
  file(READ ${EXAMPLES}/${EXPECT_STDOUT} want)
  if(NOT out STREQUAL want)
    message(FATAL_ERROR "stdout differs from ${EXPECT_STDOUT}\n--- got ---\n${out}--- expected ---\n${want}")
  endif()
endif()
if(STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(GLPSOL AND LP_FILE)
  execute_process(COMMAND ${GLPSOL} --lp ${WORK_DIR}/${LP_FILE} -o ${WORK_DIR}/solution.txt
                  RESULT_VARIABLE glp_code OUTPUT_VARIABLE glp_out ERROR_VARIABLE glp_err)
  file(READ ${WORK_DIR}/solution.txt solution)
  if(NOT glp_code STREQUAL "0" OR NOT solution MATCHES "Status: +INTEGER OPTIMAL"
     OR NOT solution MATCHES "Objective: +[^=]*= ${LP_OPTIMUM} ")
    message(FATAL_ERROR "glpsol did not solve ${LP_FILE} to ${LP_OPTIMUM}:\n${glp_out}\n${solution}")
  endif()
endif()
