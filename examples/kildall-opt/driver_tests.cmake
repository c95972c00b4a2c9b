# Driver tests (see CMakeLists.txt: kildall_opt_test and run_driver_test.cmake).

# Printing, passes, dumps, traces, DOT.
kildall_opt_test(kildall_opt_print ARGS @EXAMPLES@/article.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/article.mlir)
kildall_opt_test(kildall_opt_print_stdin ARGS - STDIN_FILE examples/article.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/article.mlir)
kildall_opt_test(kildall_opt_reprint ARGS @EXAMPLES@/../expected/article.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/article.mlir)
kildall_opt_test(kildall_opt_sccp ARGS --sccp @EXAMPLES@/constants.mlir -o @WORK@/out.mlir EXPECT_EXIT 0
                 OUTPUT_FILE @WORK@/out.mlir EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_dump_sccp ARGS --dump-analysis=sccp @EXAMPLES@/constants.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/constants.sccp.txt)
kildall_opt_test(kildall_opt_dump_int_range ARGS --dump-analysis=int-range @EXAMPLES@/ranges.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/ranges.int-range.txt)
kildall_opt_test(kildall_opt_int_range_optimizations ARGS --int-range-optimizations @EXAMPLES@/ranges.mlir
                 EXPECT_EXIT 0 EXPECT_STDOUT expected/ranges.opt.mlir)
kildall_opt_test(kildall_opt_unsigned_when_equivalent ARGS --arith-unsigned-when-equivalent @EXAMPLES@/unsigned.mlir
                 EXPECT_EXIT 0 EXPECT_STDOUT expected/unsigned.unsigned.mlir)
kildall_opt_test(kildall_opt_unsigned_then_canonicalize ARGS --arith-unsigned-when-equivalent --canonicalize
                 @EXAMPLES@/unsigned.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/unsigned.canonical.mlir)
kildall_opt_test(kildall_opt_canonicalize ARGS --canonicalize @EXAMPLES@/constants.mlir -o @WORK@/out.mlir EXPECT_EXIT 0
                 OUTPUT_FILE @WORK@/out.mlir EXPECT_STDOUT expected/constants.canonical.mlir)
kildall_opt_test(kildall_opt_timing_rows_rewrites ARGS --timing --canonicalize --arith-unsigned-when-equivalent
                 @EXAMPLES@/unsigned.mlir -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  Canonicalizer\n.*%\\)  ArithUnsignedWhenEquivalent\n.*%\\)  Output\n")
kildall_opt_test(kildall_opt_debug_analysis ARGS --dump-analysis=int-range --debug-analysis @EXAMPLES@/article.mlir
                 -o @WORK@/dump.txt EXPECT_EXIT 0 EXPECT_STDERR expected/article.debug.txt)
kildall_opt_test(kildall_opt_dot ARGS --dot --dump-analysis=int-range @EXAMPLES@/ranges.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/ranges.dot)
kildall_opt_test(kildall_opt_dot_values ARGS --dot=values --dump-analysis=int-range @EXAMPLES@/ranges.mlir
                 EXPECT_EXIT 0 EXPECT_STDOUT expected/ranges.values.dot)
kildall_opt_test(kildall_opt_dot_unknown_graph ARGS --dot=cfgs @EXAMPLES@/ranges.mlir EXPECT_EXIT 1
                 STDERR_REGEX "kildall-opt: error: unknown graph 'cfgs' for --dot= \\(expected: values\\)")
kildall_opt_test(kildall_opt_timing ARGS --timing --sccp --int-range-optimizations @EXAMPLES@/constants.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "Total Execution Time: [0-9.]+ seconds.*\\(100\\.0%\\)  Total")
kildall_opt_test(kildall_opt_timing_rows ARGS --timing --sccp --int-range-optimizations @EXAMPLES@/constants.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  SCCP\n.*%\\)  IntRangeOptimizations\n.*%\\)  Output\n.*%\\)  Total\n")
kildall_opt_test(kildall_opt_help ARGS --help EXPECT_EXIT 0)

# Every malformed input: exact diagnostic, exit code 1, no output file created,
# and an existing output file left untouched.
foreach(case unknown_op undefined_value redefinition type_mismatch operand_count missing_block block_arguments
             missing_terminator dominance literal_range)
  kildall_opt_test(kildall_opt_error_${case} ARGS @TESTS@/${case}.mlir -o @WORK@/out.mlir EXPECT_EXIT 1
                   EXPECT_STDERR tests/${case}.err OUTPUT_FILE @WORK@/out.mlir)
  kildall_opt_test(kildall_opt_error_${case}_keeps_output ARGS --sccp @TESTS@/${case}.mlir -o @WORK@/out.mlir
                   EXPECT_EXIT 1 EXPECT_STDERR tests/${case}.err OUTPUT_FILE @WORK@/out.mlir PRESEED_OUTPUT ON)
endforeach()

# Command-line errors.
kildall_opt_test(kildall_opt_refuses_to_overwrite_input ARGS --sccp @WORK@/input.mlir -o @WORK@/input.mlir
                 COPY_INPUT examples/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: refusing to overwrite the input file")
kildall_opt_test(kildall_opt_unknown_option ARGS --bogus @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: unknown option '--bogus' \\(see --help\\)\n$")
kildall_opt_test(kildall_opt_missing_input ARGS @WORK@/absent.mlir -o @WORK@/out.mlir EXPECT_EXIT 1
                 OUTPUT_FILE @WORK@/out.mlir STDERR_REGEX "^kildall-opt: error: cannot open input file")
kildall_opt_test(kildall_opt_no_input ARGS --sccp EXPECT_EXIT 1 STDERR_REGEX "^kildall-opt: error: no input file")
kildall_opt_test(kildall_opt_bad_dump ARGS --dump-analysis=foo @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "unknown analysis 'foo'")
