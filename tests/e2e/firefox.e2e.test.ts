// The Firefox build (sidebar, event page) passes Mozilla's addons-linter with no errors.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './harness';

const FIREFOX = path.join(ROOT, process.env.RECIPE_LENS_OUT ?? '.output', 'firefox-mv3');

describe('the Firefox build', () => {
  it('exists, uses a sidebar and an event page, and has no addons-linter errors', () => {
    if (!existsSync(path.join(FIREFOX, 'manifest.json'))) throw new Error('No Firefox build: run `npm run build:firefox` (npm test does it).');
    const manifest = JSON.parse(readFileSync(path.join(FIREFOX, 'manifest.json'), 'utf8'));
    expect(manifest.sidebar_action?.default_panel).toBe('sidepanel.html');
    expect(manifest.background.scripts).toEqual(['background.js']);
    expect(manifest.permissions).not.toContain('sidePanel');
    let output = '';
    try {
      output = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'addons-linter'), ['--output', 'json', FIREFOX], {
        encoding: 'utf8',
        maxBuffer: 32 * 1024 * 1024,
      });
    } catch (error) {
      // addons-linter exits non-zero when it finds errors; its JSON is still on stdout.
      output = (error as { stdout?: string }).stdout ?? '';
    }
    const report = JSON.parse(output) as { summary: { errors: number }; errors: Array<{ code: string; message: string; file?: string }> };
    expect(report.errors.map((e) => `${e.code}: ${e.message} (${e.file ?? 'manifest'})`)).toEqual([]);
    expect(report.summary.errors).toBe(0);
  }, 120_000);
});
