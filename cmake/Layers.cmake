# Layer libraries with a one-way dependency graph.
#
# ksched_add_layer(<layer> [SOURCES ...] [DEPS <layer>...] [LIBS <imported targets>...])
#   Creates target ksched_<layer>. A layer without sources is an INTERFACE library until code lands.
#   DEPS must be a subset of the layer's allowed set (KSCHED_LAYER_ALLOWED_<layer>): anything else
#   stops the configure step.
#
# Include isolation: the source tree root is never an include directory. Each layer gets its own
# include root ${CMAKE_BINARY_DIR}/include-roots/<layer>/ holding one link, <layer> -> the layer's
# source folder, so `#include "framework/status.h"` resolves only for targets that link
# ksched_framework (directly or through an allowed layer).

set(KSCHED_LAYER_ALLOWED_base "")
set(KSCHED_LAYER_ALLOWED_api "base")
set(KSCHED_LAYER_ALLOWED_client "api;base")
set(KSCHED_LAYER_ALLOWED_framework "api;base")
set(KSCHED_LAYER_ALLOWED_plugins "framework;api;base")
set(KSCHED_LAYER_ALLOWED_config "plugins;framework;api;base")
set(KSCHED_LAYER_ALLOWED_serving "client;api;base")
set(KSCHED_LAYER_ALLOWED_scheduler "serving;config;plugins;framework;client;api;base")

function(ksched_add_layer layer)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LIBS" ${ARGN})
  if(NOT DEFINED KSCHED_LAYER_ALLOWED_${layer})
    message(FATAL_ERROR "ksched_add_layer: unknown layer '${layer}'")
  endif()
  foreach(dep IN LISTS ARG_DEPS)
    if(NOT dep IN_LIST KSCHED_LAYER_ALLOWED_${layer})
      message(FATAL_ERROR "layering: '${layer}' may not depend on '${dep}' "
                          "(allowed: ${KSCHED_LAYER_ALLOWED_${layer}})")
    endif()
  endforeach()

  set(root "${CMAKE_BINARY_DIR}/include-roots/${layer}")
  file(MAKE_DIRECTORY "${root}")
  file(CREATE_LINK "${CMAKE_CURRENT_SOURCE_DIR}" "${root}/${layer}" SYMBOLIC)

  set(target ksched_${layer})
  list(TRANSFORM ARG_DEPS PREPEND "ksched_" OUTPUT_VARIABLE dep_targets)
  if(ARG_SOURCES)
    add_library(${target} STATIC ${ARG_SOURCES})
    target_include_directories(${target} PUBLIC "${root}")
    target_link_libraries(${target} PUBLIC ${dep_targets} ${ARG_LIBS})
    ksched_set_warnings(${target})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE "${root}")
    target_link_libraries(${target} INTERFACE ${dep_targets} ${ARG_LIBS})
  endif()
  add_library(ksched::${layer} ALIAS ${target})
endfunction()
