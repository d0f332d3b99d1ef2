/** What to say when no Chromium is found (see browsers.mjs). */
export declare const CHROMIUM_MISSING: string;
/** What to say when no Firefox is found. */
export declare const FIREFOX_MISSING: string;
/** The Chromium binary: CHROMIUM_PATH when it exists, else Debian's or Ubuntu's; null when there is none. */
export declare function findChromium(): string | null;
/** The Chromium binary, or an error saying how to install one. */
export declare function chromiumPath(): string;
/** The Firefox binary: FIREFOX_PATH when it exists, else Debian's firefox-esr, else firefox; null when there is none. */
export declare function findFirefox(): string | null;
/** The Firefox binary, or an error saying how to install one. */
export declare function firefoxPath(): string;
/** The flags every Chromium the project starts gets. */
export declare const CHROMIUM_FLAGS: readonly string[];
/** The Chromium flags that load these unpacked extensions (built folders) and no other. */
export declare function extensionFlags(...dirs: string[]): string[];
