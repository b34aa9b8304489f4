// Test runner configuration. The HTTP suites share one local stack started in globalSetup.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every answer from a local gateway is checked against its route's contract (a drifted answer fails the test).
    setupFiles: ['test/helpers/contract-check.ts'],
    reporters: ['default'],
  },
});
