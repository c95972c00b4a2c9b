func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^then, ^join
^then:
  %x = arith.addi %a, %a : i32
  cf.br ^join
^join:
  return %x : i32
}
