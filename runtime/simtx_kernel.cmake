# simtx_add_kernel(NAME <name> SOURCES <c files> [OPT_LEVELS O0 O1 ...] [DEFINES NAME ...])
# Builds <build>/kernels/<name>_<opt>.elf for every optimisation level
# (default: O0 O1 O2 O3 Os) with Debian's clang + ld.lld, the flags the
# DESIGN prototype found, the kernel runtime, crt0 and the linker script.
# A target `kernel_<name>` builds them all; `simtx_kernels` builds every kernel.
find_program(SIMTX_KERNEL_CC NAMES clang clang-14 REQUIRED)
find_program(SIMTX_KERNEL_LD NAMES ld.lld ld.lld-14 REQUIRED)
# Cache variables: the function is called from other directories too.
get_filename_component(runtime_dir ${CMAKE_CURRENT_LIST_DIR}/kernel ABSOLUTE)
set(SIMTX_KERNEL_RUNTIME_DIR ${runtime_dir} CACHE INTERNAL "")
set(SIMTX_KERNEL_OUTPUT_DIR ${PROJECT_BINARY_DIR}/kernels CACHE INTERNAL "")
set(SIMTX_KERNEL_FLAGS --target=riscv32-unknown-elf -march=rv32ima -mabi=ilp32 -ffreestanding -nostdlib
    -fno-jump-tables -mno-relax -Xclang -fconvergent-functions -Wall -Wextra -Werror -g0
    -I${SIMTX_KERNEL_RUNTIME_DIR} CACHE INTERNAL "")
if(NOT TARGET simtx_kernels)
  add_custom_target(simtx_kernels ALL)
endif()

function(simtx_add_kernel)
  cmake_parse_arguments(ARG "" "NAME;LINKER_SCRIPT" "SOURCES;OPT_LEVELS;DEFINES" ${ARGN})
  list(TRANSFORM ARG_DEFINES PREPEND -D)
  if(NOT ARG_OPT_LEVELS)
    set(ARG_OPT_LEVELS O0 O1 O2 O3 Os)
  endif()
  if(NOT ARG_LINKER_SCRIPT)
    set(ARG_LINKER_SCRIPT ${SIMTX_KERNEL_RUNTIME_DIR}/kernel.ld)
  endif()
  set(outputs "")
  foreach(opt ${ARG_OPT_LEVELS})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/kernel_${ARG_NAME}_${opt})
    set(objects "")
    set(runtime_sources ${SIMTX_KERNEL_RUNTIME_DIR}/runtime.c ${SIMTX_KERNEL_RUNTIME_DIR}/crt0.S)
    foreach(source ${ARG_SOURCES} ${runtime_sources})
      get_filename_component(source_path ${source} ABSOLUTE)
      get_filename_component(stem ${source} NAME)
      set(object ${work}/${stem}.o)
      # The runtime itself must not have its loops turned back into memset calls.
      set(extra ${ARG_DEFINES})
      if(source_path STREQUAL "${SIMTX_KERNEL_RUNTIME_DIR}/runtime.c")
        set(extra -fno-builtin)
      endif()
      add_custom_command(OUTPUT ${object}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${work}
        COMMAND ${SIMTX_KERNEL_CC} ${SIMTX_KERNEL_FLAGS} -${opt} ${extra} -c ${source_path} -o ${object}
        DEPENDS ${source_path} ${SIMTX_KERNEL_RUNTIME_DIR}/gpu.h ${SIMTX_KERNEL_RUNTIME_DIR}/gpu_durable.h
                ${SIMTX_KERNEL_RUNTIME_DIR}/gpu_durable_layout.h
        COMMENT "kernel ${ARG_NAME} -${opt}: ${stem}" VERBATIM)
      list(APPEND objects ${object})
    endforeach()
    set(elf ${SIMTX_KERNEL_OUTPUT_DIR}/${ARG_NAME}_${opt}.elf)
    add_custom_command(OUTPUT ${elf}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${SIMTX_KERNEL_OUTPUT_DIR}
      COMMAND ${SIMTX_KERNEL_LD} -m elf32lriscv -T ${ARG_LINKER_SCRIPT} ${objects} -o ${elf}
      DEPENDS ${objects} ${ARG_LINKER_SCRIPT}
      COMMENT "kernel ${ARG_NAME}_${opt}.elf" VERBATIM)
    list(APPEND outputs ${elf})
  endforeach()
  add_custom_target(kernel_${ARG_NAME} DEPENDS ${outputs})
  add_dependencies(simtx_kernels kernel_${ARG_NAME})
endfunction()
