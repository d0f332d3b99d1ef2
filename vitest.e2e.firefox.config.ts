import { defineConfig } from 'vitest/config';

// End-to-end tests in Firefox: Debian's firefox-esr with the Firefox build (see tests/e2e/firefox.ts).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.firefox.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
