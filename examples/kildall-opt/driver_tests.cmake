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
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  'func.func' Pipeline\n.*%\\)    Canonicalizer\n.*%\\)    ArithUnsignedWhenEquivalent\n.*%\\)  Output\n")
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
# The flags run the passes on the whole module (interprocedural, as mlir-opt's); a pipeline
# nested in func.func runs them per function, timed under the function stage.
kildall_opt_test(kildall_opt_timing_rows ARGS --timing --sccp --int-range-optimizations @EXAMPLES@/constants.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  SCCP\n.*%\\)  IntRangeOptimizations\n.*%\\)  Output\n.*%\\)  Rest\n.*%\\)  Total\n")
kildall_opt_test(kildall_opt_timing_rows_nested
                 ARGS --timing "--pass-pipeline=builtin.module(func.func(sccp,int-range-optimizations))"
                 @EXAMPLES@/constants.mlir -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  'func.func' Pipeline\n.*%\\)    SCCP\n.*%\\)    IntRangeOptimizations\n.*%\\)  Output\n.*%\\)  Rest\n.*%\\)  Total\n")
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

# The pass manager's conventions (issue 20): mlir-opt's flags and pipelines.
kildall_opt_test(kildall_opt_single_dash ARGS -sccp @EXAMPLES@/constants.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_pass_pipeline ARGS "--pass-pipeline=builtin.module(func.func(sccp))"
                 @EXAMPLES@/constants.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_pass_pipeline_separate ARGS -pass-pipeline "builtin.module(sccp)"
                 @EXAMPLES@/constants.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_pass_pipeline_unanchored ARGS "--pass-pipeline=func.func(sccp)" @EXAMPLES@/constants.mlir
                 EXPECT_EXIT 1 STDERR_REGEX "--pass-pipeline:1:1: error: can't run 'func.func' on 'builtin.module': anchor the pipeline, as in 'builtin.module\\(func.func\\(...\\)\\)'")
kildall_opt_test(kildall_opt_pass_pipeline_unbalanced ARGS "--pass-pipeline=builtin.module(func.func(sccp)"
                 @EXAMPLES@/constants.mlir -o @WORK@/out.mlir EXPECT_EXIT 1 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "^kildall-opt: error: --pass-pipeline:1:15: error: encountered unbalanced parentheses while parsing pipeline\n  builtin.module\\(func.func\\(sccp\\)\n                \\^\n$")
kildall_opt_test(kildall_opt_pass_pipeline_unknown_pass ARGS "--pass-pipeline=builtin.module(func.func(scp))"
                 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "1:26: error: 'scp' does not refer to a registered pass")
kildall_opt_test(kildall_opt_pass_pipeline_bad_option ARGS "--pass-pipeline=builtin.module(func.func(sccp{max=1}))"
                 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "1:31: error: no such option 'max' for pass 'sccp' \\(options: context-sensitive, max-contexts\\)")
