// Moved to scripts/server-process.mjs, the one launcher of tests, bench and fault script; this
// re-export keeps tests written before the move working. Import from there.
export * from '../../scripts/server-process.mjs';
