# Fails unless markdown file DOC contains the whole of source file SOURCE inside
# a fenced code block, so a documented program is always the tested program.
file(READ "${DOC}" doc)
file(READ "${SOURCE}" source)
string(FIND "${doc}" "```cpp\n${source}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not show ${SOURCE} verbatim in a ```cpp block")
endif()
message(STATUS "${DOC} shows ${SOURCE}")
