import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * The serious and critical findings of axe-core on the page as it is now, one line a node. `context`
 * limits the run (axe's `include` / `exclude`), e.g. `{ include: [['palaver-widget']] }`.
 */
export const seriousViolations = async (page: Page, context?: { include?: string[][]; exclude?: string[][] }): Promise<string[]> => {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(async (limit) => {
    const axe = (window as unknown as { axe: { run(...args: unknown[]): Promise<{ violations: AxeViolation[] }> } }).axe;
    const options = { resultTypes: ['violations'] };
    return (await (limit ? axe.run(limit, options) : axe.run(options))).violations;
  }, context ?? null);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}): ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`));
};
