func.func @f(%x: i32) -> i32 {
  %r = func.call_indirect %x(%x) : i32
  return %r : i32
}
