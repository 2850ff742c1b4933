// declares @twice with another type than b.mlir defines
func.func private @twice(i32) -> i64
