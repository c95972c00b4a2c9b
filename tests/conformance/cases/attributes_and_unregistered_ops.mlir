// Attribute dictionaries are kept; unregistered ops are opaque (their results
// unknown) and may end a block.
module attributes {test.mod = 1 : i64} {
  func.func @opaque(%a: i32) -> i32 attributes {tag = "opaque"} {
    %c1 = arith.constant {name = "one"} 1 : i32
    %x = "foo.op"(%c1) {w = [1, 2]} : (i32) -> i32
    %y = arith.addi %x, %c1 : i32
    %z = arith.addi %c1, %c1 {tag} : i32
    %s = arith.addi %y, %z : i32
    return %s : i32
  }
  func.func @unknown_terminator(%c: i1) -> i32 {
    %c2 = arith.constant 2 : i32
    "foo.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
  ^bb1:
    %d = arith.muli %c2, %c2 : i32
    return %d : i32
  ^bb2:
    return %c2 : i32
  }
}
