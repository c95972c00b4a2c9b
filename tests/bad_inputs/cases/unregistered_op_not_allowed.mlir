func.func @f(%a: i32) -> i32 {
  %x = "foo.op"(%a) : (i32) -> i32
  return %x : i32
}
