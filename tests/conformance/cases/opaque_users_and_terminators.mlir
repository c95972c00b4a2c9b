// Opaque code, as upstream's sccp.mlir and sccp-callgraph.mlir test it: an unregistered
// terminator entering a block with an argument (what it passes is unknown, so the argument
// is not the constant the other edge brings); a module-level op naming a private function
// (its arguments may come from code the module does not show; its results still flow).
func.func @opaque_branch(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  "foo.branch"() [^known, ^join] : () -> ()
^known:
  cf.br ^join(%c3 : i32)
^join(%v: i32):
  %r = arith.addi %v, %c3 : i32
  return %r : i32
}

func.func private @named_elsewhere(%x: i32) -> (i32, i32) {
  %c5 = arith.constant 5 : i32
  return %c5, %x : i32, i32
}

func.func private @only_called(%x: i32) -> i32 {
  return %x : i32
}

func.func @caller() -> (i32, i32, i32) {
  %c7 = arith.constant 7 : i32
  %r:2 = call @named_elsewhere(%c7) : (i32) -> (i32, i32)
  %t = call @only_called(%c7) : (i32) -> i32
  return %r#0, %r#1, %t : i32, i32, i32
}

"live.user"() {uses = [@named_elsewhere]} : () -> ()
