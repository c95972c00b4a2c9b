func.func @f(%a: i32) -> i32 {
  % = arith.addi %a, %a : i32
  return %a : i32
}
