func.func @f(%a: i32) -> i32 {
  %x = tosa.add %a, %a : i32
  return %x : i32
}
