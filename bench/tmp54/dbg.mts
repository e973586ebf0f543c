import { writeFileSync } from 'node:fs';
import { generatePdfs } from '../files-check/generate.ts';
import { readPdf } from '../../src/files/pdf.ts';
const files = await generatePdfs(7);
const f = files.find((x) => x.name.startsWith('long-lines'))!;
writeFileSync('/tmp/h54/long.pdf', f.body);
const r = await readPdf('/tmp/h54/long.pdf', 60000);
const want = f.pages![0]!.find((l) => l.startsWith('Interest at were was'))!;
const got = r.pages[0]!.find((l) => l.startsWith('Interest at were was'))!;
console.log(want.length, got?.length);
for (let i = 0; i < want.length; i++) if (want[i] !== got?.[i]) { console.log(i, JSON.stringify(want.slice(i - 20, i + 40)), JSON.stringify(got?.slice(i - 20, i + 40))); break; }
process.exit(0);
