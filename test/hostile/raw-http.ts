// Moved to test/raw-http.ts, the one raw-HTTP helper; this re-export keeps tests written before
// the move working. Import from there.
export { type RawRequest, type RawResponse, rawRequest } from '../raw-http.js';
