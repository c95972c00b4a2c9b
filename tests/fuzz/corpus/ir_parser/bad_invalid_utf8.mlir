func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32 // cafÃ
  return %ÿş : i32
}
