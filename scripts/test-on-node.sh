#!/usr/bin/env bash
# Runs the server's tests on one Node.js line: `scripts/test-on-node.sh 24` (its newest release),
# `scripts/test-on-node.sh 24.22.3`, or only some of them:
# `scripts/test-on-node.sh 26 test/server/backup.process.test.ts`.
#
# People run Linklet on each Node.js LTS line (22, 24, 26), not only on the one CI runs. The
# official Node binaries (and the headers native addons build against) come from the npm registry
# (scripts/registry-node.sh, cached in ~/.cache). The tests run in a copy of the project, so this
# checkout's node_modules stays as the rest of CI uses it; better-sqlite3's addon (Node-API, one
# build for every line) is compiled there only if it does not load on that Node. The copy builds
# the server and the web app itself (the tests' global setup).
set -euo pipefail
version="${1:?Usage: scripts/test-on-node.sh VERSION [TEST FILE OR FOLDER...] (a major, e.g. 26, for its newest release, or an exact one, e.g. 24.22.3)}"
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
started=$SECONDS
node_home="$(bash scripts/registry-node.sh "${version}")"
echo "Testing on Node.js $("${node_home}/bin/node" --version)"
# The earlier releases of the update tests, when named, come from this checkout's git history. Those
# on better-sqlite3 12 run on the Node this checkout's own test runs give them, whichever Node runs
# today's code (their builds are cached for it); later ones on the Node tested (scripts/release-node.mjs).
release_env=()
if [[ " ${filters[*]} " == *updates* ]]; then
  release_env=(LINKLET_RELEASE_NODE="$(node --input-type=module \
    -e "import('${project}/scripts/release-node.mjs').then((m) => console.log(m.sqlite12ReleaseNode()))")")
fi

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
  export PATH="${node_home}/bin:${PATH}" npm_config_nodedir="${node_home}"
  node scripts/build-sqlite-addon.mjs
  env LINKLET_REPO="${project}" "${release_env[@]}" node node_modules/vitest/vitest.mjs run \
    "${projects[@]}" "${filters[@]}"
)
echo "Node.js $("${node_home}/bin/node" --version): the server's tests passed in $((SECONDS - started)) s"
