import { describe, expect, it } from 'vitest';
import { BrowserToolError, normalizeRef, toBrowserToolError } from '../src/index.js';
import type { AriaNode, Capture } from '../src/snapshot/capture.js';
import { formatSnapshot } from '../src/snapshot/format.js';
import { indexRefs } from '../src/snapshot/lines.js';

const box = (y: number, height = 20, x = 10, width = 200) => ({ x, y, width, height });

function capture(tree: AriaNode[], overrides: Partial<Capture> = {}): Capture {
  return {
    url: 'https://shop.example/cart',
    title: 'Cart',
    tree,
    metrics: { scrollX: 0, scrollY: 0, scrollWidth: 1280, scrollHeight: 3000, viewportWidth: 1280, viewportHeight: 720 },
    fields: new Map(),
    documentId: 1,
    ...overrides,
  };
}

describe('formatSnapshot (unit, on captured JSON)', () => {
  it('writes one line per control with value, states, and link targets where the name is not enough', () => {
    const tree: AriaNode[] = [
      {
        role: 'generic',
        ref: 'e1',
        box: box(0, 800),
        children: [
          { role: 'heading', name: 'Your cart', level: 2, ref: 'e2', box: box(0) },
          { role: 'generic', ref: 'e3', box: box(30), children: ['Quantity', { role: 'spinbutton', name: 'Quantity', ref: 'e4', box: box(30), text: '2' }] },
          { role: 'checkbox', name: 'Gift wrap', checked: true, ref: 'e5', box: box(60) },
          { role: 'button', name: 'Checkout', disabled: true, ref: 'e6', box: box(90) },
          { role: 'link', name: 'Continue shopping', ref: 'e7', box: box(120), url: 'https://shop.example/products?page=1' },
          { role: 'link', name: 'Read more', ref: 'e10', box: box(130), url: 'https://shop.example/blog/kettles' },
          { role: 'link', name: 'Help', ref: 'e8', box: box(150), url: 'https://help.example/' },
          { role: 'button', ref: 'e9', box: box(180), text: 'Remove item', active: true },
        ],
      },
    ];
    const { text } = formatSnapshot(capture(tree), { scope: 'viewport', maxTokens: 2000 });
    expect(text.split('\n')).toEqual([
      'page "Cart" https://shop.example/cart',
      '## Your cart',
      'e4 spinbutton "Quantity" value="2"',
      'e5 checkbox "Gift wrap" checked',
      'e6 button "Checkout" disabled',
      'e7 link "Continue shopping"',
      'e10 link "Read more" -> /blog/kettles',
      'e8 link "Help"', // another site: the name says enough; a ref snapshot prints the target
      'e9 button "Remove item" focused',
      'below 2280px', // nothing listed lies there, but the page goes on
    ]);
  });

  it('masks password values and marks required and read-only fields from field facts', () => {
    const tree: AriaNode[] = [
      { role: 'textbox', name: 'Password', ref: 'e2', box: box(10), text: 'hunter2' },
      { role: 'textbox', name: 'Coupon', ref: 'e3', box: box(40), text: 'SAVE10' },
    ];
    const fields = new Map([
      ['10,10,200,20', { password: true, required: true, readonly: false }],
      ['10,40,200,20', { password: false, required: false, readonly: true }],
    ]);
    const { text } = formatSnapshot(capture(tree, { fields }), { scope: 'viewport', maxTokens: 2000 });
    expect(text).toContain('e2 textbox "Password" value="••••••" required password');
    expect(text).toContain('e3 textbox "Coupon" value="SAVE10" readonly');
    expect(text).not.toContain('hunter2');
  });

  it('leaves out what is far outside the viewport and tallies it', () => {
    const tree: AriaNode[] = [
      { role: 'button', name: 'Top', ref: 'e1', box: box(100) },
      ...Array.from({ length: 5 }, (_, i) => ({ role: 'link', name: `Far ${i}`, ref: `e${10 + i}`, box: box(2000 + i * 30), url: '/x' })),
      { role: 'button', name: 'Way down', ref: 'e20', box: box(2900) },
    ];
    const { text, refsShown } = formatSnapshot(capture(tree), { scope: 'viewport', maxTokens: 2000 });
    expect(text).toContain('e1 button "Top"');
    expect(text).not.toContain('Far 0');
    expect(text).toMatch(/^below \d+px: 5 links, 1 button$/m);
    expect(refsShown).toBe(1);
    const page = formatSnapshot(capture(tree), { scope: 'page', maxTokens: 2000 });
    expect(page.text).toContain('e20 button "Way down"');
    expect(page.text).toContain('e10 link "Far 0"'); // whole-page mode leaves link targets out
    expect(page.text).not.toContain('->');
    expect(page.refsShown).toBe(7);
  });

  it('cuts text before controls to meet the budget, and says so', () => {
    const tree: AriaNode[] = Array.from({ length: 60 }, (_, i) => [
      { role: 'paragraph', ref: `p${i}`, box: box(i * 40), text: `Paragraph number ${i} with a sentence of filler text that costs tokens.` } as AriaNode,
      { role: 'button', name: `Action ${i}`, ref: `e${i}`, box: box(i * 40 + 20) } as AriaNode,
    ]).flat();
    const tall = capture(tree, { metrics: { scrollX: 0, scrollY: 0, scrollWidth: 1280, scrollHeight: 3000, viewportWidth: 1280, viewportHeight: 3000 } });
    const result = formatSnapshot(tall, { scope: 'viewport', maxTokens: 400 });
    expect(result.tokens).toBeLessThanOrEqual(400);
    expect(result.text).toMatch(/\[cut to fit 400 tokens: 60 text.*\]/);
    expect(result.text).toContain('e0 button "Action 0"');
  });

  it('offsets iframe content by the iframe position and keeps frame refs', () => {
    const tree: AriaNode[] = [
      { role: 'iframe', ref: 'e2', box: box(500, 200), children: [{ role: 'button', name: 'Pay', ref: 'f1e2', box: box(10) }] },
      { role: 'iframe', ref: 'e3', box: box(2500, 200), children: [{ role: 'button', name: 'Hidden far', ref: 'f2e2', box: box(10) }] },
    ];
    const { text } = formatSnapshot(capture(tree), { scope: 'viewport', maxTokens: 2000 });
    expect(text).toContain('e2 iframe:\n f1e2 button "Pay"');
    expect(text).not.toContain('Hidden far');
  });

  it('gives clickable non-controls a ref, but not their inner text', () => {
    const tree: AriaNode[] = [
      // Playwright reports a pointer cursor only where it begins, not on the elements that inherit it.
      { role: 'generic', ref: 'e2', cursor: 'pointer', box: box(10), children: [{ role: 'generic', ref: 'e3', box: box(10), text: 'Open menu' }] },
    ];
    const { text } = formatSnapshot(capture(tree), { scope: 'viewport', maxTokens: 2000 });
    expect(text).toContain('e2 clickable "Open menu"');
    expect(text).not.toContain('e3');
  });

  it('indexes every ref with its role and name', () => {
    const refs = indexRefs([{ role: 'generic', ref: 'e1', children: [{ role: 'button', name: 'Go', ref: 'e2' }, 'text'] }]);
    expect(refs.get('e2')).toEqual({ role: 'button', name: 'Go' });
  });
});

