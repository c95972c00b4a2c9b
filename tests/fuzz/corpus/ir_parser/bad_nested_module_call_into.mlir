module {
  module @m {
    func.func nested @f() {
      return
    }
  }
  func.func @g() {
    func.call @m::@f() : () -> ()
    return
  }
}
