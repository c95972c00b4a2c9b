module {
  module @m attributes {a = 1} (
  }
}
