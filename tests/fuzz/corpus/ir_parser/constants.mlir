// SCCP demo: a constant condition, a dead block, and a loop whose
// induction variable is not constant.
func.func @constants(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %prod = arith.muli %c6, %c7 : i32
  %is42 = arith.cmpi eq, %prod, %c1 : i32
  cf.cond_br %is42, ^never, ^loop(%c0, %prod : i32, i32)
^never:
  return %n : i32
^loop(%i: i32, %acc: i32):
  %same = arith.addi %acc, %c0 : i32
  %next = arith.addi %i, %c1 : i32
  %more = arith.cmpi slt, %next, %n : i32
  cf.cond_br %more, ^loop(%next, %same : i32, i32), ^exit
^exit:
  return %same : i32
}
