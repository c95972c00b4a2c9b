// Pass timing reports (kildall/pass/timing.hpp); oracle: reports of hand-set times written out by hand in MLIR's --mlir-timing layout.
#include <doctest/doctest.h>

#include <string>

#include <kildall/pass/timing.hpp>

using namespace kildall::pass;

TEST_CASE("tree and list of the same times") {
  Timing t;
  const std::size_t parser = t.child(Timing::root, "Parser");
  const std::size_t pipeline = t.child(Timing::root, "'func.func' Pipeline");
  t.add(parser, 1.0);
  t.add(pipeline, 4.0);
  t.add(t.child(pipeline, "SCCP"), 2.5);
  t.add(t.child(pipeline, "Parser"), 0.5);  // same name elsewhere: summed in the list
  CHECK(t.child(Timing::root, "Parser") == parser);
  const std::string header = "===" + std::string(73, '-') + "===\n" + std::string(27, ' ') +
                             "... Execution time report ...\n" + "===" + std::string(73, '-') + "===\n" +
                             "  Total Execution Time: 10.0000 seconds\n\n  ----Wall Time----  ----Name----\n";
  CHECK(t.report(10.0) == header +
                              "    1.0000 ( 10.0%)  Parser\n"
                              "    4.0000 ( 40.0%)  'func.func' Pipeline\n"
                              "    2.5000 ( 25.0%)    SCCP\n"
                              "    0.5000 (  5.0%)    Parser\n"
                              "    5.0000 ( 50.0%)  Rest\n"
                              "   10.0000 (100.0%)  Total\n");
  CHECK(t.report(10.0, TimingDisplay::list) == header +
                                                   "    4.0000 ( 40.0%)  'func.func' Pipeline\n"
                                                   "    2.5000 ( 25.0%)  SCCP\n"
                                                   "    1.5000 ( 15.0%)  Parser\n"
                                                   "    5.0000 ( 50.0%)  Rest\n"
                                                   "   10.0000 (100.0%)  Total\n");
}

TEST_CASE("ScopedTimer adds its scope's time; a null timing is ignored") {
  Timing t;
  const std::size_t id = t.child(Timing::root, "x");
  { const ScopedTimer timer(&t, id); }
  CHECK(t.seconds(id) >= 0.0);
  CHECK(t.seconds(id) < 1.0);
  { const ScopedTimer none(nullptr, 0); }
  CHECK(t.children(Timing::root).size() == 1);
  CHECK(t.name(id) == "x");
}
