func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i64
  return %a : i32
}
