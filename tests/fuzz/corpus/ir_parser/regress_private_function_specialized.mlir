"first.op"() : () -> ()
func.func private @callable(%x: i32) -> (i32, i32) {
  %one = arith.constant 1 : i32
  return %one, %x : i32, i32
}
func.func @unknown_terminator(%a: i32, %c: i1) -> i32 {
  %one = arith.constant 0 : i32
  %r:2 = func.call @callable(%one) : (i32) -> (i32, i32)
  "foo.cond_br"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.br ^bb2(%r#0 : i32)
^bb2(%arg: i32):
  %s = arith.addi %arg, %r#1 : i32
  return %s : i32
}
"live.seur"() {uses = [@ž“šable], note = "@unknown_terminator"} : () -> ()
