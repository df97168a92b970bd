# Warning flags for the project's own targets (third-party headers come in as -isystem through their
# imported targets and are not affected). KSCHED_WERROR=ON turns them into errors; CI sets it.
set(KSCHED_WARNING_FLAGS
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wimplicit-fallthrough -Wcast-qual -Wformat=2 -Wmissing-declarations)
if(KSCHED_WERROR)
  list(APPEND KSCHED_WARNING_FLAGS -Werror)
endif()

function(ksched_set_warnings target)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    target_compile_options(${target} PRIVATE ${KSCHED_WARNING_FLAGS})
  endif()
endfunction()
