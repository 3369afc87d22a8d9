#!/usr/bin/env bash
# Prints the folder of an official Node.js release taken from the npm registry, installing it on
# first use: `scripts/registry-node.sh 26` (the newest 26), `scripts/registry-node.sh 24.18.1`.
# Its bin/ holds node alone (put it first on PATH and the machine's npm runs on it); its
# include/node holds the headers native addons build against (point npm_config_nodedir at the
# folder and node-gyp downloads nothing).
#
# CI and the tests run Linklet on Node.js lines this machine does not have: the registry's
# node-<os>-<arch> package holds the official binaries (it is what the `node` package installs;
# taken directly, so no install script runs). Each release is cached in ~/.cache/linklet-node<VERSION>.
# Progress goes to stderr; stdout has the folder alone.
set -euo pipefail
version="${1:?Usage: scripts/registry-node.sh VERSION (a major, e.g. 26, for its newest release, or an exact one, e.g. 24.18.1)}"

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "No Node.js package on the npm registry for $(uname -m); install Node.js ${version} yourself." >&2; exit 1 ;;
esac
package="node-linux-${arch}"
home_of() { printf '%s/.cache/linklet-node%s/node_modules/%s' "${HOME}" "$1" "${package}"; }

if [[ "${version}" =~ ^[0-9]+$ ]]; then
  # A line: its newest release, as the registry lists it now; offline, the newest one cached.
  if listed="$(npm view "${package}@${version}" version --json 2>/dev/null)"; then
    exact="$(printf '%s' "${listed}" | tr -d ' \n"[]' | tr ',' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1)"
  else
    exact="$(find "${HOME}/.cache" -maxdepth 1 -name "linklet-node${version}.*" -printf '%f\n' 2>/dev/null |
      sed 's/^linklet-node//' | sort -V | tail -n 1)"
    [ -n "${exact}" ] && echo "The npm registry did not answer; using the newest Node.js ${version} cached, ${exact}." >&2
  fi
  if [ -z "${exact:-}" ]; then
    echo "The npm registry lists no ${package}@${version}; see \`npm view ${package} versions\`." >&2
    exit 1
  fi
else
  exact="${version}"
fi

node_home="$(home_of "${exact}")"
if ! "${node_home}/bin/node" --version 2>/dev/null | grep -qx "v${exact}"; then
  echo "Installing Node.js ${exact} from the npm registry (${package}@${exact}) into ${node_home}" >&2
  cache="${HOME}/.cache/linklet-node${exact}"
  # Installed beside the cache, then moved in whole: a run that dies half-way, or another one
  # installing the same release at once, never leaves a cache that looks finished but is not.
  mkdir -p "${HOME}/.cache"
  partial="$(mktemp -d "${cache}.partial-XXXXXX")"
  trap 'rm -rf "${partial}"' EXIT
  npm install --prefix "${partial}" --ignore-scripts --no-audit --no-fund --no-save --loglevel=error \
    "${package}@${exact}" >&2
  if ! "${node_home}/bin/node" --version 2>/dev/null | grep -qx "v${exact}"; then
    rm -rf "${cache}"
    mv -T "${partial}" "${cache}"
  fi
  if ! "${node_home}/bin/node" --version 2>/dev/null | grep -qx "v${exact}"; then
    echo "Node.js ${exact} from the npm registry does not run here (${node_home}/bin/node)." >&2
    exit 1
  fi
fi

# npm takes its global settings from PREFIX/etc/npmrc, PREFIX being the folder of the node it runs
# on: on this Node, the machine's npm would lose the machine's own (the registry, the CA bundle a
# proxy needs: SELF_SIGNED_CERT_IN_CHAIN on the first download not already cached). Give this
# Node the machine's global npmrc, as read by the machine's npm on the machine's node (no
# registry Node on PATH, no npm_config_* handed down by an `npm run` around this script).
machine_path="$(printf '%s' "${PATH}" | tr ':' '\n' | grep -v '/linklet-node[^/]*/' | paste -sd ':' -)"
unset_npm=()
while IFS= read -r name; do unset_npm+=(-u "${name}"); done < <(env | grep -io '^npm_config_[a-z_]*' || true)
machine_npmrc="$(env "${unset_npm[@]}" PATH="${machine_path}" npm config get globalconfig 2>/dev/null || true)"
if [ -n "${machine_npmrc}" ] && [ -f "${machine_npmrc}" ] && [ "${machine_npmrc}" != "${node_home}/etc/npmrc" ] &&
  ! cmp -s "${machine_npmrc}" "${node_home}/etc/npmrc"; then
  mkdir -p "${node_home}/etc"
  cp "${machine_npmrc}" "${node_home}/etc/npmrc.partial"
  mv -f "${node_home}/etc/npmrc.partial" "${node_home}/etc/npmrc"
fi
printf '%s\n' "${node_home}"
