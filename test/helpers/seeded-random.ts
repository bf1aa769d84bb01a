/**
 * A small deterministic random source (mulberry32): numbers in [0, 1), the same sequence for the same
 * seed, so tests and benchmarks that draw values write the same data on every run. (Domain unit tests
 * keep their own copy: they import only domain code.)
 */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
