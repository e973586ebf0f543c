import { startServer } from './test/helpers/server.js';
import { call, createTestToolset } from './test/helpers/toolset.js';
const server = await startServer();
const b = createTestToolset();
await call(b, 'browser_navigate', { url: server.url('/corpus/' + process.argv[2]), waitUntil: 'domcontentloaded' });
const r = await call(b, 'browser_snapshot', {});
console.log(r.snapshot, r.tokens, r.refs);
await b.close(); await server.close();
