import fs, { constants } from 'node:fs';
import { appendFile, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  /** The FileHandle prototype, whose datasync the log calls once per write. */
  const fileHandlePrototype = async () => {
    const handle = await open(join(dir, 'probe'), 'a');
    await handle.close();
    return Object.getPrototypeOf(handle) as { datasync(): Promise<void>; write(...args: unknown[]): Promise<unknown> };
  };

  it('with deferSync, answers appends before their fsync, writes them behind the answer and fsyncs them at sync() and on close', async () => {
    const prototype = await fileHandlePrototype();
    const datasync = vi.spyOn(prototype, 'datasync');
    const { log } = await JsonlLog.open<Rec>(path);
    log.deferSync = true;
    const answered = [log.append([{ n: 1, text: 'a' }]), log.append([{ n: 2, text: 'b' }])];
    expect(fs.readFileSync(path, 'utf8')).toBe(''); // the write follows the answer
    await Promise.all(answered);
    expect(datasync).not.toHaveBeenCalled();

    await log.sync();
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(2);
    expect(datasync).toHaveBeenCalledTimes(1);
    await log.sync();
    expect(datasync).toHaveBeenCalledTimes(1);

    await log.append([{ n: 3, text: 'c' }]);
    await log.close();
    expect(datasync).toHaveBeenCalledTimes(2);
    const { log: reopened, records } = await JsonlLog.open<Rec>(path);
    expect(records.map((r) => r.n)).toEqual([1, 2, 3]);
    await reopened.close();
  });

  it('with deferSync, writes the appends of one turn of the event loop together at its end, across awaits', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    log.deferSync = true;
    const writes = vi.spyOn(fs, 'writeSync');
    await log.append([{ n: 1, text: 'a' }]);
    await Promise.resolve();
    await log.append([{ n: 2, text: 'b' }]);
    await log.append([{ n: 3, text: 'c' }]);
    expect(writes).not.toHaveBeenCalled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveBeenCalledTimes(1);
    expect(
      fs
        .readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as Rec).n),
    ).toEqual([1, 2, 3]);

    await log.append([{ n: 4, text: 'd' }]);
    await log.close(); // what waits for the end of its turn is written (and fsynced) on close
    expect(writes).toHaveBeenCalledTimes(2);
    const { log: reopened, records } = await JsonlLog.open<Rec>(path);
    expect(records.map((r) => r.n)).toEqual([1, 2, 3, 4]);
    await reopened.close();
  });

  it('with deferSync, a write that failed behind the answer fails the next sync() and append', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    log.deferSync = true;
    vi.spyOn(fs, 'writeSync').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    await log.append([{ n: 1, text: 'a' }]);
    await expect(log.sync()).rejects.toThrow('disk full');
    await expect(log.append([{ n: 2, text: 'b' }])).rejects.toThrow('disk full');
    await log.close().catch(() => {});
  });

  it('writes concurrent appends together in one durable write, in call order', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    const prototype = await fileHandlePrototype();
    const writes = vi.spyOn(prototype, 'write');
    const datasync = vi.spyOn(prototype, 'datasync');
    await Promise.all(Array.from({ length: 100 }, (_, n) => log.append([{ n, text: 'x' }])));
    // The first append starts a write at once; the 99 made meanwhile share the next one.
    expect(writes.mock.calls.length).toBeLessThanOrEqual(2);
    expect(datasync.mock.calls.length).toBeLessThanOrEqual(2);
    await log.close();
    const { log: reopened, records: read } = await JsonlLog.open<Rec>(path);
    expect(read.map((r) => r.n)).toEqual(Array.from({ length: 100 }, (_, n) => n));
    await reopened.close();
  });

  it('resolves an append only once its durable write is done', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    const prototype = await fileHandlePrototype();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let writing = false;
    // Whichever way the platform makes it durable (an O_DSYNC write, or a write and an fdatasync).
    for (const method of ['write', 'datasync'] as const) {
      const real = prototype[method];
      vi.spyOn(prototype, method).mockImplementation(async function (this: unknown, ...args: unknown[]) {
        writing = true;
        await gate;
        return (real as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      } as never);
    }
    let durable = false;
    const appended = log.append([{ n: 1, text: 'a' }]).then(() => (durable = true));
    // The write has reached the disk call, which the gate holds: the append must wait for it.
    await vi.waitFor(() => expect(writing).toBe(true));
    expect(durable).toBe(false);
    expect(log.pending).toBe(true);
    release();
    await appended;
    expect(log.pending).toBe(false);
    await log.close();
  });

  it.skipIf(process.platform !== 'linux')(
    'appends durably through an O_DSYNC descriptor, and deferred appends through one without, on the calling thread',
    async () => {
      const prototype = await fileHandlePrototype();
      const used: number[] = [];
      const write = prototype.write;
      vi.spyOn(prototype, 'write').mockImplementation(async function (this: { fd: number }, ...args: unknown[]) {
        used.push(this.fd);
        return write.apply(this, args);
      });
      // Deferred appends go to the page cache on the event loop's thread.
      const writeSync = fs.writeSync;
      vi.spyOn(fs, 'writeSync').mockImplementation((fd: number, ...args: unknown[]) => {
        used.push(fd);
        return (writeSync as (...a: unknown[]) => number)(fd, ...args);
      });
      const dsync = async (fd: number) => {
        const flags = /flags:\s*(\d+)/.exec(await readFile(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!;
        return (Number.parseInt(flags, 8) & constants.O_DSYNC) !== 0;
      };
      const { log } = await JsonlLog.open<Rec>(path);
      await log.append([{ n: 1, text: 'durable' }]);
      expect(await dsync(used.at(-1)!)).toBe(true);
      log.deferSync = true;
      await log.append([{ n: 2, text: 'deferred' }]);
      await log.sync();
      expect(await dsync(used.at(-1)!)).toBe(false);
      await log.close();
    },
  );

  it('fails every waiting and later append once a write fails, so nothing unwritten is taken as durable', async () => {
    const { log } = await JsonlLog.open<Rec>(path);
    const disk = new Error('EIO: i/o error');
    const prototype = await fileHandlePrototype();
    const real = prototype.write;
    vi.spyOn(prototype, 'write').mockImplementationOnce(async () => {
      throw disk;
    });
    const first = log.append([{ n: 1, text: 'a' }]);
    const second = log.append([{ n: 2, text: 'b' }]);
    await expect(first).rejects.toBe(disk);
    await expect(second).rejects.toBe(disk);
    vi.spyOn(prototype, 'write').mockImplementation(real);
    await expect(log.append([{ n: 3, text: 'c' }])).rejects.toBe(disk);
    await expect(log.durable()).rejects.toBe(disk);
    await log.close();
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
