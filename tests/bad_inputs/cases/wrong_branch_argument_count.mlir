func.func @f(%a: i32) -> i32 {
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32):
  return %x : i32
}
