func.func private @g(i32) -> i32
func.func @f(%x: i1) -> i32 {
  %c = func.constant @g : (i32) -> i32
  %r = func.call_indirect %c(%x) : (i32) -> i32
  return %r : i32
}
