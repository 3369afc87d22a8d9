import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRandomCodeGenerator,
  GENERATED_CODE_ALPHABET,
  GENERATED_CODE_LENGTH,
} from '../../core/rules/generate-code.js';

const LOOK_ALIKES = ['0', 'o', '1', 'l', 'i'];
const ALPHABET_ONLY = /^[23456789abcdefghjkmnpqrstuvwxyz]+$/;

describe('generated code alphabet', () => {
  it('is lowercase letters and digits without the look-alikes 0 o 1 l i', () => {
    const expected = [...'0123456789abcdefghijklmnopqrstuvwxyz'].filter((c) => !LOOK_ALIKES.includes(c));
    expect([...GENERATED_CODE_ALPHABET].sort()).toEqual(expected);
  });

  it('has no repeated character (each is equally likely)', () => {
    expect(new Set(GENERATED_CODE_ALPHABET).size).toBe(GENERATED_CODE_ALPHABET.length);
  });

  it('makes 7-character codes by default', () => {
    expect(GENERATED_CODE_LENGTH).toBe(7);
  });
});

describe('createRandomCodeGenerator', () => {
  it.each([1, 7, 8, 12, 64])('makes a code of the requested length %i', (length) => {
    const code = createRandomCodeGenerator()(length);
    expect(code).toHaveLength(length);
    expect(code).toMatch(ALPHABET_ONLY);
  });

  it('property: any length 1..20 gives that many alphabet characters and never a look-alike', () => {
    const generate = createRandomCodeGenerator();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), (length) => {
        const code = generate(length);
        expect(code).toHaveLength(length);
        expect(code).toMatch(ALPHABET_ONLY);
        for (const c of LOOK_ALIKES) expect(code).not.toContain(c);
      }),
      { numRuns: 500 },
    );
  });

  it('gives distinct codes for many calls', () => {
    const generate = createRandomCodeGenerator();
    const codes = Array.from({ length: 5000 }, () => generate(GENERATED_CODE_LENGTH));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('is not sequential: codes in call order are not sorted, and neighbours share no long prefix', () => {
    const generate = createRandomCodeGenerator();
    const codes = Array.from({ length: 200 }, () => generate(GENERATED_CODE_LENGTH));
    expect(codes).not.toEqual([...codes].sort());
    expect(codes).not.toEqual([...codes].sort().reverse());
    const sharedPrefixes = codes.slice(1).filter((code, i) => code.slice(0, 4) === codes[i]?.slice(0, 4));
    // Random codes share a 4-character prefix with probability 31^-4 ≈ 1e-6 per pair.
    expect(sharedPrefixes.length).toBeLessThanOrEqual(1);
  });

  it('uses every character of the alphabet over many codes', () => {
    const generate = createRandomCodeGenerator();
    const seen = new Set(Array.from({ length: 2000 }, () => generate(GENERATED_CODE_LENGTH)).join(''));
    expect([...seen].sort().join('')).toBe([...GENERATED_CODE_ALPHABET].sort().join(''));
  });

  it('two generators do not repeat each other', () => {
    const a = createRandomCodeGenerator();
    const b = createRandomCodeGenerator();
    const fromA = Array.from({ length: 50 }, () => a(GENERATED_CODE_LENGTH));
    const fromB = Array.from({ length: 50 }, () => b(GENERATED_CODE_LENGTH));
    expect(fromA.filter((code) => fromB.includes(code))).toEqual([]);
  });
});
