func.func @f(%a: i32) -> i32 {
  %y = arith.addi %x, %a : i32
  %x = arith.addi %a, %a : i32
  return %y : i32
}
