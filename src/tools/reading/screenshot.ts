import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { INTERACTIVE_ROLES, type AriaNode } from '../../snapshot/index.js';
import { defineBrowserTool } from '../defineTool.js';
import { toModelText } from '../modelText.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

/** Taller full-page shots are cut here: beyond it a model sees little but pays for every pixel. */
const MAX_HEIGHT = 6_000;

interface Mark {
  ref: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

function marks(nodes: Array<AriaNode | string>, offsetX = 0, offsetY = 0, out: Mark[] = []): Mark[] {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    const box = node.box;
    if (node.ref && box && box.width > 0 && box.height > 0 && (INTERACTIVE_ROLES.has(node.role) || node.cursor === 'pointer')) {
      out.push({ ref: node.ref, x: box.x + offsetX, y: box.y + offsetY, width: box.width, height: box.height });
    }
    const inner = node.role === 'iframe' && box ? [offsetX + box.x, offsetY + box.y] : [offsetX, offsetY];
    marks(node.children ?? [], inner[0], inner[1], out);
  }
  return out;
}

export const screenshotTool = defineBrowserTool({
  id: 'browser_screenshot',
  description:
    'See the page (or one element by ref) as an image, when layout, pictures or colours matter; browser_snapshot is cheaper for text and controls. labels=true draws each ref on its element.',
  input: z.object({
    ref: refSchema.optional().describe('Only this element.'),
    fullPage: z.boolean().optional().describe(`The whole page, up to ${MAX_HEIGHT} px tall. Default false.`),
    labels: z.boolean().optional().describe('Draw each ref on its element. Default false.'),
  }),
  output: {
    mediaType: z.literal('image/jpeg'),
    width: z.number(),
    height: z.number(),
    labels: z.number().describe('How many refs were drawn.'),
    image: z.string().describe('The picture, base64-encoded JPEG.'),
  },
  toModelOutput(output) {
    if (!output.ok) return toModelText(output);
    return {
      type: 'content',
      value: [
        { type: 'text', text: `Screenshot ${output.width}x${output.height}${output.labels ? ` with ${output.labels} ref labels` : ''}.` },
        { type: 'image-data', data: output.image, mediaType: output.mediaType },
      ],
    };
  },
  budget: 'page',
  async handle({ ref, fullPage, labels }, call) {
    const { page } = call.tab;
    if (ref !== undefined && fullPage) throw new BrowserToolError('invalid_input', 'Give either ref or fullPage, not both.');
    let drawn = 0;
    if (labels) {
      // A full-page picture labels every ref of the page; a viewport capture holds one screen of them.
      const { capture } = await call.tab.refs.snapshot(fullPage ? { scope: 'page' } : {});
      const scroll = fullPage ? { x: capture.metrics.scrollX, y: capture.metrics.scrollY } : { x: 0, y: 0 };
      const list = marks(capture.tree).map((m) => ({ ...m, x: m.x + scroll.x, y: m.y + scroll.y }));
      drawn = await page.evaluate(
        ({ list, fixed }) => {
          const layer = document.createElement('div');
          layer.id = '__mbt_marks';
          layer.style.cssText = `position:${fixed ? 'fixed' : 'absolute'};left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;`;
          for (const m of list) {
            const frame = document.createElement('div');
            frame.style.cssText = `position:absolute;left:${m.x}px;top:${m.y}px;width:${m.width}px;height:${m.height}px;outline:2px solid #e0218a;`;
            const tag = document.createElement('span');
            tag.textContent = m.ref;
            tag.style.cssText = 'position:absolute;left:0;top:-14px;font:bold 11px/13px monospace;background:#e0218a;color:#fff;padding:0 2px;';
            frame.appendChild(tag);
            layer.appendChild(frame);
          }
          document.documentElement.appendChild(layer);
          return list.length;
        },
        { list, fixed: !fullPage },
      );
    }
    // Secret fields (card numbers, one-time codes, ...) are painted over: the model must not read them in pixels either.
    const shot = { type: 'jpeg' as const, quality: 70, mask: [page.locator(call.config.secretSelector)], timeout: call.deadline.forStep() };
    try {
      let image: Buffer;
      let width: number;
      let height: number;
      if (ref !== undefined) {
        const target = await resolveTarget(call, ref, 'screenshot');
        const box = await target.locator.boundingBox();
        image = await target.locator.screenshot(shot);
        width = Math.round(box?.width ?? 0);
        height = Math.round(box?.height ?? 0);
      } else if (fullPage) {
        const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
        width = Math.min(size.w, call.config.viewport.width);
        height = Math.min(size.h, MAX_HEIGHT);
        if (size.h > MAX_HEIGHT) call.notices.push(`The page is ${size.h}px tall; the picture stops at ${MAX_HEIGHT}px. Scroll and take another for the rest.`);
        image = await page.screenshot({ ...shot, fullPage: true, clip: { x: 0, y: 0, width, height } });
      } else {
        const viewport = page.viewportSize() ?? call.config.viewport;
        width = viewport.width;
        height = viewport.height;
        image = await page.screenshot(shot);
      }
      return { mediaType: 'image/jpeg' as const, width, height, labels: drawn, image: image.toString('base64') };
    } finally {
      if (labels) await page.evaluate(() => document.getElementById('__mbt_marks')?.remove()).catch(() => {});
    }
  },
});
