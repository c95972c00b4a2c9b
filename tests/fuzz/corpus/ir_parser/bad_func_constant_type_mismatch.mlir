func.func private @g(i32) -> i32
func.func @f() {
  %c = func.constant @g : (i64) -> i32
  return
}
