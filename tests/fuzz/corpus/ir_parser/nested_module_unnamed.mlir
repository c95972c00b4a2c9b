module {
  module {
    func.func @f() {
      return
    }
  }
}
