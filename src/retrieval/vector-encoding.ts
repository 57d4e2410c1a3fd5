/**
 * Vectors are stored (real[]) and sent to the database as integers: each component of the unit
 * vector times 2^20, rounded (an absolute error below 1e-6). Decimal literals cost about five
 * times more to parse than integer ones (notably in PGlite's WebAssembly build, where parsing a
 * 512-float literal takes ~6 ms), and cosine ranking does not depend on the scale.
 */
export const EMBEDDING_SCALE = 1_048_576;

export function encodeEmbedding(vector: readonly number[]): number[] {
  return vector.map((value) => Math.round(value * EMBEDDING_SCALE));
}
