func.func @s(%c: i1, %a: i8, %n: index) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 3 : i8
  %r = scf.if %c -> (i8) {
    %x = arith.addi %a, %k : i8
    scf.yield %x : i8
  } else {
    scf.yield %a : i8
  }
  scf.if %c {
    %unused = arith.muli %r, %r : i8
  }
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %r) -> (i8) {
    %iv = arith.index_cast %i : index to i8
    %inner = scf.if %c -> (i8) {
      %t = arith.addi %s, %iv : i8
      scf.yield %t : i8
    } else {
      scf.yield %s : i8
    }
    scf.yield %inner : i8
  }
  %w = scf.while (%p = %sum) : (i8) -> i8 {
    %lt = arith.cmpi ult, %p, %k : i8
    scf.condition(%lt) %p : i8
  } do {
  ^bb0(%q: i8):
    %one = arith.constant 1 : i8
    %next = arith.addi %q, %one : i8
    scf.yield %next : i8
  }
  %loop = scf.for %j = %k to %a step %k iter_args(%u = %w) -> (i8) : i8 {
    %v = arith.xori %u, %j : i8
    scf.yield %v : i8
  }
  return %loop : i8
}
