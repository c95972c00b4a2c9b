func.func private @g(i32) -> (i32, i32)
func.func @f(%a: i32) -> i32 {
  %x = func.call @g(%a) : (i32) -> i32
  return %x : i32
}
