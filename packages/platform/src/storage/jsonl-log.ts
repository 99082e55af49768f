import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir } from './durable-file';
import { SerialQueue } from './serial-queue';

const READ_CHUNK = 1 << 20;
const WRITE_CHUNK = 1 << 20;

export class CorruptLogError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(`${path} is corrupt at line ${line}: it is not valid JSON and not the last line (so not just a torn write)`);
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
      const { records, validLength, size } = await readRecords<R>(handle, path);
      if (validLength < size) {
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

  /**
   * Replaces the whole log with `records` (compaction), atomically. They are serialized as they
   * are written, so an iterable can produce them lazily; it must not change while it is read.
   */
  rewrite(records: Iterable<R>): Promise<void> {
    return this.writes.run(async () => {
      if (this.closed) throw new Error(`${this.path} is closed`);
      const tmp = `${this.path}.compact.tmp`;
      const out = await open(tmp, 'w');
      let count = 0;
      try {
        // Written in pieces of about WRITE_CHUNK characters, whatever the size of a record.
        let chunk: string[] = [];
        let chars = 0;
        for (const record of records) {
          count += 1;
          const line = `${JSON.stringify(record)}\n`;
          chunk.push(line);
          chars += line.length;
          if (chars >= WRITE_CHUNK) {
            await out.write(chunk.join(''));
            chunk = [];
            chars = 0;
          }
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
      this.count = count;
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

/**
 * Reads the log a chunk at a time (so it may outgrow the largest Buffer or string) and returns
 * its records and the length of its valid part: everything but a torn last line.
 */
const readRecords = async <R>(handle: FileHandle, path: string): Promise<{ records: R[]; validLength: number; size: number }> => {
  const { size } = await handle.stat();
  const records: R[] = [];
  const buffer = Buffer.alloc(Math.min(READ_CHUNK, size));
  /** The start of a line that continues in the next chunk (copied: the buffer is reused). */
  let partial: Buffer[] = [];
  /** File position where the current line starts. */
  let lineStart = 0;
  let lineNo = 0;
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    for (let end = chunk.indexOf(NEWLINE, from); end !== -1; end = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, end);
      const line = (partial.length > 0 ? Buffer.concat([...partial, piece]) : piece).toString('utf8');
      partial = [];
      lineNo += 1;
      const next = position + end + 1;
      if (line.trim() !== '') {
        try {
          records.push(JSON.parse(line) as R);
        } catch {
          if (next >= size) return { records, validLength: lineStart, size };
          throw new CorruptLogError(path, lineNo);
        }
      }
      lineStart = next;
      from = end + 1;
    }
    if (from < chunk.length) partial.push(Buffer.from(chunk.subarray(from)));
    position += bytesRead;
  }
  // Bytes after the last newline: the last write was torn.
  return { records, validLength: lineStart, size };
};
