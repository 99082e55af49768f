import { isCrawling, pagesDone } from '../lib/sources';
import type { Source } from '../lib/types';

/**
 * How far the crawl is: pages with an outcome out of pages found. A div with role=progressbar
 * (not <progress>) so screen readers get the counts as its value text, not only a percentage.
 */
export const SourceProgress = ({ source }: { source: Source }) => {
  const { found, indexed, unchanged, failed, skipped } = source.pages;
  const done = pagesDone(source);
  const crawling = isCrawling(source);
  const percent = found === 0 ? (crawling ? 0 : 100) : Math.min(100, Math.round((done / found) * 100));
  return (
    <div class="source-progress">
      <div
        class="meter"
        role="progressbar"
        aria-label={`Crawl of ${source.url}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${done} of ${found} pages${crawling ? '' : ', done'}`}
        data-state={crawling ? 'crawling' : 'done'}
      >
        <span class="meter-fill" style={{ width: `${percent}%` }} />
      </div>
      <span class="muted small">
        {done} / {found} pages · {indexed} indexed · {unchanged} unchanged · {failed} failed · {skipped} skipped
      </span>
    </div>
  );
};
