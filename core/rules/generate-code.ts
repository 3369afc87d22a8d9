import { customAlphabet } from 'nanoid';

/** Lowercase letters and digits without the look-alikes `0 o 1 l i`, so codes survive being read aloud. */
export const GENERATED_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const GENERATED_CODE_LENGTH = 7;

/** Makes a random code of the given length; injected into the handler so tests can be exact. */
export type CodeGenerator = (length: number) => string;

/**
 * The production generator: nanoid over a crypto source. 31^7 ≈ 2.8e10 codes, so collisions are
 * rare until a store holds hundreds of millions of links; `shorten` retries and grows the length.
 * `alphabet` is for tests: a tiny one makes collisions (and their retries) common.
 */
export function createRandomCodeGenerator(alphabet = GENERATED_CODE_ALPHABET): CodeGenerator {
  const bySize = new Map<number, () => string>();
  return (length) => {
    let generate = bySize.get(length);
    if (!generate) {
      generate = customAlphabet(alphabet, length);
      bySize.set(length, generate);
    }
    return generate();
  };
}
