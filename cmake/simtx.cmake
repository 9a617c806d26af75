# simtx_add_block(NAME <block> SOURCES <c files>)
# Declares a block: a static library of its C core, whose simtx_block_info
# constant <block>_block_info enters the generated block registry.
function(simtx_add_block)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES" ${ARGN})
  add_library(simtx_block_${ARG_NAME} STATIC ${ARG_SOURCES})
  target_include_directories(simtx_block_${ARG_NAME} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(simtx_block_${ARG_NAME} PUBLIC simtx_common)
  set_property(GLOBAL APPEND PROPERTY SIMTX_BLOCKS ${ARG_NAME})
endfunction()

# simtx_add_c_test(NAME <test> SOURCES <files> LIBRARIES <libs>)
function(simtx_add_c_test)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LIBRARIES} simtx_test_support)
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()

# simtx_add_block_testbench(NAME <test> SOURCES <files> BLOCKS <block libraries>)
function(simtx_add_block_testbench)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;BLOCKS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE simtx_block_testbench ${ARG_BLOCKS})
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${ARG_NAME} PROPERTIES ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)
endfunction()


# simtx_expect(<test> EXPECT <expect.py options> RUN <simtx arguments>)
# Runs build/simtx from the repository and checks its exit status and output
# with testbenches/support/expect.py.
function(simtx_expect NAME)
  cmake_parse_arguments(ARG "" "" "EXPECT;RUN" ${ARGN})
  add_test(NAME ${NAME} COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/testbenches/support/expect.py ${ARG_EXPECT}
           -- $<TARGET_FILE:simtx> ${ARG_RUN} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()
