// The browsers that the end-to-end tests, the benchmarks, the demo and the icon renderer drive: where their binaries
// are (or how to install them), and the flags every Chromium the project starts gets. Plain JavaScript, so scripts
// run it under Node as it is and TypeScript tests import it (types in browsers.d.mts).
import { existsSync } from 'node:fs';

/** What to say when no Chromium is found. */
export const CHROMIUM_MISSING =
  'No Chromium found: install it with `sudo apt-get install -y chromium` (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome binary.';

/** What to say when no Firefox is found. */
export const FIREFOX_MISSING = 'No Firefox found: install it with `sudo apt-get install -y firefox-esr` or set FIREFOX_PATH to a Firefox binary.';

/** The first of `candidates` (an environment variable's value, then the usual places) that exists; null when none does. */
function firstExisting(candidates) {
  return candidates.filter(Boolean).find((p) => existsSync(p)) ?? null;
}

/** `found`, or an error saying `missing`. */
function required(found, missing) {
  if (!found) throw new Error(missing);
  return found;
}

/** The Chromium binary: CHROMIUM_PATH when it exists, else Debian's or Ubuntu's; null when there is none. */
export function findChromium() {
  return firstExisting([process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']);
}

/** The Chromium binary ({@link findChromium}), or an error saying how to install one. */
export function chromiumPath() {
  return required(findChromium(), CHROMIUM_MISSING);
}

/** The Firefox binary: FIREFOX_PATH when it exists, else Debian's firefox-esr, else firefox; null when there is none. */
export function findFirefox() {
  return firstExisting([process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox']);
}

/** The Firefox binary ({@link findFirefox}), or an error saying how to install one. */
export function firefoxPath() {
  return required(findFirefox(), FIREFOX_MISSING);
}

/** The flags every Chromium the project starts gets: no sandbox or GPU (containers), no traffic of its own (updates, sync, QUIC). */
export const CHROMIUM_FLAGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** The Chromium flags that load these unpacked extensions (built folders) and no other. */
export function extensionFlags(...dirs) {
  const list = dirs.join(',');
  return [`--disable-extensions-except=${list}`, `--load-extension=${list}`];
}
