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
