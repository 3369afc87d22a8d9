// Types of npm-environment.mjs, for the TypeScript tests that import it.

/** The environment without the `npm_config_*` settings a parent npm hands its children. */
export declare function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
