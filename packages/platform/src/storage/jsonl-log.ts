import fs, { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir } from './durable-file';
import { SerialQueue } from './serial-queue';

const READ_CHUNK = 1 << 20;
const WRITE_CHUNK = 1 << 20;

/**
 * Durable appends go through a descriptor opened with O_DSYNC where the platform has it: each
 * write then returns once its data is on disk, as a write and an fdatasync would, in one system
 * call and one trip through the thread pool instead of two.
 */
const DURABLE_APPEND_FLAGS =
  constants.O_DSYNC === undefined ? null : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC;

/**
 * Writes to the page cache on the calling thread. A deferred-sync append waits for no disk, and a
 * write through the thread pool costs the event loop more in hand-offs than the system call
 * itself (a read model's log is written several times per chat message). Loops
 * over short writes, which a regular file only makes on a full disk or a signal.
 */
const writeAll = (fd: number, text: string): void => {
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written);
};

export class CorruptLogError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(`${path} is corrupt at line ${line}: it is not valid JSON and not the last line (so not just a torn write)`);
    this.name = 'CorruptLogError';
  }
}

/** Appends waiting for the next write: they share its one write and one fsync. */
interface Batch {
  text: string[];
  count: number;
  durable: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * An append-only file of JSON records, one a line. `append` resolves only after the data is
 * fsynced. A crash in the middle of a write leaves at most one torn last line: `open` drops it
 * (and truncates the file there), so a record is either wholly in the log or not at all.
 *
 * Group commit: appends made while a write is in progress wait together for the next one, which
 * writes them all at once and fsyncs once; each resolves only when that fsync is done. So callers
 * may append without waiting for the appends before them (the order of calls is the order in the
 * file), and a burst of N concurrent appends costs about two fsyncs instead of N.
 *
 * A failed write or fsync leaves the file's state unknown to the callers that already moved on,
 * so the log fails for good: every pending and later append (and `durable()`) rejects with that
 * error, and the process must be restarted (the file is then read back as it really is).
 */
export class JsonlLog<R> {
  /**
   * For a log whose records can be rebuilt from elsewhere: an append is answered at once, written
   * behind the answer (in call order, as every append) and fsynced by the next `sync()`, so a
   * crash may take back what was appended since the last `sync()` resolved. A failed write still
   * fails the log for good: the next append and `sync()` reject.
   */
  deferSync = false;
  private unsynced = false;
  /** The O_DSYNC descriptor of durable appends, opened at the first one (see DURABLE_APPEND_FLAGS). */
  private durableHandle: FileHandle | null = null;
  private readonly writes = new SerialQueue();
  private closed = false;
  /** Appends not yet taken by a write. */
  private batch: Batch | null = null;
  /** Durability of the last append made (null once it is durable). */
  private last: Promise<void> | null = null;
  private failure: unknown = null;

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

  /**
   * Queues the records (in call order, at once) and resolves when they are written and fsynced,
   * together with whatever else was appended meanwhile (with `deferSync`: at once).
   */
  append(records: R[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    if (this.failure !== null) return Promise.reject(this.failure);
    if (records.length === 0) return this.durable();
    let batch = this.batch;
    if (!batch) {
      batch = newBatch();
      this.batch = batch;
      if (this.deferSync) {
        batch.durable.catch(() => {}); // its failure surfaces at the next append or sync()
        // Behind the answer: written at the end of the turn of the event loop, with every append
        // the turn makes (a message's projections append a few times each).
        setImmediate(this.flushDeferred);
      } else {
        this.last = batch.durable;
        void this.writes.run(() => this.flush());
      }
    }
    for (const record of records) batch.text.push(`${JSON.stringify(record)}\n`);
    batch.count += records.length;
    return this.deferSync ? RESOLVED : batch.durable;
  }

  /** Resolves once every append made so far is durable (at once when none is pending). */
  durable(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return this.last ?? RESOLVED;
  }

  /** Fsyncs what was written with `deferSync` (every append made before the call). */
  sync(): Promise<void> {
    return this.writes.run(async () => {
      await this.flush(); // appends still waiting for the end of their turn
      if (this.failure !== null) throw this.failure;
      if (!this.unsynced || this.closed) return;
      try {
        await this.handle.datasync();
        this.unsynced = false;
      } catch (error) {
        this.failure ??= error;
        throw error;
      }
    });
  }

  /** Whether an append is still waiting for its fsync (readers then wait with `durable()`). */
  get pending(): boolean {
    return this.last !== null;
  }

  private readonly flushDeferred = (): void => void this.writes.run(() => this.flush());

  private async flush(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    try {
      if (this.failure !== null) throw this.failure;
      const text = batch.text.join('');
      if (this.deferSync) {
        writeAll(this.handle.fd, text);
        this.unsynced = true;
      } else if (DURABLE_APPEND_FLAGS !== null) {
        this.durableHandle ??= await open(this.path, DURABLE_APPEND_FLAGS);
        await this.durableHandle.write(text);
      } else {
        await this.handle.write(text);
        await this.handle.datasync();
        this.unsynced = false;
      }
      this.count += batch.count;
    } catch (error) {
      this.failure ??= error;
      batch.reject(this.failure);
      return;
    }
    if (this.last === batch.durable) this.last = null;
    batch.resolve();
  }

  /**
   * Replaces the whole log with `records` (compaction), atomically. They are serialized as they
   * are written, so an iterable can produce them lazily; it must not change while it is read.
   * Appends queued before the call are written first; appends made after it may already be
   * reflected in `records` and are written after it again, so records must be idempotent
   * (a put, a delete, a set to a value), as every log that compacts has.
   */
  rewrite(records: Iterable<R>): Promise<void> {
    return this.writes.run(async () => {
      if (this.closed) throw new Error(`${this.path} is closed`);
      await this.flush(); // appends still waiting for the end of their turn go first
      if (this.failure !== null) throw this.failure;
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
      await this.closeDurableHandle();
      await rename(tmp, this.path);
      await fsyncDir(dirname(this.path));
      this.handle = await open(this.path, 'a+');
      this.count = count;
      this.unsynced = false;
    });
  }

  async close(): Promise<void> {
    await this.writes.run(async () => {
      if (this.closed) return;
      await this.flush(); // appends still waiting for the end of their turn
      this.closed = true;
      if (this.unsynced && this.failure === null) await this.handle.datasync();
      await this.handle.close();
      await this.closeDurableHandle();
    });
  }

  /** Dropped when the file is replaced (its descriptor would point at the old one), and on close. */
  private async closeDurableHandle(): Promise<void> {
    const handle = this.durableHandle;
    this.durableHandle = null;
    await handle?.close();
  }
}

const RESOLVED = Promise.resolve();

const newBatch = (): Batch => {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const durable = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch whose appenders all went away must not become an unhandled rejection.
  durable.catch(() => undefined);
  return { text: [], count: 0, durable, resolve, reject };
};

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
