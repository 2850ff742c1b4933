// declares a helper no file defines
func.func private @nowhere(i32) -> i32
