func.func @f(%a: i32) -> i32 {
  /* not an MLIR comment
  return %a : i32
}
