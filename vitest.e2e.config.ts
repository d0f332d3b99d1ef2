import { defineConfig } from 'vitest/config';

// End-to-end tests: real Chromium with the built extension (see tests/e2e/harness.ts).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