kildall_opt_test(kildall_opt_pass_pipeline_with_flags ARGS -sccp "--pass-pipeline=builtin.module(sccp)"
                 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: '--pass-pipeline' cannot be used with individual pass flags\n$")
kildall_opt_test(kildall_opt_split_input_file ARGS --split-input-file -sccp -int-range-optimizations
                 @EXAMPLES@/split.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/split.opt.mlir)
kildall_opt_test(kildall_opt_split_input_file_errors ARGS --split-input-file @TESTS@/split_errors.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 1 EXPECT_STDERR tests/split_errors.err OUTPUT_FILE @WORK@/out.mlir)
kildall_opt_test(kildall_opt_empty_file ARGS @EXAMPLES@/empty.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/empty.mlir)
kildall_opt_test(kildall_opt_empty_blank ARGS -sccp @EXAMPLES@/blank.mlir EXPECT_EXIT 0 EXPECT_STDOUT expected/empty.mlir)
kildall_opt_test(kildall_opt_empty_stdin ARGS - STDIN_FILE examples/empty.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/empty.mlir)
kildall_opt_test(kildall_opt_output_dash ARGS --sccp @EXAMPLES@/constants.mlir -o - EXPECT_EXIT 0
                 EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_mlir_timing ARGS --mlir-timing -sccp @EXAMPLES@/constants.mlir -o @WORK@/out.mlir
                 EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "%\\)  Parser\n.*%\\)  SCCP\n.*%\\)  Output\n.*%\\)  Rest\n.*%\\)  Total\n$")
kildall_opt_test(kildall_opt_mlir_timing_list ARGS --mlir-timing --mlir-timing-display=list -sccp
                 @EXAMPLES@/constants.mlir -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "----Name----\n(  [ 0-9.]+ \\([ 0-9.]+%\\)  (Parser|'func.func' Pipeline|SCCP|Output)\n)+.*%\\)  Rest\n")
kildall_opt_test(kildall_opt_mlir_timing_bad_display ARGS --mlir-timing-display=pie @EXAMPLES@/constants.mlir
                 EXPECT_EXIT 1 STDERR_REGEX "unknown display 'pie' for --mlir-timing-display \\(expected tree or list\\)")
kildall_opt_test(kildall_opt_print_ir_after_all ARGS --mlir-print-ir-after-all --sccp @EXAMPLES@/constants.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir EXPECT_STDOUT expected/constants.sccp.mlir
                 EXPECT_STDERR expected/constants.sccp.after-all.txt)
kildall_opt_test(kildall_opt_print_ir_before_all ARGS -mlir-print-ir-before-all --sccp @EXAMPLES@/constants.mlir
                 -o @WORK@/out.mlir EXPECT_EXIT 0 OUTPUT_FILE @WORK@/out.mlir
                 STDERR_REGEX "^// -----// IR Dump Before SCCP \\(sccp\\) //----- //\nmodule {\n  func.func @constants\\(%n: i32\\) -> i32 {\n    %c0 = arith.constant 0 : i32\n")
kildall_opt_test(kildall_opt_disable_threading ARGS --mlir-disable-threading -sccp @EXAMPLES@/constants.mlir
                 EXPECT_EXIT 0 EXPECT_STDOUT expected/constants.sccp.mlir)
kildall_opt_test(kildall_opt_help_lists_passes ARGS -help EXPECT_EXIT 0
                 STDOUT_REGEX "PASSES.*
  --sccp  +Sparse conditional constant propagation.*
  --int-range-optimizations  Replace values integer ranges prove constant")
kildall_opt_test(kildall_opt_pass_flag_bad_value ARGS --arith-unsigned-when-equivalent=3 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: --arith-unsigned-when-equivalent=3: pass 'arith-unsigned-when-equivalent' has no option to set to '3'\n$")
kildall_opt_test(kildall_opt_pass_flag_bad_option_value ARGS --sccp=3 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: --sccp=3: invalid value '3' for option 'context-sensitive' of pass 'sccp' \\(expected one of: true, false\\)\n$")
kildall_opt_test(kildall_opt_pass_flag_bad_count ARGS --sccp=max-contexts=-1 @EXAMPLES@/constants.mlir EXPECT_EXIT 1
                 STDERR_REGEX "^kildall-opt: error: --sccp=max-contexts=-1: invalid value '-1' for option 'max-contexts' of pass 'sccp' \\(expected a count: 0 to 4294967295\\)\n$")
kildall_opt_test(kildall_opt_sccp_calls ARGS --sccp @EXAMPLES@/calls.mlir EXPECT_EXIT 0
                 EXPECT_STDOUT expected/calls.sccp.mlir)
kildall_opt_test(kildall_opt_sccp_calls_context_sensitive ARGS --sccp=context-sensitive=true @EXAMPLES@/calls.mlir
                 EXPECT_EXIT 0 EXPECT_STDOUT expected/calls.context-sensitive.mlir)
