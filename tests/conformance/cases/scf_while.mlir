// scf.while: a condition false on entry leaves the initial value; a counting
// loop does not fold.
func.func @while_never(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %false = arith.constant false
  %r = scf.while (%x = %c0) : (i32) -> i32 {
    scf.condition(%false) %x : i32
  } do {
  ^bb0(%y: i32):
    %n = arith.addi %y, %a : i32
    scf.yield %n : i32
  }
  return %r : i32
}

func.func @while_counting(%bound: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%x = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %x, %bound : i32
    scf.condition(%more) %x : i32
  } do {
  ^bb0(%y: i32):
    %n = arith.addi %y, %c1 : i32
    scf.yield %n : i32
  }
  return %r : i32
}
