import { init } from "@paralleldrive/cuid2";

const createCuid = init({ length: 25 });

/** A new opaque identifier (CUID2), used for every stored record. */
export function newId(): string {
  return createCuid();
}
