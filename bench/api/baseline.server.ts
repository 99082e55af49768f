/**
 * The baseline for `pnpm bench:api`: bare Fastify answering the same shapes as the product (the
 * bodies the product gave in this run, passed in BENCH_SHAPES) and streaming the same instant
 * model through the same AI SDK encoder, with nothing in between.
 */
import { randomUUID } from 'node:crypto';
import { pipeUIMessageStreamToResponse, type UIMessageChunk } from 'ai';
import Fastify from 'fastify';
import { InstantChatModel } from './instant.chat-model';

const shapes = JSON.parse(process.env.BENCH_SHAPES ?? '{}') as { conversations: unknown; init: unknown };
const model = new InstantChatModel();
const app = Fastify({ logger: false });

app.get('/v2/conversations', async () => shapes.conversations);
app.post('/v2/identity/init', async () => shapes.init);

app.post('/v2/conversations/:conversationId/messages', async (request, reply) => {
  const body = request.body as { content: string; stream?: boolean };
  const chunks = model.stream({ model: null, messages: [{ role: 'user', content: body.content }], grounding: { qnas: [], chunks: [] } });
  if (!body.stream) {
    let text = '';
    for await (const chunk of chunks) {
      if (chunk.type === 'delta') text += chunk.delta;
      else if (chunk.type === 'finish')
        return { steps: [{ content: [{ type: 'text', text }], finishReason: chunk.finishReason, usage: chunk.usage }] };
    }
  }
  const id = randomUUID();
  const stream = new ReadableStream<UIMessageChunk>({
    async start(controller) {
      controller.enqueue({ type: 'start' });
      controller.enqueue({ type: 'start-step' });
      controller.enqueue({ type: 'text-start', id, providerMetadata: { palaver: { messageId: id } } });
      for await (const chunk of chunks) {
        if (chunk.type === 'delta') controller.enqueue({ type: 'text-delta', id, delta: chunk.delta });
      }
      controller.enqueue({ type: 'text-end', id });
      controller.enqueue({ type: 'finish-step' });
      controller.enqueue({ type: 'finish' });
      controller.close();
    },
  });
  reply.hijack();
  pipeUIMessageStreamToResponse({ response: reply.raw, stream, status: 200 });
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ cmd: 'ready', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'close') void app.close().finally(() => process.exit(0));
});
