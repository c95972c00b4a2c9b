// scf.for: an iteration argument that every iteration yields back unchanged
// stays constant; one that changes does not; a loop on constant bounds.
func.func @for_invariant(%lb: index, %ub: index, %step: index) -> i32 {
  %c5 = arith.constant 5 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%s = %c5) -> (i32) {
    %zero = arith.constant 0 : i32
    %same = arith.addi %s, %zero : i32
    scf.yield %same : i32
  }
  return %r : i32
}

func.func @for_changing(%lb: index, %ub: index, %step: index) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%s = %c0) -> (i32) {
    %next = arith.addi %s, %c1 : i32
    scf.yield %next : i32
  }
  return %r : i32
}

func.func @for_nested_if(%c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %k) -> (i32) {
    %inner = scf.if %c -> (i32) {
      scf.yield %s : i32
    } else {
      scf.yield %k : i32
    }
    scf.yield %inner : i32
  }
  return %r : i32
}
