/**
 * The environment without the `npm_config_*` settings that `npm run`, `npm test` and `npx` hand
 * their children. A child npm run with them would take the parent's settings over its own: this
 * project's `engine-strict` (which refuses an earlier release's install on Node 20), and, when
 * Node comes from the npm registry (scripts/registry-node.sh), a `globalconfig` inside that Node's
 * folder instead of the machine's npmrc, so the registry's CA bundle (`cafile`) goes missing. The
 * npm started with this environment reads the machine's and the project's npmrc as a person's would.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function withoutNpmConfig(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
}
