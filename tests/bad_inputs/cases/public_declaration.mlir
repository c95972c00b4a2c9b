func.func @g(i32) -> i32
