import { AppError, type ChatCompletionResult, ErrorCode, type TokenChunk } from '@palaver/contracts';

/** Collects a reply into the spec's Chat completion result; a failed reply throws its error. */
export const collectCompletion = async (fragments: AsyncIterable<TokenChunk>): Promise<ChatCompletionResult> => {
  for await (const fragment of fragments) {
    if (fragment.type === 'delta') continue;
    if (fragment.type === 'error') {
      const code = ErrorCode.safeParse(fragment.code);
      const known = code.success ? code.data : 'BAD_GATEWAY';
      throw new AppError(known, fragment.error, known === 'BAD_GATEWAY' ? { service: 'llm' } : { retryAfter: 5 });
    }
    return {
      steps: [
        {
          content: [{ type: 'text', text: fragment.text }],
          finishReason: fragment.finishReason,
          usage: fragment.usage,
        },
      ],
    };
  }
  throw new AppError('BAD_GATEWAY', 'the reply ended without a result', { service: 'llm' });
};
