# Third-party libraries, all from Debian packages (scripts/install-deps.sh installs them).
# Boost.Beast/Asio are header-only and heavy to compile: only the client layer's transport
# translation units include them.
find_package(Boost 1.74 REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(RapidJSON REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
# HTTP/2 framing for the API server connection (Debian libnghttp2-dev ships no CMake package).
find_package(PkgConfig REQUIRED)
pkg_check_modules(NGHTTP2 REQUIRED IMPORTED_TARGET libnghttp2)
# Abseil: absl::Status/StatusOr carry expected failures below the framework layer; flat_hash_map.
find_package(absl REQUIRED)

# RapidJSON's Debian config exports only variables; give it a target.
if(NOT TARGET RapidJSON::RapidJSON)
  add_library(RapidJSON::RapidJSON INTERFACE IMPORTED)
  set_target_properties(RapidJSON::RapidJSON PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${RAPIDJSON_INCLUDE_DIRS}")
endif()

# Abseil and yaml-cpp from Debian's static archives (they are PIC) rather than their shared
# objects. Each shared object costs the daemon resident pages of its own whatever it is used for
# (ELF headers, symbol tables, relocated data, the 64 KiB the kernel maps around each code page
# touched): ~1.3 MiB of its peak RSS for Abseil's 30 and yaml-cpp, far more than the code it uses
# from them. OFF links the shared objects.
option(KSCHED_STATIC_DEPS "Link Abseil and yaml-cpp from their static archives where installed" ON)
if(KSCHED_STATIC_DEPS)
  get_property(_ksched_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  foreach(_target IN LISTS _ksched_imported)
    if(NOT _target MATCHES "^absl::" AND NOT _target STREQUAL "yaml-cpp")
      continue()
    endif()
    get_target_property(_type ${_target} TYPE)
    if(NOT _type STREQUAL "SHARED_LIBRARY")
      continue()
    endif()
    get_target_property(_configs ${_target} IMPORTED_CONFIGURATIONS)
    foreach(_config IN LISTS _configs)
      get_target_property(_shared ${_target} IMPORTED_LOCATION_${_config})
      string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" _static "${_shared}")
      if(_static STREQUAL _shared OR NOT EXISTS "${_static}")
        message(STATUS "KSCHED_STATIC_DEPS: no static archive beside ${_shared}; linking it shared")
        continue()
      endif()
      set_target_properties(${_target} PROPERTIES IMPORTED_LOCATION_${_config} "${_static}")
      set_property(TARGET ${_target} PROPERTY IMPORTED_SONAME_${_config})
    endforeach()
  endforeach()
endif()
