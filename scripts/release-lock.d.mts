// Types of release-lock.mjs, for the TypeScript tests that import it.

/** Runs `work` holding a lock between processes on this machine (a folder: mkdir is atomic). */
export declare function withLock<T>(lockDir: string, work: () => T | Promise<T>): Promise<T>;
