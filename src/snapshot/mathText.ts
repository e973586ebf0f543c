/**
 * Math text: a formula read in one line, as it is written by hand in plain text (`a x^2 + b x + c = 0`,
 * `(−b ± √(b^2 − 4 a c))/(2 a)`). The accessibility tree gives MathML's parts as unnamed pieces, and read as
 * boxes on screen a superscript is a column apart ("ax · 2", the dot reading as a product) and a fraction two
 * rows. For the time of the capture each visible `<math>` (MathJax's assistive copy, a page's own MathML) gets
 * its reading as its `aria-label`, so a formula, or the control around it, is named by it; `releaseLabels` (hostLabels.ts) takes it
 * out again, and `foldFormulas` leaves the formula's parts out of the tree (one line, not a token per line).
 */
import type { AriaNode } from './tree.js';

/** Runs in the page, before the capture. Self-contained so it survives serialisation. Returns how many it named. */
export function labelMath(markersKey: string): number {
  const formulas = document.querySelectorAll('math');
  if (!formulas.length) return 0;
  /** Several tokens are bracketed where they are raised, lowered or divided: `x^(n+1)`, not `x^n+1`. */
  const group = (text: string) => (/^[^\s()]+$|^\(.*\)$/.test(text) ? text : `(${text})`);
  const ACCENTS = /^[˙¨^~¯→⃗´`ˇ˘.]+$/;
  const read = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return (node.nodeValue ?? '').trim();
    if (!(node instanceof Element)) return '';
    const parts = [...node.children].map(read);
    const [a = '', b = '', c = ''] = parts;
    switch (node.localName) {
      case 'mi': case 'mn': case 'mo': case 'mtext': case 'ms':
        return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      case 'annotation': case 'annotation-xml': case 'mprescripts': case 'none':
        return '';
      case 'semantics':
        return a;
      case 'msup': return `${a}^${group(b)}`;
      case 'msub': return `${a}_${group(b)}`;
      case 'msubsup': return `${a}_${group(b)}^${group(c)}`;
      case 'mover': return ACCENTS.test(b) ? `${a}${b}` : `${a}^${group(b)}`;
      case 'munder': return `${a}_${group(b)}`;
      case 'munderover': return `${a}_${group(b)}^${group(c)}`;
      case 'mfrac': return `${group(a)}/${group(b)}`;
      case 'msqrt': return `√${group(parts.filter(Boolean).join(' '))}`;
      case 'mroot': return `${group(b)}√${group(a)}`;
      case 'mtable': return parts.filter(Boolean).join('; ');
      case 'mtr': case 'mlabeledtr': return parts.filter(Boolean).join(' ');
      case 'mphantom': return '';
      case 'mfenced': return `(${parts.filter(Boolean).join(', ')})`;
      default: return parts.filter(Boolean).join(' ');
    }
  };
  const markers: Array<[Element, string]> = [];
  for (const math of formulas) {
    if (math.hasAttribute('aria-label') || math.hasAttribute('aria-labelledby') || !math.checkVisibility()) continue;
    const text = read(math).replace(/\s+/g, ' ').trim();
    if (!text) continue;
    math.setAttribute('aria-label', text);
    markers.push([math, 'aria-label']);
  }
  if (markers.length) (window as unknown as Record<symbol, unknown>)[Symbol.for(markersKey)] = markers;
  return markers.length;
}

/**
 * A named formula is one piece of text, its reading: its parts (a token each, some alike enough to pass for a
 * widget's cells) are left out of the tree.
 */
export function foldFormulas(nodes: Array<AriaNode | string>): void {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.role !== 'math' || !node.name) foldFormulas(node.children ?? []);
    else {
      node.text = node.name;
      delete node.children;
    }
  }
}
