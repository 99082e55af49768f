/**
 * The baseline for `pnpm bench:api`: bare Fastify answering the same shapes as the product (the
 * bodies the product gave in this run, passed in BENCH_SHAPES) and streaming the same instant
 * model through the gateway's own encoder of the AI SDK stream, with nothing in between.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { pipeUiMessageStream } from '../../services/gateway/src/replies/ui-message-stream';
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
  async function* uiChunks() {
    yield { type: 'start' } as const;
    yield { type: 'start-step' } as const;
    yield { type: 'text-start', id, providerMetadata: { palaver: { messageId: id } } } as const;
    for await (const chunk of chunks) {
      if (chunk.type === 'delta') yield { type: 'text-delta', id, delta: chunk.delta } as const;
    }
    yield { type: 'text-end', id } as const;
    yield { type: 'finish-step' } as const;
    yield { type: 'finish' } as const;
  }
  reply.hijack();
  pipeUiMessageStream(reply.raw, uiChunks(), {});
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ cmd: 'ready', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'close') void app.close().finally(() => process.exit(0));
});
