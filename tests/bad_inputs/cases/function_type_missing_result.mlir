func.func @f(%g: (i32) -> ) {
  return
}
