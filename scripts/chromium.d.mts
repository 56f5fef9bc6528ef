/** The Chromium executable: CHROME_PATH, else /usr/bin/chromium. */
export declare const CHROME_PATH: string;
/** Flags for a headless Chromium on a CI machine. */
export declare const CHROMIUM_ARGS: string[];
