import type { ChatMessage, Retrieval, Usage } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk } from './chat-model.port';
import { DONT_KNOW_ANSWER } from './grounded-answer';
import { LocalResponder } from './local.chat-model';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const knowledge: Retrieval = {
  qnas: [
    {
      id: uuid(1),
      question: 'What are your opening hours?',
      answer: 'We are open Monday to Friday, 9am to 6pm, and Saturday 10am to 2pm.',
      score: 0.93,
    },
    { id: uuid(2), question: 'Do you ship abroad?', answer: 'Yes, we ship to 30 countries.', score: 0.41 },
  ],
  chunks: [],
};

const shippingDoc: Retrieval = {
  qnas: [{ id: uuid(2), question: 'Do you ship abroad?', answer: 'Yes, we ship to 30 countries.', score: 0.35 }],
  chunks: [
    {
      documentId: uuid(10),
      title: 'Returns policy',
      url: 'https://shop.example/returns',
      content:
        'Our shop values every customer. Returns are accepted within 30 days of delivery. ' +
        'Refunds are paid to the original payment method within 5 business days. Gift cards cannot be refunded.',
      score: 0.62,
    },
    {
      documentId: uuid(11),
      title: 'About us',
      url: 'https://shop.example/about',
      content: 'We started in 2012 in a small garage.',
      score: 0.05,
    },
  ],
};

const ask = (question: string, grounding: Retrieval, history: ChatMessage[] = []): ChatRequest => ({
  model: null,
  messages: [{ role: 'system', content: 'Be brief.' }, ...history, { role: 'user', content: question }],
  grounding,
});

const run = async (responder: LocalResponder, request: ChatRequest) => {
  const chunks: ModelChunk[] = [];
  for await (const chunk of responder.stream(request)) chunks.push(chunk);
  const deltas = chunks.flatMap((c) => (c.type === 'delta' ? [c.delta] : []));
  const finish = chunks.at(-1);
  if (finish?.type !== 'finish') throw new Error('the stream did not end with a finish chunk');
  return { deltas, text: deltas.join(''), finish, chunks };
};

