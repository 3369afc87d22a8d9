// Moved to test/raw-http.ts, the one raw-HTTP helper; this re-export keeps tests written before
// the move working. Import from there.
export { type Answer, comparableRequest as rawRequest, jsonLinesInto, listenOnLoopback } from '../raw-http.js';
