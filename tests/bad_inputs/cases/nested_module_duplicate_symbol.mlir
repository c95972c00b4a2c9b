module {
  module @m {
    func.func @f() {
      return
    }
    module @f {
    }
  }
}
