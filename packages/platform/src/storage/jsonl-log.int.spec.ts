import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptLogError, JsonlLog } from './jsonl-log';

type Rec = { n: number; text: string };

describe('JsonlLog', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-jsonl-'));
    path = join(dir, 'log.jsonl');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Reading goes a MiB at a time: these records straddle the chunk boundaries, one spans several.
  const records: Rec[] = [
    { n: 0, text: 'é'.repeat(700_000) },
    { n: 1, text: 'x'.repeat(3_500_000) },
    ...Array.from({ length: 2_000 }, (_, i) => ({ n: i + 2, text: `€${i}`.repeat(i % 50) })),
  ];

  it('reads back records larger than its read chunk and straddling them', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    await log.append(records.slice(0, 2));
    await log.append(records.slice(2));
    await log.close();

    const { log: reopened, records: read } = await JsonlLog.open<Rec>(path);
    expect(read).toEqual(records);
    expect(reopened.size).toBe(records.length);
    await reopened.close();
  });

  it('drops a torn last line that spans read chunks, and appends cleanly after it', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    await log.append(records.slice(0, 1));
    await log.close();
    await appendFile(path, `{"n":9,"text":"${'y'.repeat(2_500_000)}`);

    const { log: reopened, records: read } = await JsonlLog.open<Rec>(path);
    expect(read).toEqual(records.slice(0, 1));
    await reopened.append([{ n: 2, text: 'after' }]);
    await reopened.close();
    const { log: third, records: after } = await JsonlLog.open<Rec>(path);
    expect(after.map((r) => r.n)).toEqual([0, 2]);
    await third.close();
  });

  it('names the damaged line of a log corrupt before its last line', async () => {
    await writeFile(path, `{"n":1,"text":""}\n\n{"n":2,\n{"n":3,"text":""}\n`);
    const error = await JsonlLog.open<Rec>(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptLogError);
    expect((error as CorruptLogError).line).toBe(3);
  });

  it('rewrites the log from a lazily produced iterable', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    await log.append(records.slice(2, 12));
    function* live(): Generator<Rec> {
      for (const r of records.slice(5, 8)) yield r;
    }
    await log.rewrite(live());
    expect(log.size).toBe(3);
    await log.append([{ n: 99, text: 'after' }]);
    await log.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Rec).n)).toEqual([5, 6, 7, 99]);
  });
});
