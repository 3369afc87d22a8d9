import { describe, expect, it } from 'vitest';
import { createRequestIds } from '../../server/http/request-ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createRequestIds', () => {
  it('makes ids shaped like version 4 UUIDs, none twice', () => {
    const next = createRequestIds();
    const ids = Array.from({ length: 10_000 }, next);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives each process (each maker) a prefix of its own, so workers and restarts never share an id', () => {
    const prefixes = new Set(Array.from({ length: 50 }, () => createRequestIds()().slice(0, 28)));
    expect(prefixes.size).toBe(50);
  });

  it('does not start every process at the same count', () => {
    const firsts = new Set(Array.from({ length: 50 }, () => createRequestIds()().slice(28)));
    expect(firsts.size).toBeGreaterThan(45);
  });
});
