func.func @helper() {
  return
}
module @m {
  func.func @user() {
    func.call @helper() : () -> ()
    return
  }
}
