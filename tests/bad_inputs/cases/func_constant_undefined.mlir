func.func @f() {
  %c = func.constant @missing : () -> ()
  return
}
