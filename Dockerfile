# Minerva Server in a container.
#
#   docker build -t minerva-server .
#   docker run --rm -p 8080:8080 minerva-server                    # the built-in demo app
#   docker run --rm -p 8080:8080 -v "$PWD/app.json:/app.json:ro" minerva-server --app /app.json
#   docker run --rm -p 8080:8080 -v minerva-data:/data minerva-server   # sessions survive the container
#   docker run --rm -p 8080:8080 -e MINERVA_STORE=postgres://USER:PASSWORD@HOST/DB minerva-server
#                                         # several instances share sessions (compose.yaml, README)
#
# Arguments after the image name are appended to the entrypoint's, so any minerva-server option
# works (--threads, --max-sessions, --log-level …). Keep --port at 8080: EXPOSE and the health
# check assume it. The server stops gracefully on SIGTERM (docker stop).
#
# apt versions are pinned to Debian 12's (bookworm) upstream version and Debian revision; the
# trailing `*` also accepts Debian's security rebuilds (+deb12uN), because the archive drops the
# older build once a security update is published and an exact pin would then stop building.
# libpq is pinned to PostgreSQL 15 only: Debian ships PostgreSQL's minor releases (15.x) as
# security updates and drops the earlier ones, so a pin on a minor would soon stop building.

# ---- build: the same build step as the README (scripts/build.sh, static Swift stdlib) ----
FROM swift:6.3.1-bookworm AS builder

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd-dev=0.9.75-6* \
        libsqlite3-dev=3.40.1-2* \
        libpq-dev=15.* \
        pkg-config=1.8.1-1* \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Dependencies first, in a layer of their own, so that editing the sources reuses it.
# Package.resolved stays out (.dockerignore): it is git-ignored and resolved anew here.
COPY Package.swift ./
COPY Model/Package.swift Model/
RUN swift package resolve

COPY . .
RUN scripts/build.sh \
    && install -D -m 0755 .build/release/minerva-server /out/minerva-server

# ---- run: slim Debian 12 with the runtime libraries of libmicrohttpd, SQLite and libpq only ----
# bookworm, not stable: libmicrohttpd12 has another package name on later Debian releases.
FROM debian:bookworm-slim

# curl is only for HEALTHCHECK; the binary carries the Swift runtime (--static-swift-stdlib).
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12=0.9.75-6* \
        libsqlite3-0=3.40.1-2* \
        libpq5=15.* \
        curl=7.88.1-10+deb12u* \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 minerva \
    && useradd --system --uid 10001 --gid minerva --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin minerva \
    && install -d -o 10001 -g 10001 -m 0750 /data

COPY --from=builder /out/minerva-server /usr/local/bin/minerva-server

# With TZ unset, glibc stats /etc/localtime for every log line's timestamp (one per request with
# --log-level info); set, it does not. UTC is also what the slim image's zone is.
ENV TZ=UTC

# Numeric, so that Kubernetes runAsNonRoot can check it: the minerva user created above.
USER 10001:10001
# Sessions are kept in SQLite under /data: mount a volume there to keep them across containers.
# MINERVA_STORE is the server's --store when none is given: set it to postgres://… to share
# sessions between instances, and /data is then unused.
ENV MINERVA_STORE=sqlite:/data/minerva.sqlite
VOLUME ["/data"]
WORKDIR /data
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["curl", "--fail", "--silent", "--show-error", "--max-time", "2", "--output", "/dev/null", "http://127.0.0.1:8080/healthz"]

ENTRYPOINT ["/usr/local/bin/minerva-server", "--host", "0.0.0.0", "--port", "8080"]
