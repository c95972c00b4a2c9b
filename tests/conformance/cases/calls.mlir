// Calls at module level (interprocedural SCCP, as upstream's sccp-callgraph.mlir): a
// private callee's arguments are what its calls pass, a call's results what its callee
// returns; a public callee's arguments stay unknown; recursion converges.
func.func private @private_add_one(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %x, %c1 : i32
  return %r : i32
}

func.func @public_add_one(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %x, %c1 : i32
  return %r : i32
}

func.func @caller() -> (i32, i32) {
  %c41 = arith.constant 41 : i32
  %a = call @private_add_one(%c41) : (i32) -> i32
  %b = call @public_add_one(%c41) : (i32) -> i32
  return %a, %b : i32, i32
}

func.func private @recursive(%n: i32, %stop: i1) -> i32 {
  cf.cond_br %stop, ^done, ^again
^done:
  return %n : i32
^again:
  %r = call @recursive(%n, %stop) : (i32, i1) -> i32
  return %r : i32
}

func.func @recursive_caller() -> i32 {
  %c5 = arith.constant 5 : i32
  %false = arith.constant false
  %r = call @recursive(%c5, %false) : (i32, i1) -> i32
  return %r : i32
}
