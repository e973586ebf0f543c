/**
 * What the model reads of a tool result. Mastra sends `toModelOutput(result)` when a tool has one, and
 * `JSON.stringify(result)` otherwise; as JSON every quote in a snapshot becomes `\"` and every line break `\n`,
 * about a tenth more tokens for nothing. So results reach the model as plain text: notices first, then the
 * short fields as `key: value`, then the long ones (snapshot, changes) as blocks; a snapshot's block needs no
 * label, its first line says what it is. An error keeps its code, message, hint and retryability, and arrives
 * as an error result. `execute()` still returns the typed object for workflows and MCP.
 */
import { modelFields } from './modelCuts.js';
import { addressShown, titleShown } from '../snapshot/index.js';

import { withinBoundary } from './boundary.js';

/** Fields the model does not need in the text: sizes of the snapshot and its elements as data, for programs; the boundary's number, used below. */
const FOR_PROGRAMS = new Set(['ok', 'notices', 'tokens', 'refs', 'elements', 'boundary']);

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function isBlock(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\n');
}

/** Lists of objects (tabs, dialogs, downloads) read best one per line. */
function listLines(value: unknown[]): string[] {
  return value.map((item) =>
    item && typeof item === 'object'
      ? `- ${Object.entries(item as Record<string, unknown>)
          .map(([k, v]) => `${k}: ${scalar(v)}`)
          .join(', ')}`
      : `- ${scalar(item)}`,
  );
}

function fieldLines(data: Record<string, unknown>): string[] {
  const snapshot = typeof data.snapshot === 'string' ? data.snapshot : '';
  // The snapshot's first line names the page ("page "Title" URL"); saying it again above costs tokens.
  const header = snapshot.split('\n', 1)[0]!;
  const short: string[] = [];
  const blocks: string[] = [];
  for (const [key, value] of modelFields(data)) {
    if (FOR_PROGRAMS.has(key) || value === undefined || value === '') continue;
    // As the page line says them (snapshot/pageLine.ts): the address without trackers, the title without the site's name.
    if (key === 'url' && typeof value === 'string' && header.includes(addressShown(value))) continue;
    if (key === 'title' && typeof value === 'string' && header.includes(titleShown(value, typeof data.url === 'string' ? data.url : ''))) continue;
    if (Array.isArray(value)) {
      if (value.length) blocks.push(`${key}:`, ...listLines(value));
    } else if (isBlock(value)) {
      // A snapshot says what it is on its first line ("page "Title" URL"): no label above it.
      if (key === 'snapshot' && value.startsWith('page ')) blocks.push(value);
      else blocks.push(`${key}:`, value);
    }
    else short.push(`${key}: ${scalar(value)}`);
  }
  return [...short, ...blocks];
}

export interface ResultLike {
  ok: boolean;
  notices?: string[];
  /** The session's content boundary (boundary.ts): what came from the page is put between its markers. */
  boundary?: string;
  error?: { code: string; message: string; hint: string; retryable: boolean; snapshot?: string };
  [key: string]: unknown;
}

export function resultText(result: ResultLike): string {
  const lines = (result.notices ?? []).map((notice) => `note: ${notice}`);
  if (!result.ok && result.error) {
    const { code, message, hint, retryable, snapshot } = result.error;
    lines.push(`error ${code} (${retryable ? 'retryable' : 'not retryable'}): ${message}`, `hint: ${hint}`);
    if (snapshot) lines.push(...withinBoundary([snapshot], result.boundary));
    return lines.join('\n');
  }
  lines.push(...withinBoundary(fieldLines(result), result.boundary));
  return lines.length ? lines.join('\n') : 'ok';
}

/** Mastra's (AI SDK's) tool output: plain text, marked as an error for failed calls. */
export function toModelText(result: ResultLike): { type: 'text' | 'error-text'; value: string } {
  return { type: result.ok ? 'text' : 'error-text', value: resultText(result) };
}
