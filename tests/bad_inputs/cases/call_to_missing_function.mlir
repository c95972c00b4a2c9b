func.func @f(%a: i32) -> i32 {
  %x = func.call @nobody(%a) : (i32) -> i32
  return %x : i32
}
