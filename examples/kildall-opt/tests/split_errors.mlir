// Chunks 2 and 3 are wrong: both errors are reported, with the file's line numbers.
func.func @fine() {
  return
}
// -----
func.func @undefined() -> i32 {
  return %nothing : i32
}
// -----
func.func @fine_too() {
  return
}
// -----

func.func @mismatch(%a: i32) -> i64 {
  return %a : i32
}
