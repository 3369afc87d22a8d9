#!/usr/bin/env bash
# Makes the official Node.js images the Dockerfile starts from, locally, when they are missing:
# `test/container/base-images.sh 24` makes docker.io/library/node:24-bookworm (the build stage's)
# and docker.io/library/node:24-bookworm-slim (the runtime's).
#
# No image registry is reachable from the machines the container test runs on, but Debian's
# mirror and the npm registry are. So the images are made the way their official Dockerfiles make
# them, from the same parts: Debian bookworm from `debootstrap` (minbase, as debian:bookworm-slim;
# plus python3, make and g++ for the full image, which the official one has from buildpack-deps),
# the official Node.js binaries and headers from the npm registry's node-linux-<arch> package (the
# files of nodejs.org's tarball) under /usr/local, npm from the registry's `npm` package (the
# tarball's bundled npm; the registry's package has no npm), a `node` user and group with id
# 1000 and home /home/node, and the official docker-entrypoint.sh. Each is made once and kept
# (`podman image exists`); the Debian root file system is cached in ~/.cache/linklet-container.
set -euo pipefail
version="${1:?Usage: test/container/base-images.sh NODE_VERSION (a major, e.g. 24, or a release, e.g. 24.22.3)}"
major="${version%%.*}"
podman=(podman --runtime runc --cgroup-manager cgroupfs)
slim="docker.io/library/node:${version}-bookworm-slim"
full="docker.io/library/node:${version}-bookworm"
debian="docker.io/library/debian:bookworm-slim"
buildpack="docker.io/library/buildpack-deps:bookworm"
cache="${XDG_CACHE_HOME:-${HOME}/.cache}/linklet-container"
mkdir -p "${cache}"

if "${podman[@]}" image exists "${slim}" && "${podman[@]}" image exists "${full}"; then
  echo "Base images ${full} and ${slim} are present."
  exit 0
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "No Node.js package on the npm registry for $(uname -m)." >&2; exit 1 ;;
esac

# Debian bookworm, minbase: what debian:bookworm-slim holds (its own Dockerfile is a debootstrap).
if ! "${podman[@]}" image exists "${debian}"; then
  rootfs_tar="${cache}/debian-bookworm-minbase.tar"
  if [ ! -f "${rootfs_tar}" ]; then
    rootfs="$(mktemp -d "${TMPDIR:-/tmp}/linklet-bookworm-XXXXXX")"
    echo "debootstrap: Debian bookworm (minbase) into ${rootfs}"
    debootstrap --variant=minbase bookworm "${rootfs}" http://deb.debian.org/debian
    # As the official image: no package lists or caches kept.
    rm -rf "${rootfs}"/var/lib/apt/lists/* "${rootfs}"/var/cache/apt/*.bin "${rootfs}"/var/cache/apt/archives/*.deb
    tar -C "${rootfs}" --numeric-owner -cf "${rootfs_tar}.partial" .
    mv "${rootfs_tar}.partial" "${rootfs_tar}"
    rm -rf "${rootfs}"
  fi
  # What debuerreotype's slimify does for the -slim variant: no documentation, manuals or
  # translations, now or from packages installed later.
  slim_root="$(mktemp -d "${TMPDIR:-/tmp}/linklet-bookworm-slim-XXXXXX")"
  tar -C "${slim_root}" --numeric-owner -xf "${rootfs_tar}"
  find "${slim_root}/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "${slim_root}/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "${slim_root}"/usr/share/{man,info,groff,lintian,linda,locale}/*
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/man/*' 'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' \
    'path-exclude /usr/share/lintian/*' 'path-exclude /usr/share/linda/*' 'path-exclude /usr/share/locale/*' \
    >"${slim_root}/etc/dpkg/dpkg.cfg.d/docker"
  tar -C "${slim_root}" --numeric-owner -c . | "${podman[@]}" import --change 'CMD ["bash"]' - "${debian}"
  rm -rf "${slim_root}"
fi

build_dir="$(mktemp -d "${TMPDIR:-/tmp}/linklet-node-image-XXXXXX")"
trap 'rm -rf "${build_dir}"' EXIT

# buildpack-deps:bookworm, reduced to what building a native addon needs.
if ! "${podman[@]}" image exists "${buildpack}"; then
  cat >"${build_dir}/Containerfile.buildpack" <<'EOF'
FROM docker.io/library/debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates python3 make g++ xz-utils \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
EOF
  "${podman[@]}" build --network host -f "${build_dir}/Containerfile.buildpack" -t "${buildpack}" "${build_dir}"
fi

# The Node.js release: the newest of the line (or the release asked for) and its bundled npm's
# major (the npm release each line ships with: 10 for 22, 11 for 24 and later).
exact="$(npm view "node-linux-${arch}@${version}" version --json | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log([].concat(v).at(-1));')"
case "${major}" in
  22) npm_range=10 ;;
  *) npm_range=11 ;;
esac
(cd "${build_dir}" && npm pack --silent "node-linux-${arch}@${exact}" "npm@${npm_range}" >/dev/null)
# The files of the official tarball, laid out as it unpacks into /usr/local, copied in one layer.
local_dir="${build_dir}/usr-local"
mkdir -p "${local_dir}/lib/node_modules/npm"
tar -xzf "${build_dir}/node-linux-${arch}-${exact}.tgz" -C "${local_dir}" --strip-components=1 --no-same-owner \
  package/bin package/include package/share
tar -xzf "${build_dir}"/npm-*.tgz -C "${local_dir}/lib/node_modules/npm" --strip-components=1 --no-same-owner
rm "${build_dir}"/*.tgz
find "${local_dir}/lib/node_modules/npm/bin" -type f -exec chmod 755 {} +
ln -s ../lib/node_modules/npm/bin/npm-cli.js "${local_dir}/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "${local_dir}/bin/npx"
ln -s node "${local_dir}/bin/nodejs"

# The official docker-entrypoint.sh: a first argument that is an option or a script runs in node.
cat >"${build_dir}/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e

# Run command with node if the first argument contains a "-" or is not a system command. The last
# part inside the "{}" is a workaround for the following bug in ash/dash:
# https://bugs.debian.org/cgi-bin/bugreport.cgi?bug=874264
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi

exec "$@"
EOF
chmod +x "${build_dir}/docker-entrypoint.sh"

# As the official Dockerfile: the node user first, then Node.js under /usr/local.
cat >"${build_dir}/Containerfile.node" <<EOF
ARG BASE
FROM \${BASE}
RUN groupadd --gid 1000 node \\
  && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_VERSION ${exact}
# The one library Node.js needs beyond Debian's base (newer lines link libatomic), kept as the
# official Dockerfile keeps it.
RUN apt-get update && apt-get install -y --no-install-recommends libatomic1 \\
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
COPY usr-local/ /usr/local/
RUN node --version && npm --version
COPY docker-entrypoint.sh /usr/local/bin/
ENTRYPOINT ["docker-entrypoint.sh"]
CMD [ "node" ]
EOF
"${podman[@]}" build --network host -f "${build_dir}/Containerfile.node" --build-arg "BASE=${debian}" -t "${slim}" "${build_dir}"
"${podman[@]}" build --network host -f "${build_dir}/Containerfile.node" --build-arg "BASE=${buildpack}" -t "${full}" "${build_dir}"
echo "Made ${full} and ${slim} (Node.js ${exact})."
