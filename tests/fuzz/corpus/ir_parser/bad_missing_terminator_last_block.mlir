func.func @f(%a: i32) -> i32 {
  cf.br ^bb1
^bb1:
  %x = arith.addi %a, %a : i32
}
