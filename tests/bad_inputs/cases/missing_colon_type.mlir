func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a
  return %x : i32
}
