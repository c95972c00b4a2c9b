func.func @f(%c: i1, %a: i32) -> i32 {
  scf.if %c {
    return %a : i32
  }
  return %a : i32
}
