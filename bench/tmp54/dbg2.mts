import { readPdf } from '../../src/files/pdf.ts';
const r = await readPdf('/tmp/h54/real/libtasn1.pdf', 60000);
for (const [p, re] of [[2, /Copyright/], [3, /Documentation License/], [35, /Header file/]] as const) for (const l of r.pages[p - 1]!.filter((l) => re.test(l))) console.log(p, JSON.stringify(l));
const s = await readPdf('/tmp/h54/real/shared-mime-info-spec.pdf', 60000);
for (const l of s.pages[5]!.filter((l) => /verskille/.test(l))) console.log(6, JSON.stringify(l), [...l].map(c=>c.charCodeAt(0)>127?c.charCodeAt(0).toString(16):'').join(''));
process.exit(0);
