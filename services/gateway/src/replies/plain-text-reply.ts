import type { TokenChunk } from '@palaver/contracts';
import type { FastifyReply } from 'fastify';
import { openStream } from '../http/open-stream';
import { collectCompletion } from './completion-result';
import type { ReplySource } from './send-reply';

/**
 * Surface B's answer to a chat message: the reply as a plain text stream (`streaming: true`) or
 * as one JSON string. A reply that fails before any text answers the error envelope with its
 * status; one that fails after text has been streamed ends the stream early (plain text has no
 * way to say more), and the stored message has status `error`.
 */
export const sendPlainTextReply = async (
  reply: FastifyReply,
  source: ReplySource,
  streaming: boolean,
  /** Called once the stream has opened (its first fragment was text). */
  onOpen?: () => void,
): Promise<void> => {
  if (!streaming) {
    const result = await collectCompletion(source.chunks());
    const text = result.steps[0]?.content.map((block) => block.text).join('') ?? '';
    await reply.status(200).type('application/json; charset=utf-8').send(JSON.stringify(text));
    return;
  }
  const chunks = source.chunks()[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) throw new Error('a reply ended without a terminal fragment');
  if (first.value.type === 'error') await collectCompletion(only(first.value));

  const stream = openStream(reply, {
    headers: (routeHeaders) => ({
      ...routeHeaders,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    }),
  });
  onOpen?.();
  try {
    let next: IteratorResult<TokenChunk> = first;
    while (!next.done && next.value.type === 'delta') {
      stream.raw.write(next.value.delta);
      next = await chunks.next();
    }
  } finally {
    await chunks.return?.(undefined);
    stream.end();
  }
};

async function* only(chunk: TokenChunk): AsyncGenerator<TokenChunk> {
  yield chunk;
}