describe('normalizeRef', () => {
  it('accepts e12, @e12, ref=e12, 12 and frame refs', () => {
    expect(['e12', '@e12', 'ref=e12', '12', ' e12 '].map(normalizeRef)).toEqual(['e12', 'e12', 'e12', 'e12', 'e12']);
    expect(normalizeRef('f3e7')).toBe('f3e7');
  });
  it('rejects selectors and empty strings with invalid_input', () => {
    for (const bad of ['#submit', 'button', '', 'e', 'e12; drop']) {
      expect(() => normalizeRef(bad)).toThrow(BrowserToolError);
      try {
        normalizeRef(bad);
      } catch (error) {
        expect((error as BrowserToolError).code).toBe('invalid_input');
      }
    }
  });
});

describe('toBrowserToolError', () => {
  it('maps Playwright messages to codes', () => {
    const cases: Array<[string, string]> = [
      ['locator.click: Timeout 3000ms exceeded.\nCall log:\n  - <div class="overlay">…</div> intercepts pointer events', 'element_blocked'],
      ['page.goto: net::ERR_NAME_NOT_RESOLVED at http://x.invalid/', 'navigation_failed'],
      ['page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://self-signed/', 'navigation_failed'],
      ['Target page, context or browser has been closed', 'browser_closed'],
      ['locator.fill: Error: Element is not an <input>, <textarea> or [contenteditable] element', 'not_editable'],
      ['locator.click: Timeout 3000ms exceeded.', 'timeout'],
      ['something unexpected', 'browser_error'],
    ];
    for (const [message, code] of cases) expect(toBrowserToolError(new Error(message)).code, message).toBe(code);
    expect(toBrowserToolError(new Error(cases[0]![0])).message).toContain('<div class="overlay">');
  });
});
