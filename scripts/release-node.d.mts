// Types of release-node.mjs, for the TypeScript tests that import it.

/** The Node.js taken from the npm registry for the earlier releases when no Node at hand runs them. */
export declare const RELEASE_REGISTRY_NODE: string;

/** Whether every earlier release of the update tests runs on Node `version` (better-sqlite3 12). */
export declare function runsReleases(version: string): boolean;

/** The major version of better-sqlite3 the release at `commit` pins. */
export declare function sqliteMajorOf(commit: string): number;

/** The Node.js binary that builds and runs the release at `commit`. */
export declare function releaseNode(commit: string): string;

/** The folder whose include/node holds the headers of `node`, when it has them. */
export declare function headersDirOf(node: string): string | undefined;

/** The Node.js binary for the releases on better-sqlite3 12 (before 0.2.0). */
export declare function sqlite12ReleaseNode(): string;
