# Driver tests (see CMakeLists.txt: kildall_opt_test).
