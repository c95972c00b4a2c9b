// Nested modules (as upstream's sccp-callgraph.mlir @nested_module, run on the whole file):
// each module is a symbol table of its own, and a call looks its callee up in its own module
// only, so the two @add_one below are different functions. Public functions of any module are
// roots; `nested` and `private` ones get what their calls pass. A reference in an attribute
// dictionary makes the function it names a root, resolved from the top-level module as MLIR
// 16's SCCP does: `@m::@named` names @m's @named, while the `@add_one` written inside @m names
// the top level's @add_one.
module {
  func.func private @add_one(%x: i32) -> i32 {
    %c1 = arith.constant 1 : i32
    %r = arith.addi %x, %c1 : i32
    return %r : i32
  }
  func.func @top_caller() -> i32 {
    %c1 = arith.constant 1 : i32
    %r = call @add_one(%c1) : (i32) -> i32
    return %r : i32
  }
  module @m attributes {sym_visibility = "public"} {
    func.func private @add_one(%x: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %r = arith.addi %x, %c1 : i32
      return %r : i32
    }
    func.func nested @nested_callee(%x: i32) -> (i32, i32) {
      %c2 = arith.constant 2 : i32
      return %c2, %x : i32, i32
    }
    func.func nested @named(%x: i32) -> i32 {
      return %x : i32
    }
    func.func @m_caller() -> (i32, i32, i32, i32) {
      %c10 = arith.constant 10 : i32
      %a = call @add_one(%c10) : (i32) -> i32
      %b:2 = call @nested_callee(%c10) : (i32) -> (i32, i32)
      %n = call @named(%c10) : (i32) -> i32
      return %a, %b#1, %n, %b#0 : i32, i32, i32, i32
    }
    "live.user"() {uses = [@add_one]} : () -> ()
    builtin.module @inner {
      func.func private @deep(%x: i32) -> i32 {
        return %x : i32
      }
      func.func @inner_caller() -> i32 {
        %c5 = arith.constant 5 : i32
        %r = call @deep(%c5) : (i32) -> i32
        return %r : i32
      }
    }
  }
  "live.user"() {uses = [@m::@named]} : () -> ()
}
