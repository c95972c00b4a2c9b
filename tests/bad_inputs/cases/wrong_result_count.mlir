func.func @f(%a: i32) -> i32 {
  %x, %y = arith.addi %a, %a : i32
  return %x : i32
}
