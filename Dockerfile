# syntax=docker/dockerfile:1
# The kube-scheduler-cpp image: docker build -t kube-scheduler-cpp:0.1.0 .
# (the name and tag the manifests/ use; override them there with kustomize's `images:`).
#
# Two stages on Debian 12 (bookworm), the distribution the project builds and is tested on:
#   build    the Debian packages of scripts/install-deps.sh that compiling needs (its toolchain and
#            "libraries the product links" groups; not the test tools, Go or Prometheus), a Release
#            build of the one target kube-scheduler-cpp with CMake + Ninja, then the list of Debian
#            packages that own the shared libraries the binary loads (ldd + dpkg -S), so the
#            runtime stage installs exactly those and nothing is forgotten when a library is added.
#   runtime  debian:bookworm-slim with those packages and the stripped binary, run as the
#            unprivileged uid/gid 65532 (distroless' "nonroot"), ENTRYPOINT the binary.
# On 2026-11-30 ldd listed (besides libc6, libstdc++6 and libgcc-s1, already in the slim image):
#   libabsl20220623 libfmt9 libspdlog1.10 libyaml-cpp0.7 libssl3 (libcrypto) and, once the serving
#   layer links it, libprometheus-cpp-core1.0. Boost.Beast/Asio, RapidJSON and CLI11 are header-only.

ARG DEBIAN_RELEASE=bookworm

FROM debian:${DEBIAN_RELEASE} AS build
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build pkg-config git ca-certificates \
      libboost-dev rapidjson-dev libyaml-cpp-dev libssl-dev prometheus-cpp-dev libcli11-dev \
      libspdlog-dev libfmt-dev libabsl-dev libnghttp2-dev libre2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# KSCHED_BUILD_TESTS=OFF: no Catch2 and no test targets; only the daemon is built.
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKSCHED_BUILD_TESTS=OFF \
 && cmake --build /build --target kube-scheduler-cpp \
 && install -D -m 0755 -s /build/scheduler/kube-scheduler-cpp /out/usr/local/bin/kube-scheduler-cpp \
 && /out/usr/local/bin/kube-scheduler-cpp --version
# Debian packages owning the binary's shared libraries (the dynamic loader and libc excepted).
RUN ldd /out/usr/local/bin/kube-scheduler-cpp \
      | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' \
      | xargs -r readlink -f \
      | xargs -r dpkg -S 2>/dev/null \
      | cut -d: -f1 | sort -u | grep -v -x -e libc6 > /out/runtime-packages \
 && echo "runtime packages:" $(cat /out/runtime-packages)

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
ARG DEBIAN_FRONTEND=noninteractive
COPY --from=build /out/runtime-packages /tmp/runtime-packages
# ca-certificates: for HTTPS endpoints signed by public CAs (e.g. a Prometheus for the metrics
# plugins); the API server's CA comes from the kubeconfig or the service account.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates $(cat /tmp/runtime-packages) \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages \
 && groupadd --system --gid 65532 nonroot \
 && useradd --system --uid 65532 --gid 65532 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin nonroot
COPY --from=build /out/usr/local/bin/kube-scheduler-cpp /usr/local/bin/kube-scheduler-cpp
USER 65532:65532
# 10259: /healthz, /livez, /readyz, /metrics over HTTPS, as kube-scheduler.
EXPOSE 10259
ENTRYPOINT ["/usr/local/bin/kube-scheduler-cpp"]
