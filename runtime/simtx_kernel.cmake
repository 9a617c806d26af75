# simtx_add_kernel(NAME <name> SOURCES <c files> [OPT_LEVELS O0 O1 ...] [DEFINES NAME[=VALUE] ...]
#                  [INCLUDE_DIRECTORIES <dirs>] [LINKER_SCRIPT <file>] [OUTPUT_DIRECTORY <dir>])
# Builds <dir>/<name>_<opt>.elf for every optimisation level (default:
# O0 O1 O2 O3 Os) with simtx-cc (${SIMTX_CC}): Debian's clang + ld.lld with
# the kernel flags, the kernel runtime, crt0 and the linker script. <dir> is
# OUTPUT_DIRECTORY, else ${SIMTX_KERNEL_OUTPUT_DIR} when set, else the
# current binary directory. Each ELF is rebuilt when a source, a header it
# includes or the linker script changes (a depfile written by simtx-cc).
# A target `kernel_<name>` builds them all (its property SIMTX_KERNEL_FILES
# lists them); `simtx_kernels` builds every kernel.
# Used in the source tree and, installed, by find_package(simtx).
function(simtx_add_kernel)
  cmake_parse_arguments(ARG "" "NAME;LINKER_SCRIPT;OUTPUT_DIRECTORY" "SOURCES;OPT_LEVELS;INCLUDE_DIRECTORIES;DEFINES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "simtx_add_kernel: give NAME and SOURCES")
  endif()
  if(NOT ARG_OPT_LEVELS)
    set(ARG_OPT_LEVELS O0 O1 O2 O3 Os)
  endif()
  set(output_dir ${ARG_OUTPUT_DIRECTORY})
  if(NOT output_dir)
    if(SIMTX_KERNEL_OUTPUT_DIR)
      set(output_dir ${SIMTX_KERNEL_OUTPUT_DIR})
    else()
      set(output_dir ${CMAKE_CURRENT_BINARY_DIR})
    endif()
  endif()
  set(options "")
  set(depfile_argument "")
  set(depends ${SIMTX_CC})
  if(SIMTX_CC_DEPENDS)
    set(depends ${SIMTX_CC_DEPENDS})
  endif()
  foreach(definition ${ARG_DEFINES})
    list(APPEND options -D${definition})
  endforeach()
  foreach(directory ${ARG_INCLUDE_DIRECTORIES})
    get_filename_component(directory ${directory} ABSOLUTE)
    list(APPEND options -I${directory})
  endforeach()
  if(ARG_LINKER_SCRIPT)
    get_filename_component(script ${ARG_LINKER_SCRIPT} ABSOLUTE)
    list(APPEND options -T ${script})
    list(APPEND depends ${script})
  endif()
  set(sources "")
  foreach(source ${ARG_SOURCES})
    get_filename_component(source ${source} ABSOLUTE)
    list(APPEND sources ${source})
    list(APPEND depends ${source})
  endforeach()
  if(SIMTX_SHARED_KERNEL_DIR)
    # Shared ELFs: make's depfile support stamps each tree at configure
    # time, which would make another tree's ELFs look stale; depend instead
    # on every header beside the sources and in the include folders.
    set(header_globs "")
    foreach(source ${sources})
      get_filename_component(directory ${source} DIRECTORY)
      list(APPEND header_globs ${directory}/*.h)
    endforeach()
    foreach(directory ${ARG_INCLUDE_DIRECTORIES})
      get_filename_component(directory ${directory} ABSOLUTE)
      list(APPEND header_globs ${directory}/*.h)
    endforeach()
    file(GLOB headers CONFIGURE_DEPENDS ${header_globs})
    list(APPEND depends ${headers})
  endif()
  # In simtx's own build, the runtime objects compiled once (runtime/CMakeLists.txt).
  if(TARGET simtx_kernel_runtime)
    list(APPEND options --runtime ${SIMTX_KERNEL_RUNTIME_DIR})
  endif()
  set(outputs "")
  foreach(opt ${ARG_OPT_LEVELS})
    set(runtime_depends "")
    if(TARGET simtx_kernel_runtime)
      set(runtime_depends ${SIMTX_KERNEL_RUNTIME_DIR}/runtime-${opt}.o ${SIMTX_KERNEL_RUNTIME_DIR}/crt0-${opt}.o)
    endif()
    set(elf ${output_dir}/${ARG_NAME}_${opt}.elf)
    set(depfile ${CMAKE_CURRENT_BINARY_DIR}/kernel_${ARG_NAME}_${opt}.d)
    if(SIMTX_SHARED_KERNEL_DIR)
      set(depfile_options "")
    else()
      set(depfile_options --depfile ${depfile})
      set(depfile_argument DEPFILE ${depfile})
    endif()
    add_custom_command(OUTPUT ${elf}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
      COMMAND ${SIMTX_CC} -${opt} ${options} ${depfile_options} ${sources} -o ${elf}
      DEPENDS ${depends} ${runtime_depends}
      ${depfile_argument}
      COMMENT "kernel ${ARG_NAME}_${opt}.elf" VERBATIM)
    list(APPEND outputs ${elf})
  endforeach()
  add_custom_target(kernel_${ARG_NAME} DEPENDS ${outputs})
  if(TARGET simtx_kernel_runtime)
    add_dependencies(kernel_${ARG_NAME} simtx_kernel_runtime)
  endif()
  # The ELFs, for simtx_add_host_plugin(... KERNELS name) to install beside its plugin.
  set_target_properties(kernel_${ARG_NAME} PROPERTIES SIMTX_KERNEL_FILES "${outputs}")
  if(NOT TARGET simtx_kernels)
    add_custom_target(simtx_kernels ALL)
  endif()
  add_dependencies(simtx_kernels kernel_${ARG_NAME})
endfunction()
