func.func @f(%c: i1, %a: i32) -> i32 {
  scf.if %c {
    %x = arith.addi %a, %a : i32
  }
  return %x : i32
}
