module @"unterminated {
  func.func @f() {
    return
  }
}
