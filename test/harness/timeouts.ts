/** Vitest's limits (vitest.config.ts), for tests that need a multiple of them. */
export const TEST_TIMEOUT_MS = 30_000;
export const HOOK_TIMEOUT_MS = 60_000;
