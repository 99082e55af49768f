import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir } from './durable-file';
import { SerialQueue } from './serial-queue';

export class CorruptLogError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(`${path}: line ${line} is not valid JSON and is not the last line (the file is corrupt, not just torn)`);
    this.name = 'CorruptLogError';
  }
}

/**
 * An append-only file of JSON records, one a line. `append` resolves only after the data is
 * fsynced. A crash in the middle of a write leaves at most one torn last line: `open` drops it
 * (and truncates the file there), so a record is either wholly in the log or not at all.
 */
export class JsonlLog<R> {
  private readonly writes = new SerialQueue();
  private closed = false;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private count: number,
  ) {}

  /** Opens (creating if needed) the log at `path` and returns it with the records it holds. */
  static async open<R>(path: string): Promise<{ log: JsonlLog<R>; records: R[] }> {
    await mkdir(dirname(path), { recursive: true });
    const existed = await stat(path).then(
      () => true,
      () => false,
    );
    const handle = await open(path, 'a+');
    try {
      const content = existed ? await handle.readFile() : Buffer.alloc(0);
      const { records, validLength } = parse<R>(content, path);
      if (validLength < content.length) {
        await handle.truncate(validLength);
        await handle.sync();
      }
      if (!existed) await fsyncDir(dirname(path));
      return { log: new JsonlLog<R>(path, handle, records.length), records };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** How many records the file holds (what compaction decisions look at). */
  get size(): number {
    return this.count;
  }

  /** Appends the records in one write and fsyncs. Appends are applied in call order. */
  append(records: R[]): Promise<void> {
    return this.writes.run(async () => {
      if (this.closed) throw new Error(`${this.path} is closed`);
      if (records.length === 0) return;
      const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
      await this.handle.write(text);
      await this.handle.datasync();
      this.count += records.length;
    });
  }

  /** Replaces the whole log with `records` (compaction), atomically. */
  rewrite(records: R[]): Promise<void> {
    return this.writes.run(async () => {
      if (this.closed) throw new Error(`${this.path} is closed`);
      const tmp = `${this.path}.compact.tmp`;
      const out = await open(tmp, 'w');
      try {
        const chunk: string[] = [];
        for (const record of records) {
          chunk.push(`${JSON.stringify(record)}\n`);
          if (chunk.length >= 1000) await out.write(chunk.splice(0).join(''));
        }
        if (chunk.length > 0) await out.write(chunk.join(''));
        await out.sync();
      } catch (error) {
        await out.close();
        await unlink(tmp).catch(() => undefined);
        throw error;
      }
      await out.close();
      await this.handle.close();
      await rename(tmp, this.path);
      await fsyncDir(dirname(this.path));
      this.handle = await open(this.path, 'a+');
      this.count = records.length;
    });
  }

  async close(): Promise<void> {
    await this.writes.run(async () => {
      if (this.closed) return;
      this.closed = true;
      await this.handle.close();
    });
  }
}

const NEWLINE = 0x0a;

const parse = <R>(content: Buffer, path: string): { records: R[]; validLength: number } => {
  const records: R[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < content.length) {
    const end = content.indexOf(NEWLINE, start);
    // No newline: the last write was torn.
    if (end === -1) return { records, validLength: start };
    lineNo += 1;
    const line = content.subarray(start, end).toString('utf8');
    if (line.trim() !== '') {
      try {
        records.push(JSON.parse(line) as R);
      } catch {
        if (end + 1 >= content.length) return { records, validLength: start };
        throw new CorruptLogError(path, lineNo);
      }
    }
    start = end + 1;
  }
  return { records, validLength: start };
};
