# Linklet's server and its web app, on the official Node.js image (Debian bookworm, slim).
#
#   docker build -t linklet .
#   docker run -d --name linklet -p 8080:8080 -v linklet-data:/data \
#     -e BASE_URL=https://sho.rt -e API_KEY=... linklet
#
# docs/container.md has the settings, a compose file with PostgreSQL and Redis, updates and
# backups. Another supported Node.js line or release (the README lists them):
# `docker build --build-arg NODE_VERSION=<line or x.y.z> ...`. The default is 26, the active
# LTS line (supported longest, and the one CI runs everything on).
ARG NODE_VERSION=26

# The build: every dependency, better-sqlite3's native addon (compiled from source when no
# prebuilt binary fits: the full image has python3, make and g++), the server and the web app
# built into dist/, then the development dependencies removed.
FROM node:${NODE_VERSION}-bookworm AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The dependencies alone first, so a change of the sources reuses this layer. No install scripts:
# the postinstall prepares the browser extension's build, which the image has no use for; only
# better-sqlite3's (its native addon) is run, on its own.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && node -e "new (require('better-sqlite3'))(':memory:').close()"
COPY . .
# Built (the web app's build reads the TypeScript settings `wxt prepare` writes, the postinstall
# skipped above), then pruned: what runs needs neither the development dependencies nor
# better-sqlite3's sources and intermediate objects.
RUN npm run postinstall && npm run build:server && npm run build:webapp \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/build/Release/obj.target node_modules/better-sqlite3/build/Release/.deps \
    node_modules/better-sqlite3/build/Release/test_extension.node node_modules/better-sqlite3/build/deps \
  && node -e "new (require('better-sqlite3'))(':memory:').close()"
# The volume's folder, readable by its owner only like the database in it, in a folder of its own
# so that COPY (which copies a folder's contents) carries its mode over.
RUN mkdir -p -m 700 /volume/data

# What runs: Node.js, the production dependencies and the built server, owned by root so the
# server (the unprivileged `node` user) cannot change its own code.
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATABASE_URL=sqlite:/data/linklet.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The SQLite database (and its -wal and -shm files) lives in this one volume, the node user's.
# Copied rather than made here: this stage runs nothing, so it holds nothing but what it copies.
COPY --from=build --chown=node:node /volume/ /
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "dist/server/process/health-check.js"]
# node itself is PID 1 (no npm, no shell), so SIGTERM reaches the server: it stops accepting,
# finishes the requests in flight, writes the last batch of clicks, closes the store and exits 0.
CMD ["node", "--max-semi-space-size=8", "dist/server/main.js"]
