/** `pnpm bench [retrieval] [answers] [crawl]`: those benchmarks (all without a name), each printing its tables measured in this run. */
import { answersBench } from './answers.bench';
import { formatTable, type Table } from './common';
import { crawlBench } from './crawl.bench';
import { retrievalBench } from './retrieval.bench';

const benches: Record<string, () => Promise<Table[]>> = { retrieval: retrievalBench, answers: answersBench, crawl: crawlBench };
const names = process.argv.slice(2).filter((arg) => arg !== '--');
const unknown = names.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`usage: pnpm bench [${Object.keys(benches).join('] [')}] (unknown: ${unknown.join(', ')})`);
  process.exit(names.includes('--help') ? 0 : 1);
}
for (const name of names.length > 0 ? names : Object.keys(benches)) {
  for (const table of await benches[name]!()) console.log(`${formatTable(table)}\n`);
}
