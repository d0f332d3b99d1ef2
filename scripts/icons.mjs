// Renders the extension icon (public/icon/<size>.png) from one SVG, through headless Chromium.
// Run it after changing the design: `node scripts/icons.mjs`. The PNGs are committed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from './browsers.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'public', 'icon');
const SIZES = [16, 32, 48, 96, 128];

/** The icon: a lens over a highlighted line, on the extension's indigo. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6366f1"/><stop offset="1" stop-color="#3730a3"/></linearGradient></defs>
  <rect x="4" y="4" width="120" height="120" rx="28" fill="url(#g)"/>
  <rect x="22" y="50" width="58" height="16" rx="5" fill="#facc15"/>
  <rect x="22" y="78" width="40" height="9" rx="4.5" fill="#c7d2fe"/>
  <circle cx="62" cy="58" r="30" fill="none" stroke="#fff" stroke-width="11"/>
  <line x1="84" y1="80" x2="104" y2="100" stroke="#fff" stroke-width="13" stroke-linecap="round"/>
</svg>`;

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_FLAGS] });
const page = await browser.newPage();
for (const size of SIZES) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${SVG.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: path.join(OUT, `${size}.png`), omitBackground: true });
  console.log(`public/icon/${size}.png`);
}
await browser.close();
