module attributes {test.mod = 1 : i64} {
  func.func private @decl(i32) -> i32 attributes {tag = "baz"}
  func.func nested @helper(%a: i32) -> i32 {
    return %a : i32
  }
  func.func @f(%a: i32, %c: i1) -> i32 attributes {llvm.emit_c_interface} {
    %k = arith.constant {name = "k"} 1 : i32
    %x = "foo.op"(%a, %k) {w = [1, 2], s = "}"} : (i32, i32) -> i32
    %p:2 = "foo.pair"() : () -> (i32, i1)
    %s = arith.addi %x, %p#0 {tag} : i32
    %t = arith.cmpi slt, %s, %k {u} : i32
    %r = func.call @helper(%s) {callee_attr} : (i32) -> i32
    cf.cond_br %t, ^bb1, ^bb3 {weights = dense<[1, 2]> : vector<2xi32>}
  ^bb1:
    "foo.cond_br"(%c) [^bb2, ^bb3] : (i1) -> ()
  ^bb2:
    return {first} %r : i32
  ^bb3:
    "foo.return"(%s) : (i32) -> ()
  }
}
