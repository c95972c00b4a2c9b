func.func @f(%a: i32) -> i32 {
  %r:3 = func.call @g(%a) : (i32) -> (i32, i32)
  return %r#0 : i32
}
func.func private @g(i32) -> (i32, i32)
