/** `pnpm bench [retrieval] [answers] [crawl]`: those benchmarks (all without a name), each printing its tables measured in this run. */
import { printAnswersBench } from './answers.bench';
import { printCrawlBench } from './crawl.bench';
import { printRetrievalBench } from './retrieval.bench';

const benches: Record<string, () => Promise<void>> = { retrieval: printRetrievalBench, answers: printAnswersBench, crawl: printCrawlBench };
const names = process.argv.slice(2).filter((arg) => arg !== '--');
const unknown = names.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`usage: pnpm bench [${Object.keys(benches).join('] [')}] (unknown: ${unknown.join(', ')})`);
  process.exit(names.includes('--help') ? 0 : 1);
}
for (const name of names.length > 0 ? names : Object.keys(benches)) await benches[name]!();
