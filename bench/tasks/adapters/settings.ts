/**
 * Settings every system gets alike, so differences come from the tools, not from waiting longer.
 * 5 s per element action is @playwright/mcp's default; navigation is generous because the pages are local.
 */
export const ACTION_TIMEOUT = 5_000;
export const NAVIGATION_TIMEOUT = 15_000;

/**
 * Added to bench/systems.ts's flags for every system here. The npm-shipped headless shell animates keyboard
 * scrolling and barely advances the animation between tool calls, so PageDown (the only way Playwright MCP
 * has to scroll) would seem to do nothing; the other systems scroll with script and are not affected.
 */
export const EXTRA_ARGS = ['--disable-smooth-scrolling'];
