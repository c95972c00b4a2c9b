gpu.module @g {
}
