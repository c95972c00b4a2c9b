// Fuzz target: the LP reader (kildall/lp/lp_format.hpp) on arbitrary bytes; the
// property is in lp_round_trip.hpp (clear ParseError, or a model that
// writes and reads back stably in both formats).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lp_round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kildall::fuzz::check_lp_round_trip(kildall::fuzz::LpFormat::lp,
                                     std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
