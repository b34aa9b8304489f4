/** Types of `build-console.mjs` (a plain ES module of Node built-ins, so it runs before anything is installed). */

/** The built console directory (`web/dist`). */
export declare const CONSOLE_DIST: string;
/** The stamp of the inputs the current build was made from. */
export declare const CONSOLE_BUILD_STAMP: string;
/** The hash of everything the build reads. */
export declare const consoleInputsHash: () => string;
/** Whether `web/dist` was built from the current inputs. */
export declare const consoleBuildIsCurrent: () => boolean;
/** Builds the console unless it is current; returns the built directory. */
export declare const ensureConsoleBuilt: (options?: { quiet?: boolean }) => string;
