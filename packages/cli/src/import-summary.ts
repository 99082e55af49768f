import type { ImportItem, ImportSources, SourceProblem } from '@palaver/knowledge-formats';
import type { ImportReport } from './importer';

const countKinds = (items: readonly ImportItem[]): string => {
  const documents = items.filter((item) => item.kind === 'document').length;
  return `${documents} document${documents === 1 ? '' : 's'}, ${items.length - documents} Q&A`;
};

const describeItem = (item: ImportItem): string =>
  `${item.source} (${item.kind === 'document' ? item.body.title : item.body.question.slice(0, 80)})`;

const problemLines = (heading: string, problems: readonly SourceProblem[]): string[] =>
  problems.length ? [heading, ...problems.map((p) => `  ${p.source}: ${p.reason}`)] : [];

/** Inputs that were set aside: empty files, and invalid lines when they are skipped. */
export const skippedOf = (sources: ImportSources, skipInvalid: boolean): SourceProblem[] => [
  ...sources.skipped,
  ...(skipInvalid ? sources.invalid.map((p) => ({ source: p.source, reason: `invalid: ${p.reason}` })) : []),
];

export const invalidReport = (sources: ImportSources): string =>
  problemLines(
    `${sources.invalid.length} invalid input(s); nothing was imported (--skip-invalid imports the valid ones):`,
    sources.invalid,
  ).join('\n');

export const dryRunReport = (sources: ImportSources, skipInvalid: boolean): string => {
  const skipped = skippedOf(sources, skipInvalid);
  return [
    ...sources.items.map((item) =>
      item.kind === 'document' ? `  document  ${describeItem(item)} -> ${item.body.url}` : `  Q&A       ${describeItem(item)}`,
    ),
    ...problemLines('Skipped:', skipped),
    `Dry run: would import ${sources.items.length} (${countKinds(sources.items)}), skipped ${skipped.length}; nothing was sent`,
  ].join('\n');
};

/** The final report; its last line is the one-line summary. */
export const importReport = (report: ImportReport, skipped: readonly SourceProblem[]): string => {
  const failed = report.failed.map(({ item, reason }) => ({ source: describeItem(item), reason }));
  const interrupted = report.interrupted.length ? `, interrupted ${report.interrupted.length} (not imported)` : '';
  return [
    ...problemLines('Skipped:', skipped),
    ...problemLines('Failed:', failed),
    `Summary: imported ${report.imported.length} (${countKinds(report.imported.map((i) => i.item))}), skipped ${skipped.length}, failed ${report.failed.length}${interrupted}`,
  ].join('\n');
};
