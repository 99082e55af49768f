/** `pnpm bench`: every benchmark, each printing its table of numbers and ratios measured in this run. */
import { printAnswersBench } from './answers.bench';
import { printCrawlBench } from './crawl.bench';
import { printRetrievalBench } from './retrieval.bench';

await printRetrievalBench();
await printAnswersBench();
await printCrawlBench();
