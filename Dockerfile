# The proxy as a container image: `docker build -t model-proxy .` (or `podman build`).
# Configured by a mounted YAML file (/config/config.yaml) and environment variables (PROXY_STORAGE_*,
# MANAGEMENT_PASSWORD, `${env:NAME}` references inside the YAML). State: /data (fs storage) or Redis.
# docs/deploy.md has the whole story; NODE_IMAGE picks another glibc Node 20.19+ base (e.g. an internal
# mirror). The image that runs holds no distribution: node, the libraries it links, the app.
ARG NODE_IMAGE=docker.io/library/node:22-bookworm-slim

# Stage 1: runtime dependencies only, the control panel built, tests and fixtures left out.
FROM ${NODE_IMAGE} AS build
# The app is built where it runs (/app): jiti's cache (below) is keyed by each file's path.
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
# The panel's bundler, beside the app (not in its node_modules): the page is built, the tools stay here.
ARG ESBUILD_VERSION=0.28.2
ARG PREACT_VERSION=11.2.0
RUN npm install --prefix /opt/panel-tools --no-audit --no-fund --no-package-lock --loglevel=error esbuild@${ESBUILD_VERSION} preact@${PREACT_VERSION} \
 && ln -s /opt/panel-tools/node_modules /node_modules
COPY core ./core
COPY plugins ./plugins
COPY providers ./providers
COPY panel ./panel
COPY deploy/container/proxy.config.mjs ./proxy.config.mjs
RUN node panel/build.mjs \
 && rm -rf panel/src panel/build.mjs panel/build.d.mts panel/tsconfig.json \
 && find core plugins providers \( -name '*.test.ts' -o -name fixtures -prune \) -exec rm -rf {} + \
 && rm -rf plugins/presets/*/node_modules
# jiti's cache of the transpiled TypeScript, made by starting the server once: without it every container
# start (its /tmp is new) transpiles every file again, ~3.5 s before it listens. Started from another
# folder, as the image starts from /data: jiti puts a cache beside a node_modules it finds next to the
# working folder, and the build stage has one at /. A module first loaded later is transpiled then. It
# ships in /app/.jiti-cache; the bin copies it to /tmp/jiti at start (PROXY_JITI_CACHE_SEED below), so a
# /tmp mounted over the image's (Kubernetes, read-only root) gets it too.
RUN set -e; mkdir -p /tmp/warm-up; cd /tmp/warm-up; printf 'api-keys: [warm-up]\n' > config.yaml; \
    HOME=/tmp/warm-up NODE_ENV=production PROXY_ACCESS_LOG=json node /app/core/cli/bin.mjs start --project /app/proxy.config.mjs --config /tmp/warm-up/config.yaml --host 127.0.0.1 --port 0 > log 2>&1 & pid=$!; \
    for i in $(seq 1 120); do grep -q 'listening on' log && break; sleep 0.5; done; \
    kill $pid; wait $pid || true; grep -q 'listening on' log || { cat log; exit 1; }; \
    rm -rf /tmp/warm-up /data; mv /tmp/jiti /app/.jiti-cache
# The runtime's whole filesystem: node and the shared libraries ldd names (paths kept: any architecture),
# users root and node (1000), a /tmp, and the app.
RUN set -e; root=/out/rootfs; node_bin="$(command -v node)"; \
    mkdir -p "$root/tmp" "$root/etc" "$root$(dirname "$node_bin")" /out/owned/data; chmod 1777 "$root/tmp"; \
    cp "$node_bin" "$root$node_bin"; \
    for lib in $(ldd "$node_bin" | grep -o '/[^ ]*'); do mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; done; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/data:/sbin/nologin\n' > "$root/etc/passwd"; \
    printf 'root:x:0:\nnode:x:1000:\n' > "$root/etc/group"; \
    mv /app "$root/app"

# Stage 2: what runs. No shell, no package manager: the health check is node itself.
FROM scratch
COPY --from=build /out/rootfs /
COPY --from=build --chown=1000:1000 /out/owned /
ENV PATH=/usr/local/bin:/usr/bin:/bin \
    NODE_ENV=production \
    PROXY_JITI_CACHE_SEED=/app/.jiti-cache \
    PROXY_ACCESS_LOG=json \
    PROXY_DRAIN_SECONDS=20 \
    HOME=/data
# Non-root: uid 1000 (the official Node images' `node` user), owning only /data: fs storage, credential
# files (auth-dir under HOME) and logs when logging-to-file is on. The code stays root's, read-only to it.
USER 1000:1000
WORKDIR /data
EXPOSE 8317
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8317/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Every interface on 8317 whatever the file says (a config from `proxy init` says loopback).
ENTRYPOINT ["node", "--no-memory-reducer", "/app/core/cli/bin.mjs", "start", "--project", "/app/proxy.config.mjs", "--host", "0.0.0.0", "--port", "8317"]
CMD ["--config", "/config/config.yaml"]
