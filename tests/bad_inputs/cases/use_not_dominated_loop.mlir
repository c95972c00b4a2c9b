func.func @f(%a: i32, %c: i1) -> i32 {
  cf.br ^head
^head:
  cf.cond_br %c, ^body, ^exit
^body:
  %x = arith.addi %a, %a : i32
  cf.br ^head
^exit:
  return %x : i32
}
