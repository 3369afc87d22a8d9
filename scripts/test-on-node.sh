#!/usr/bin/env bash
# Runs the server's tests on another Node.js line: `scripts/test-on-node.sh 24`, or only some of
# them: `scripts/test-on-node.sh 24 test/server/backup.process.test.ts`.
#
# People run Linklet on the Node.js LTS lines (22, 24), not only on the one this machine has. The
# official Node binaries (and the headers native addons build against) come from the npm registry
# (package node-<os>-<arch>, what the `node` package installs, taken directly so no install
# script runs), cached in ~/.cache/linklet-node<MAJOR>. The tests run in a copy of the project
# whose better-sqlite3 is rebuilt for that Node, so this checkout's node_modules stays as the rest
# of CI uses it. The copy builds the server and the web app itself (the tests' global setup).
set -euo pipefail
version="${1:?Usage: scripts/test-on-node.sh VERSION [TEST FILE OR FOLDER...] (a major, e.g. 24, or an exact release, e.g. 24.18.1)}"
major="${version%%.*}"
shift
# By default the server's process tests (vitest's `node` project under test/server and
# test/contract): server processes on SQLite and PostgreSQL, keys, backups, clustering, clicks,
# migrations and the PostgreSQL store contracts. The updates from earlier releases are about the
# data, not the Node line, and run once in `npm test` (keeping CI under its 30 minutes). Files
# named on the command line may come from the `unit` project too.
projects=(--project unit --project node)
filters=("$@")
if [ "${#filters[@]}" -eq 0 ]; then
  projects=(--project node)
  filters=(test/server/ test/contract/)
fi
cd "$(dirname "$0")/.."
project="$(pwd)"
machine_node="$(command -v node)"
started=$SECONDS

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "No Node.js package on the npm registry for $(uname -m); run the tests on this machine's Node." >&2; exit 1 ;;
esac
package="node-linux-${arch}"
cache="${HOME}/.cache/linklet-node${version}"
node_home="${cache}/node_modules/${package}"
if ! "${node_home}/bin/node" --version 2>/dev/null | grep -q "^v${version}\(\.\|$\)"; then
  echo "Installing Node.js ${version} from the npm registry (${package}@${version}) into ${cache}"
  rm -rf "${cache}"
  npm install --prefix "${cache}" --no-audit --no-fund --loglevel=error "${package}@${version}"
fi
echo "Testing on Node.js $("${node_home}/bin/node" --version)"

# Tracked files and new ones not ignored, as the tests would see this checkout.
copy="$(mktemp -d "${TMPDIR:-/tmp}/linklet-node${major}-XXXXXX")"
trap 'rm -rf "${copy}"' EXIT
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
  [ -e "${file}" ] && printf '%s\0' "${file}"
done | xargs -0 cp --parents -t "${copy}"
cp -a node_modules "${copy}/"
# WXT's generated types and config, which vitest.config.ts's extension project reads.
[ -d .wxt ] && cp -a .wxt "${copy}/"
(
  cd "${copy}"
  export PATH="${node_home}/bin:${PATH}"
  # Build better-sqlite3 from source against this Node's headers (nothing else is downloaded),
  # once per version: compiling SQLite takes minutes on a busy 2-core machine.
  sqlite_addon_version="$(node -p "require('better-sqlite3/package.json').version")"
  addon="node_modules/better-sqlite3/build/Release/better_sqlite3.node"
  cached="${cache}/better-sqlite3-${sqlite_addon_version}-abi$(node -p process.versions.modules).node"
  if [ -f "${cached}" ]; then
    cp "${cached}" "${addon}"
  else
    npm_config_nodedir="${node_home}" npm rebuild better-sqlite3 --loglevel=error
    cp "${addon}" "${cached}.partial" && mv "${cached}.partial" "${cached}"
  fi
  node -e "new (require('better-sqlite3'))(':memory:').close()"
  # The earlier releases of the update tests come from this checkout's git history and run on
  # the machine's Node, as before an update of both (their builds are cached for it).
  LINKLET_REPO="${project}" LINKLET_RELEASE_NODE="${machine_node}" node node_modules/vitest/vitest.mjs run \
    "${projects[@]}" "${filters[@]}"
)
echo "Node.js ${version}: the server's tests passed in $((SECONDS - started)) s"
