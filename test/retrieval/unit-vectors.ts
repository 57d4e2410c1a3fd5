/** Deterministic pseudo-random unit vectors (a linear congruential generator from `seed`). */
export function createUnitVectors(dimensions: number, seed: number): () => number[] {
  let state = seed;
  return () => {
    const values = Array.from({ length: dimensions }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31 - 0.5;
    });
    const norm = Math.hypot(...values);
    return values.map((value) => value / norm);
  };
}
