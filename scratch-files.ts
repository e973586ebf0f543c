import { createTestToolset, call } from './test/helpers/toolset.js';
import { makeInvoicePdf, makePdf, serveFiles } from './test/helpers/files.js';
const invoice = await makeInvoicePdf({ number: 'INV-7', items: [['Widget', '2', '25.00'], ['Gadget', '1', '99.90']], total: '124.90 EUR' });
const long = await makePdf(Array.from({ length: 12 }, (_, p) => Array.from({ length: 40 }, (_, i) => `Page ${p + 1} line ${i + 1}: the quick brown fox jumps over the lazy dog`)), 'Long report');
const server = await serveFiles({
  '/': { type: 'text/html', body: '<title>Shop</title><a href="/invoice.pdf">Invoice</a> <a href="/orders.csv">Orders</a> <a href="/long.pdf">Report</a>' },
  '/invoice.pdf': { type: 'application/pdf', body: invoice },
  '/long.pdf': { type: 'application/pdf', body: long },
  '/orders.csv': { type: 'text/csv', body: 'id,name,amount\n1,"Smith, Ann",12.50\n2,Bob,7\n' },
  '/embed': { type: 'text/html', body: '<title>Embed</title><h1>Doc</h1><iframe src="/invoice.pdf"></iframe>' },
});
for (const chromium of ['system', 'bundled'] as const) {
  const t = createTestToolset({ chromium });
  console.log('=====', chromium);
  const nav = await call(t, 'browser_navigate', { url: server.url('/invoice.pdf') });
  console.log(JSON.stringify(nav, null, 1).slice(0, 1500));
  const r = await call(t, 'browser_read', { file: 'long.pdf' });
  console.log('read unknown', JSON.stringify(r).slice(0, 400));
  await call(t, 'browser_navigate', { url: server.url('/') });
  const snap = await call(t, 'browser_snapshot', {});
  const ref = /(\S+) link "Report"/.exec(snap.snapshot)![1];
  const click = await call(t, 'browser_click', { ref });
  console.log('click', JSON.stringify(click).slice(0, 800));
  const r2 = await call(t, 'browser_read', { file: 'long.pdf', page: 2 });
  console.log('read2', r2.page, r2.pages, r2.next, r2.tokens, r2.markdown.slice(0, 200));
  const csv = await call(t, 'browser_navigate', { url: server.url('/orders.csv') });
  console.log('csv', csv.file);
  const emb = await call(t, 'browser_navigate', { url: server.url('/embed') });
  console.log('embed', JSON.stringify(emb).slice(0, 600));
  const tabs = await call(t, 'browser_tabs', { action: 'list' });
  console.log(JSON.stringify(tabs).slice(0, 300));
  await t.close();
}
await server.close();
