/**
 * The layer check (`npm run deps`, .dependency-cruiser.cjs) refuses what it says it refuses: run on a small tree
 * laid out as src/ is (test/fixtures/layers), where one file enters loading/ and snapshot/ through their index and
 * another reaches past it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const rules = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));

describe('the layer check', () => {
  it('refuses a direct import into loading/ or snapshot/, and lets their index through', async () => {
    const { output } = await cruise(['src'], { baseDir: join(root, 'test/fixtures/layers'), validate: true, ruleSet: { forbidden: rules.forbidden }, tsPreCompilationDeps: true });
    const violations = typeof output === 'string' ? [] : output.summary.violations;
    const found = violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`).sort();
    expect(found).toEqual([
      'loading-through-its-index: src/session/direct.ts → src/loading/settle.ts',
      'snapshot-through-its-index: src/session/direct.ts → src/snapshot/lines.ts',
    ]);
  });
});
