// Types of release-build.mjs, for the TypeScript tests that import it.

/** Where releases are cached: `LINKLET_RELEASES_CACHE`, else `~/.cache/linklet-releases`. */
export declare function releasesCacheDir(): string;

/**
 * The Node.js binary that builds and runs the release at `commit`: the Node running the tests for a
 * release on better-sqlite3 13 or later; for an earlier one `LINKLET_RELEASE_NODE`, else this one or
 * another at hand that it runs on (better-sqlite3 12), else Node.js 24.18.1 from the npm registry.
 */
export declare function releaseNode(commit: string): string;

/** The full commit id of `commit`; throws with what to do when the clone lacks it. */
export declare function resolveCommit(commit: string): string;

/** The built release at `commit` (its folder), built now unless a finished build is cached. */
export declare function ensureRelease(commit: string): Promise<string>;
