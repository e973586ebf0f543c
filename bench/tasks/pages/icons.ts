/**
 * Icon-only controls inside rows: a trash icon span in a clickable email row, star and trash buttons that
 * hold only an SVG, × buttons on tags, and title-only download links in a table. The icons are drawn with
 * CSS or SVG, so no icon font character leaks into the text.
 */
import { CITIES, WORDS, capitalize, people, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface InboxSpec {
  senders: string[];
  subjects: string[];
  target: number;
}

function generateInbox(rng: Rng): InboxSpec {
  const senders = people(rng, rng.int(4, 6));
  return {
    senders,
    subjects: senders.map(() => `${capitalize(rng.pick(WORDS))} ${rng.pick(['update', 'invoice', 'plans', 'photos', 'question'])}`),
    target: rng.int(0, senders.length - 1),
  };
}

const SVG_DEFS = `<svg width="0" height="0" style="position:absolute"><defs>
<symbol id="i-star" viewBox="0 0 20 20"><path d="M10 1l2.6 6 6.4.5-4.9 4.2 1.5 6.3L10 14.7 4.4 18l1.5-6.3L1 7.5l6.4-.5z"/></symbol>
<symbol id="i-trash" viewBox="0 0 20 20"><path d="M3 5h14M8 5V3h4v2M5 5l1 13h8l1-13"/></symbol>
<symbol id="i-download" viewBox="0 0 20 20"><path d="M10 2v11M5 9l5 5 5-5M3 18h14"/></symbol>
</defs></svg>`;

const ROW_STYLE = `.row { display: flex; gap: 12px; align-items: center; padding: 6px 8px; border-bottom: 1px solid #ddd; }
.row .from { width: 160px; font-weight: bold; } .row .subject { flex: 1; }
.icon { display: inline-block; width: 16px; height: 16px; }
.icon-star { background: radial-gradient(circle, #fc0 40%, transparent 42%); } .icon-trash { background: linear-gradient(#777, #777) center / 10px 12px no-repeat; }
.icon-archive { background: linear-gradient(#999, #999) center / 14px 8px no-repeat; }
button.ico { border: none; background: none; padding: 2px; } button.ico svg { width: 16px; height: 16px; fill: #888; stroke: #555; }`;

const trashSpan: TaskDef<InboxSpec> = {
  id: 'email-trash-icon',
  category: 'icons',
  policy: 'rowIcon',
  summary: 'inbox rows (clickable <div>s) with three CSS-drawn icon <span>s bound by script; delete one row',
  generate: generateInbox,
  render: (spec, { episode }) =>
    shell({
      title: 'Inbox',
      episode,
      instruction: `Delete the email from ${spec.senders[spec.target]}.`,
      body: `<div id="inbox">${spec.senders
        .map(
          (s, i) =>
            `<div class="row" data-i="${i}"><span class="from">${esc(s)}</span><span class="subject">${esc(spec.subjects[i]!)}</span><span class="icon icon-star" data-act="star"></span><span class="icon icon-archive" data-act="archive"></span><span class="icon icon-trash" data-act="delete"></span></div>`,
        )
        .join('')}</div><div id="preview"></div>`,
      style: ROW_STYLE,
      script: `const senders = ${js(spec.senders)};
$$('.row').forEach((row) => row.addEventListener('click', () => ($('#preview').textContent = 'Opened: ' + row.querySelector('.subject').textContent)));
$$('.icon').forEach((icon) => icon.addEventListener('click', (e) => {
  e.stopPropagation();
  const i = Number(icon.closest('.row').dataset.i);
  report(icon.dataset.act === 'delete' && i === ${spec.target}, icon.dataset.act + ' on the email from ' + senders[i]);
}));`,
    }),
};

const starSvg: TaskDef<InboxSpec> = {
  id: 'email-star-svg',
  category: 'icons',
  policy: 'rowIcon',
  summary: 'star and trash <button>s holding only an SVG <use> (no text, no label); star one row',
  generate: generateInbox,
  render: (spec, { episode }) =>
    shell({
      title: 'Inbox',
      episode,
      instruction: `Star the email from ${spec.senders[spec.target]}.`,
      body: `${SVG_DEFS}<div id="inbox">${spec.senders
        .map(
          (s, i) =>
            `<div class="row" data-i="${i}"><button class="ico star" data-act="star"><svg><use href="#i-star"/></svg></button><span class="from">${esc(s)}</span><span class="subject">${esc(spec.subjects[i]!)}</span><button class="ico trash" data-act="delete"><svg><use href="#i-trash"/></svg></button></div>`,
        )
        .join('')}</div>`,
      style: ROW_STYLE,
      script: `const senders = ${js(spec.senders)};
$$('button.ico').forEach((button) => button.addEventListener('click', () => {
  const i = Number(button.closest('.row').dataset.i);
  report(button.dataset.act === 'star' && i === ${spec.target}, button.dataset.act + ' on the email from ' + senders[i]);
}));`,
    }),
};

interface TagsSpec {
  tags: string[];
  target: number;
}

const tagRemove: TaskDef<TagsSpec> = {
  id: 'tag-remove-x',
  category: 'icons',
  policy: 'rowIcon',
  summary: 'tags with a × button each (the only text is "×")',
  generate: (rng) => {
    const tags = rng.sample(CITIES, rng.int(5, 7));
    return { tags, target: rng.int(0, tags.length - 1) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Tags',
      episode,
      instruction: `Remove the tag "${spec.tags[spec.target]}".`,
      body: `<div class="tags">${spec.tags.map((t, i) => `<span class="tag" data-i="${i}">${esc(t)}<button class="x">×</button></span>`).join(' ')}</div>`,
      style: '.tag { display: inline-block; background: #e4ecf7; border-radius: 10px; padding: 2px 4px 2px 10px; margin: 3px; } .tag .x { border: none; background: none; }',
      script: `const tags = ${js(spec.tags)};
$$('.tag .x').forEach((x) => x.addEventListener('click', () => {
  const i = Number(x.closest('.tag').dataset.i);
  report(i === ${spec.target}, 'removed ' + tags[i]);
}));`,
    }),
};

interface ReportsSpec {
  reports: string[];
  dates: string[];
  target: number;
}

const downloadTitle: TaskDef<ReportsSpec> = {
  id: 'table-download-title',
  category: 'icons',
  policy: 'rowIcon',
  summary: 'a table of reports; each row has download and delete links named only by their title attribute',
  generate: (rng) => {
    const reports = rng.sample(WORDS, rng.int(4, 6)).map((w) => `${capitalize(w)} report ${rng.int(2019, 2025)}`);
    return { reports, dates: reports.map(() => `2025-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`), target: rng.int(0, reports.length - 1) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Reports',
      episode,
      instruction: `Download the report "${spec.reports[spec.target]}".`,
      body: `${SVG_DEFS}<table><thead><tr><th>Report</th><th>Date</th><th></th></tr></thead><tbody>${spec.reports
        .map(
          (r, i) =>
            `<tr data-i="${i}"><td>${esc(r)}</td><td>${spec.dates[i]}</td><td><a href="#" class="act" data-act="download" title="Download"><svg width="16" height="16"><use href="#i-download"/></svg></a> <a href="#" class="act" data-act="delete" title="Delete"><svg width="16" height="16"><use href="#i-trash"/></svg></a></td></tr>`,
        )
        .join('')}</tbody></table>`,
      style: 'a.act svg { fill: none; stroke: #333; }',
      script: `const reports = ${js(spec.reports)};
$$('a.act').forEach((a) => a.addEventListener('click', (e) => {
  e.preventDefault();
  const i = Number(a.closest('tr').dataset.i);
  report(a.dataset.act === 'download' && i === ${spec.target}, a.dataset.act + ' ' + reports[i]);
}));`,
    }),
};

export const ICON_TASKS: TaskDef[] = [trashSpan, starSvg, tagRemove, downloadTitle];
