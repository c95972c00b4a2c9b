func.func @f(%a: i32) -> i32 attributes {tag = [1, 2
