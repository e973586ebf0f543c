import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockNames, FIGURE_DOCUMENTS, ROOT, withFigures } from '../bench/readme-figures.js';
import { BROWSER_TOOL_IDS } from '../src/index.js';
import { call, useServerAndBrowser } from './helpers/toolset.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text a reader reads as prose: without fenced code and without the blocks written from bench/results. */
function prose(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, '')
    .replace(/<!-- figures:start \S+ -->[\s\S]*?<!-- figures:end -->/g, '')
    .replace(/`[^`\n]*`/g, '');
}

describe('README: the first page of a Mastra developer', () => {
  it('starts with the two commands a reader runs first: the demo, then the tests', () => {
    const firstShellBlock = /```bash\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    const commands = firstShellBlock
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm run demo', 'npm test']);
    const scripts = JSON.parse(read('package.json')).scripts;
    expect(scripts.demo).toBeTruthy();
    expect(scripts.test).toBeTruthy();
  });

  it('shows install with the peer, the agent with tools and with a browser, MCP and Studio', () => {
    expect(README).toContain('npm install mastra-browser-toolset @mastra/core');
    expect(README).toMatch(/new Agent\(\{[\s\S]*?tools: browser\.tools/);
    expect(README).toMatch(/new Agent\(\{[\s\S]*?\bbrowser \}\)/);
    expect(README).toContain('claude mcp add browser -- npx -y mastra-browser-toolset mcp');
    expect(README).toContain('cd integrations/playground && npm ci && npm run dev');
    // The first screenful: these come before anything else.
    const sections = README.match(/^## .*$/gm)!.slice(0, 4);
    expect(sections).toEqual([expect.stringMatching(/install/i), expect.stringMatching(/agent/i), expect.stringMatching(/MCP/), expect.stringMatching(/Studio/)]);
  });

  it('names every tool the toolset offers', () => {
    for (const id of BROWSER_TOOL_IDS) expect(README, id).toContain(`\`${id}\``);
  });
});

describe('figures come from bench/results', () => {
  it.each(FIGURE_DOCUMENTS)('every figure block of %s is what bench/readme-figures.ts writes from bench/results', (document) => {
    const text = read(document);
    expect(blockNames(text).length).toBeGreaterThan(0);
    // On failure: run `npx tsx bench/readme-figures.ts` and commit the result.
    expect(text).toBe(withFigures(text));
  });

  it('README types no measurement by hand: every time, size, ratio or share is inside a figure block', () => {
    expect(blockNames(README)).toContain('compare');
    const typed = prose(README).match(/\b\d[\d,.]*\s?(ms|s|MB|GB|KB|%|x)\b|\d\s?×|\btimes (faster|slower)\b/g);
    expect(typed).toBeNull();
  });

  it('the benchmarks page links every results file', () => {
    const benchmarks = read('docs/benchmarks.md');
    const results = readdirSync(join(ROOT, 'bench/results')).filter((f) => f.endsWith('.md'));
    for (const file of results) expect(benchmarks, file).toContain(`(../bench/results/${file})`);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(markdown: string): Set<string> {
  const headings = markdown.replace(/```[\s\S]*?```/g, '').match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((h) => anchorOf(h.replace(/^#+ /, ''))));
}

describe('links', () => {
  it.each(DOCUMENTS)('every relative link of %s leads to a file (and heading) that exists', (document) => {
    const text = read(document).replace(/```[\s\S]*?```/g, '');
    const links = [...text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    const broken: string[] = [];
    for (const link of links) {
      if (/^(https?:|mailto:)/.test(link)) continue;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path ? join(ROOT, dirname(document), path) : join(ROOT, document);
      if (!target.startsWith(ROOT) || !existsSync(target)) {
        broken.push(`${link} (no ${relative(ROOT, target)})`);
        continue;
      }
      if (anchor && statSync(target).isFile() && !anchorsIn(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link} (no heading)`);
    }
    expect(broken).toEqual([]);
  });
});

describe('the sample snapshot', () => {
  const env = useServerAndBrowser();

  it("README's sample is what browser_navigate returns for the bundled sign-up page today", async () => {
    const sample = /<!-- sample:start form\.html -->\n```\n([\s\S]*?)\n```\n<!-- sample:end -->/.exec(README)?.[1];
    expect(sample).toBeDefined();
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    expect(result.ok).toBe(true);
    // The test server listens on a port of its own; the README shows the address a reader's local site would have.
    expect(result.snapshot.replaceAll(env.server.origin, 'http://localhost:3000')).toBe(sample);
  });
});
