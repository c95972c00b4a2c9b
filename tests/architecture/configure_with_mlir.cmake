# Configures the project as a user with MLIR 16 installed would (examples/mlir
# enabled), without MLIR: a stand-in install tree holds the two headers and two
# libraries examples/mlir looks for, as empty files. Configuring (not building)
# checks the CMake code that only runs when MLIR is found, which a machine
# without MLIR, such as the CI's, would otherwise never read.
#   cmake -DSOURCE=<project> -DWORK=<scratch dir> -DGENERATOR=<generator> -P configure_with_mlir.cmake
foreach(var SOURCE WORK GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "configure_with_mlir.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
set(root ${WORK}/llvm-16)
foreach(file include/mlir/Analysis/DataFlow/IntegerRangeAnalysis.h include/llvm/ADT/SmallVector.h
             lib/libMLIR.so lib/libLLVM-16.so)
  file(WRITE ${root}/${file} "")
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G ${GENERATOR} -DKILDALL_LLVM_ROOT=${root}
          -DKILDALL_BUILD_BENCHMARKS=OFF -DKILDALL_CHECK_HEADERS=OFF
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring with MLIR found failed (${status}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "MLIR 16 found")
  message(FATAL_ERROR "the stand-in MLIR install was not found, so examples/mlir was not read:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "configured with MLIR found: examples/mlir read without error")