describe('LocalResponder', () => {
  it('answers a confident Q&A match with the stored answer', async () => {
    const { text, finish } = await run(new LocalResponder(), ask('What are your opening hours?', knowledge));
    expect(text).toBe('We are open Monday to Friday, 9am to 6pm, and Saturday 10am to 2pm.');
    expect(finish.finishReason).toBe('stop');
  });

  it('does not use a Q&A entry below the confidence threshold', async () => {
    const { text } = await run(new LocalResponder(), ask('Can I return a gift card?', shippingDoc));
    expect(text).not.toContain('30 countries');
  });

  it('answers from the most relevant sentences of a matching document, citing the page', async () => {
    const { text, chunks } = await run(new LocalResponder(), ask('How long do refunds take to be paid?', shippingDoc));
    expect(text).toContain('Refunds are paid to the original payment method within 5 business days.');
    expect(text).not.toContain('Our shop values every customer.');
    expect(text).not.toContain('garage');
    // Cited once: in the reply's sources, not again in its text.
    expect(text).not.toMatch(/Source|shop\.example/);
    expect(chunks[0]).toEqual({ type: 'sources', sources: [{ title: 'Returns policy', url: 'https://shop.example/returns' }] });
  });

  it('keeps the chosen sentences in their original order', async () => {
    const { text } = await run(new LocalResponder(), ask('Are gift cards accepted for returns?', shippingDoc));
    const returns = text.indexOf('Returns are accepted');
    const giftCards = text.indexOf('Gift cards cannot be refunded');
    expect(returns).toBeGreaterThanOrEqual(0);
    expect(giftCards).toBeGreaterThan(returns);
  });

  it('says plainly that it does not know when nothing relevant was retrieved', async () => {
    const { text } = await run(new LocalResponder(), ask('Do you sell bicycles?', { qnas: [], chunks: [] }));
    expect(text).toBe(DONT_KNOW_ANSWER);
    expect(text).toMatch(/don't know/);
    expect(text).toMatch(/contact/);
  });

  it('does not answer from a similar chunk that shares no word with the question', async () => {
    const { text } = await run(new LocalResponder(), ask('Where is your warehouse located?', shippingDoc));
    expect(text).toBe(DONT_KNOW_ANSWER);
  });

  it('ignores chunks below the document threshold', async () => {
    const { text } = await run(new LocalResponder(), ask('When did you start in the garage?', shippingDoc));
    expect(text).toBe(DONT_KNOW_ANSWER);
    const lenient = await run(new LocalResponder({ chunkThreshold: 0.05 }), ask('When did you start in the garage?', shippingDoc));
    expect(lenient.text).toContain('We started in 2012 in a small garage.');
  });

  it('answers from a page whose title holds the question ("How can I pay?" on the Payment page), with its first sentences', async () => {
    const payment: Retrieval = {
      qnas: [],
      chunks: [
        {
          documentId: uuid(20),
          title: 'Payment',
          url: 'https://shop.example/payment',
          content: 'We accept credit cards, PayPal and bank transfer. Invoices are sent by email. Prices include VAT.',
          score: 0.3,
        },
      ],
    };
    const { text, chunks } = await run(new LocalResponder(), ask('How can I pay?', payment));
    expect(text).toBe('We accept credit cards, PayPal and bank transfer. Invoices are sent by email.');
    expect(chunks[0]).toEqual({ type: 'sources', sources: [{ title: 'Payment', url: 'https://shop.example/payment' }] });
  });

  it("answers a question about a named product's warranty from the warranty page, not the product page", async () => {
    const product = {
      documentId: uuid(21),
      title: 'Aurora X2 Headphones',
      url: 'https://shop.example/aurora-x2',
      content: 'Wireless noise-cancelling headphones with 30 hours of battery life.',
      score: 0.7,
      productId: 'AX2',
    };
    const warranty = {
      documentId: uuid(22),
      title: 'Warranty',
      url: 'https://shop.example/warranty',
      content: 'Every electronic product comes with a two year warranty covering manufacturing defects.',
      score: 0.12,
    };
    const grounding: Retrieval = { qnas: [], chunks: [product, warranty] };
    const asked = await run(new LocalResponder(), ask('What is the warranty on the Aurora X2 headphones?', grounding));
    expect(asked.text).toMatch(/^Every electronic product comes with a two year warranty/);
    expect(asked.chunks[0]).toEqual({ type: 'sources', sources: [{ title: 'Warranty', url: 'https://shop.example/warranty' }] });
    const battery = await run(new LocalResponder(), ask('How long does the battery of the Aurora X2 last?', grounding));
    expect(battery.text).toMatch(/^Wireless noise-cancelling headphones with 30 hours of battery life\./);
  });

  it('answers with a Q&A entry below the verbatim threshold when it holds the question, and cites no page', async () => {
    const { text, chunks } = await run(
      new LocalResponder(),
      ask('What time do you open on Saturday?', { ...knowledge, qnas: [{ ...knowledge.qnas[0]!, score: 0.5 }] }),
    );
    expect(text).toBe('We are open Monday to Friday, 9am to 6pm, and Saturday 10am to 2pm.');
    expect(chunks[0]).toEqual({ type: 'sources', sources: [] });
  });

  it('does not answer from a passage holding under half the question (one shared word of four)', async () => {
    const { text } = await run(
      new LocalResponder(),
      ask('Can I pick up my order in Berlin?', {
        qnas: [{ id: uuid(3), question: 'How do I track my order?', answer: 'Open your order page.', score: 0.45 }],
        chunks: [],
      }),
    );
    expect(text).toBe(DONT_KNOW_ANSWER);
  });

  it('declines a question whose subject the passage lacks although it shares the verb ("Do you sell skateboards?")', async () => {
    const bikes: Retrieval = {
      qnas: [],
      chunks: [
        {
          documentId: uuid(30),
          title: 'Refurbished bikes',
          url: 'https://shop.example/bikes',
          content: 'We sell refurbished city bikes and e-bikes. We ship them to every EU country.',
          score: 0.3,
        },
      ],
    };
    expect((await run(new LocalResponder(), ask('Do you sell skateboards?', bikes))).text).toBe(DONT_KNOW_ANSWER);
    expect((await run(new LocalResponder(), ask('Do you ship to Japan?', bikes))).text).toBe(DONT_KNOW_ANSWER);
    expect((await run(new LocalResponder(), ask('Do you sell e-bikes?', bikes))).text).toBe('We sell refurbished city bikes and e-bikes.');
    expect((await run(new LocalResponder(), ask('How fast do you ship?', bikes))).text).toBe('We ship them to every EU country.');
  });

  it('answers greetings without looking anything up', async () => {
    const { text } = await run(new LocalResponder(), ask('Hello there!', { qnas: [], chunks: [] }));
    expect(text).toBe('Hello! How can I help you today?');
  });

  it('answers the last user message, not an earlier one', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'What are your opening hours?' },
      { role: 'assistant', content: 'We are open Monday to Friday.' },
    ];
    const { text } = await run(new LocalResponder(), ask('Do you sell bicycles?', { qnas: [], chunks: [] }, history));
    expect(text).toBe(DONT_KNOW_ANSWER);
  });

  it('streams word groups that concatenate to the answer', async () => {
    const { deltas, text } = await run(new LocalResponder({ wordsPerFragment: 2 }), ask('What are your opening hours?', knowledge));
    expect(deltas.length).toBe(7); // 14 words in groups of 2
    expect(deltas[0]).toBe('We are ');
    expect(deltas.join('')).toBe(text);
    expect(deltas.every((d) => d.trim().split(/\s+/).length <= 2)).toBe(true);
  });

  it('reports the usage it measured on the prompt and the answer', async () => {
    const request: ChatRequest = {
      model: null,
      messages: [
        { role: 'system', content: 'Be brief.' }, // Be, brief, . + role = 4
        { role: 'user', content: 'What are your opening hours?' }, // 6 + role = 7
      ],
      grounding: {
        qnas: [{ id: uuid(1), question: 'What are your opening hours?', answer: 'From 9am to 5pm, daily.', score: 0.9 }],
        chunks: [],
      },
    };
    const { finish } = await run(new LocalResponder(), request);
    // From, 9am, to, 5pm, ",", daily, "." = 7
    const expected: Usage = { inputTokens: 11, outputTokens: 7, totalTokens: 18, reasoningTokens: 0, cachedInputTokens: 0 };
    expect(finish.usage).toEqual(expected);
  });

  it('stops when the request is aborted', async () => {
    const controller = new AbortController();
    const request = { ...ask('What are your opening hours?', knowledge), signal: controller.signal };
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of new LocalResponder({ wordsPerFragment: 1 }).stream(request)) {
          if (chunk.type === 'delta') seen.push(chunk.delta);
          if (seen.length === 2) controller.abort(new Error('visitor left'));
        }
      })(),
    ).rejects.toThrow('visitor left');
    expect(seen).toHaveLength(2);
  });
});
