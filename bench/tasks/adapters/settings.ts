/**
 * Settings every system gets alike, so differences come from the tools, not from waiting longer.
 * 5 s per element action is @playwright/mcp's default; navigation is generous because the pages are local.
 */
export const ACTION_TIMEOUT = 5_000;
export const NAVIGATION_TIMEOUT = 15_000;
