import { describe, expect, it } from 'vitest';
import { healthUrlOf } from '../../server/process/health-url.js';

// The container image's HEALTHCHECK asks the server in its own container, wherever it listens.
describe('healthUrlOf', () => {
  it('asks loopback when the server listens on every address', () => {
    expect(healthUrlOf({ HOST: '0.0.0.0', PORT: '8080' })).toBe('http://127.0.0.1:8080/health');
    expect(healthUrlOf({ HOST: '::', PORT: '3000' })).toBe('http://[::1]:3000/health');
  });

  it('asks the one address the server listens on, and its default port', () => {
    expect(healthUrlOf({})).toBe('http://127.0.0.1:8080/health');
    expect(healthUrlOf({ HOST: '10.0.0.5', PORT: '9000' })).toBe('http://10.0.0.5:9000/health');
    expect(healthUrlOf({ HOST: 'fd00::5' })).toBe('http://[fd00::5]:8080/health');
    expect(healthUrlOf({ HOST: 'localhost' })).toBe('http://localhost:8080/health');
  });
});
